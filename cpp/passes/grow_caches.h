// Caches that grow in place: `torch.cat([past, x], dim)` whose `past` is an input of the graph and whose
// value the graph returns — the KV cache of a decoding step, as torch.export and the ONNX exporters write
// it — becomes fxwasm.cat_grow (ops/array/cat_grow.cpp): the same value, in a block with room to grow, so
// that a cache the caller keeps in the runtime and gives back is appended to instead of copied whole:
//
//     cat = torch.cat([past_k, k], dim = 2)   →   cat = fxwasm.cat_grow([past_k, k], dim = 2)
//
// A value and the caches grown from it then share a block, so the pass leaves alone a graph that writes
// anything in place (passes/mutation.h). The plan (runtime/plan.h) runs it on its own copy of a graph.
#pragma once
#include "passes/pass.h"

namespace fx {

class GrowCaches : public Pass {
 public:
  const char* name() const override { return "grow_caches"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
