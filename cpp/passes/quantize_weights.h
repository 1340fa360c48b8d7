// Stores a GraphModule's weights quantized (docs/format.md §7) — what `fxwasm quantize` and
// python/fxwasm's save(weights=...) do; both pick the same tensors and compute the same bytes.
//   "int8" / "int4": the weights of Linear and Embedding layers (nn.Linear / nn.Embedding modules, and
//     F.linear, aten.linear, fxwasm.fused_linear, F.embedding, aten.embedding with a get_attr weight) in
//     that scheme; every other float32 tensor as float16.
//   "fp16": every float32 tensor as float16.
//   "fp32": every tensor back to float32.
// A tensor the scheme cannot hold faithfully (inf/NaN among int8/int4 weights, float16 overflow) stays as
// it is (an int8/int4 candidate then tries float16). FxError on an unknown mode.
#pragma once
#include <string>
#include <vector>

#include "program/graph_module.h"

namespace fx {

struct QuantizeSummary {
  int int8 = 0, int4 = 0, fp16 = 0, fp32 = 0;  // tensors stored each way afterwards
};
QuantizeSummary quantize_weights(GraphModule& gm, const std::string& mode);

// The names of the tensors "int8"/"int4" quantize: Linear and Embedding weights, by name.
std::vector<std::string> linear_and_embedding_weights(const GraphModule& gm);

}  // namespace fx
