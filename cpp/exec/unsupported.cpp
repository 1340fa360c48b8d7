#include "exec/unsupported.h"

#include <map>

#include "nn/registry.h"
#include "ops/registry.h"

namespace fx {

std::vector<UnsupportedOp> find_unsupported(const GraphModule& gm) {
  std::vector<UnsupportedOp> out;
  std::map<std::pair<std::string, std::string>, size_t> index;  // (kind, target) → position in out
  auto note = [&](const std::string& kind, const std::string& target, const Node& n) {
    auto key = std::make_pair(kind, target);
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, out.size()).first;
      out.push_back({kind, target, {}});
    }
    out[it->second].nodes.push_back(n.name());
  };
  const OpRegistry& reg = OpRegistry::global();
  for (const Node* n : gm.graph().nodes()) {
    switch (n->op()) {
      case Op::CallFunction:
        if (!reg.find_function(n->target())) note("function", n->target(), *n);
        break;
      case Op::CallMethod:
        if (!reg.find_method(n->target())) note("method", n->target(), *n);
        break;
      case Op::CallModule: {
        // Report the module's type (or that the path names no module).
        auto it = gm.modules().find(n->target());
        if (it == gm.modules().end()) note("module", "<missing module " + n->target() + ">", *n);
        else if (!ModuleRegistry::global().find(it->second.type)) note("module", it->second.type, *n);
        break;
      }
      default: break;
    }
  }
  return out;
}

std::string format_unsupported(const std::vector<UnsupportedOp>& ops) {
  std::string msg = "unsupported ops: ";
  for (size_t i = 0; i < ops.size(); ++i) {
    const UnsupportedOp& u = ops[i];
    if (i) msg += "; ";
    if (u.kind == "method") msg += "method ";
    else if (u.kind == "module") msg += "module type ";
    msg += u.target + " (nodes: ";
    for (size_t j = 0; j < u.nodes.size(); ++j) msg += (j ? ", " : "") + u.nodes[j];
    msg += ")";
  }
  return msg;
}

}  // namespace fx
