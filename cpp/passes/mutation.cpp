#include "passes/mutation.h"

#include <string>
#include <vector>

namespace fx {
namespace {

bool is_true(const Value& v) { return v.kind() == ValueKind::Bool && v.as_bool(); }

// The '.'-separated parts of a target ("aten.add_.Tensor" → aten, add_, Tensor).
std::vector<std::string> parts(const std::string& target) {
  std::vector<std::string> out(1);
  for (char c : target) {
    if (c == '.') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

bool in_place_name(const std::string& name) {
  if (name.size() > 4 && name.compare(0, 2, "__") == 0)  // __setitem__, __iadd__, __imul__ ...
    return name == "__setitem__" || (name[2] == 'i' && name != "__init__" && name != "__index__" &&
                                     name != "__int__" && name != "__invert__");
  return name.size() > 1 && name.back() == '_' && name.front() != '_';  // add_, copy_, masked_fill_
}

}  // namespace

bool writes_in_place(const Node& n, const GraphModule& gm) {
  for (const auto& [k, v] : n.kwargs())
    if (k == "out" || (k == "inplace" && is_true(v))) return true;
  switch (n.op()) {
    case Op::CallMethod: return in_place_name(n.target());
    case Op::CallFunction: {
      const std::vector<std::string> p = parts(n.target());
      if (p.front() == "operator") return p.back() == "setitem" || (p.back().size() > 1 && p.back()[0] == 'i' &&
                                                                    p.back() != "is_" && p.back() != "is_not" &&
                                                                    p.back() != "index" && p.back() != "invert");
      for (const std::string& s : p)
        if (in_place_name(s)) return true;
      // F.relu(x, True), F.dropout(x, 0.5, False, True): a positional True may be `inplace`.
      if (n.target().rfind("torch.nn.functional.", 0) == 0)
        for (const Value& a : n.args())
          if (is_true(a)) return true;
      return false;
    }
    case Op::CallModule: {
      auto it = gm.modules().find(n.target());
      if (it != gm.modules().end())
        for (const auto& [k, v] : it->second.hparams)
          if (k == "inplace" && is_true(v)) return true;
      return false;
    }
    default: return false;
  }
}


bool graph_mutates_in_place(const GraphModule& gm) {
  for (const Node* n : gm.graph().nodes())
    if (writes_in_place(*n, gm)) return true;
  return false;
}

}  // namespace fx
