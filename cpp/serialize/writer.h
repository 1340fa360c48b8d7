// Writing a GraphModule as a .fxw file (docs/format.md): program JSON, tensors 64-byte aligned, and the
// reference inputs/outputs when present. read_fxw(write_fxw(gm)) gives back an equal module.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program/graph_module.h"
#include "serialize/value_json.h"

namespace fx {

std::vector<uint8_t> write_fxw(const GraphModule& gm);

// The program JSON alone (what __metadata__.program holds). `reference_tensors` (may be null) receives
// each reference tensor with the name the program gives it, inputs first, then outputs.
Json program_to_json(const GraphModule& gm, std::vector<std::pair<std::string, Tensor>>* reference_tensors);

}  // namespace fx
