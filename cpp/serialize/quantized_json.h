// program.quantized (docs/format.md §7): which tensors of the file are stored quantized, and how.
#pragma once
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "program/graph_module.h"
#include "serialize/value_json.h"

namespace fx {

// Validates program.quantized against the header's tensors and replaces each quantized tensor of gm by
// its float32 form (tensor/quantized.h) over the stored bytes. `scales` are the header's `quant_scale`
// tensors; each must belong to exactly one entry. FxError naming the tensor and field otherwise.
void read_quantized(const Json& program, const std::unordered_map<std::string, Tensor>& scales, GraphModule& gm);

// The tensors of gm stored quantized, with the name of each one's scale tensor (none for fp16).
struct QuantizedEntry {
  std::string name, scale_name;
  const QuantizedWeight* q;
};
std::vector<QuantizedEntry> quantized_entries(const GraphModule& gm);
// program.quantized for those entries, and their scale tensors' kinds added to `tensor_kinds`.
Json quantized_to_json(const std::vector<QuantizedEntry>& entries, Json& tensor_kinds);

}  // namespace fx
