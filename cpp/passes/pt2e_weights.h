// Int8 Linear weights from PyTorch 2 quantization. torchao's convert_pt2e stores a weight as int8 with
// per-channel scales and dequantises it in the graph:
//
//     w = quantized_decomposed.dequantize_per_channel(w_int8, scales, zero_points, 0, -127, 127, torch.int8)
//     y = aten.linear(x, w, b)
//
// This pass gives that node's value as one tensor backed by the int8 data (tensor/quantized.h, the same
// layout `weights="int8"` writes), so Linear runs the int8 kernels and any other reader gets exactly the
// values the dequantisation computes, (q - 0) · scale. It takes 2-D weights with zero zero points along
// axis 0 whose values lie in [-127, 127] (what the int8 kernels accept); any other dequantize_per_channel
// of constants (a convolution's weight) is computed once, by the op itself, into a float32 constant. A Linear whose input is itself dequantised (an int8 activation: dequantize_per_tensor)
// becomes fxwasm.fused_linear with that `act_scale`, so the int8 kernels take the activation's integers
// exactly instead of quantising its float values again. The plan (runtime/plan.h) runs it on its own copy
// of a graph.
#pragma once
#include "passes/pass.h"

namespace fx {

class Pt2eWeights : public Pass {
 public:
  const char* name() const override { return "pt2e_weights"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
