// FX's naming rules (torch/fx/graph.py: _Namespace, _snake_case, _target_to_str), so names made here are
// the names the reference torch would make: abs_1, sum_1, add_1, layer1_0_conv1, reserved words avoided.
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace fx {

class Namespace {
 public:
  // A new unique name from `candidate` (illegal characters → '_', leading digit prefixed, numeric suffix
  // continued, Python keywords and builtins avoided), recorded as used.
  std::string create_name(const std::string& candidate);
  bool is_used(const std::string& name) const { return used_.count(name) != 0; }
  // Whether create_name(name) would return `name` itself: a valid identifier, not reserved, not used.
  // Names read from a file must be such (FX made them), which also keeps create_name from searching.
  bool accepts(const std::string& name) const;
  void release(const std::string& name);

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, long long> base_count_;
};

// The candidate FX derives from a target: the callable's __name__ for call_function ("torch.abs" → "abs",
// "aten.convolution.default" → as torch names OpOverloads), magic methods stripped ("__add__" → "add"),
// '.' → '_' and camelCase → snake_case as _snake_case does.
std::string candidate_name_for_target(const std::string& op_name, const std::string& target);

// Whether a call_function target names a torch.ops operator (an OpOverload or OpOverloadPacket):
// "aten.add.Tensor", "prims.convert_element_type.default", "torch.ops.aten.relu.default".
bool is_op_overload_target(const std::string& target);

}  // namespace fx
