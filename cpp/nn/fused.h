// Leaf modules bound with work fused in by the runtime's plan (the chains
// passes/fuse.h finds with FusionOptions::runtime(), bound by the Interpreter): a Conv2d with the
// BatchNorm2d (eval) after it folded into its weights, a residual add and a clamp (relu / relu6 / hardtanh)
// in its GEMM epilogue; a Linear with a clamp. Each binder returns an empty BoundModule when the module
// cannot be fused (dtype other than float32, padding_mode other than zeros, training-mode BatchNorm,
// mismatched channels); the plan then leaves the nodes as they are.
#pragma once
#include <limits>

#include "nn/registry.h"

namespace fx {

struct FusedEpilogue {
  bool residual = false;  // the bound module takes the residual as call.args[1]
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

BoundModule bind_conv2d_fused(const ModuleBinding& conv, const ModuleBinding* batch_norm, const FusedEpilogue& e);
BoundModule bind_linear_fused(const ModuleBinding& linear, const FusedEpilogue& e);

}  // namespace fx
