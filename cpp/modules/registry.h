// Leaf torch.nn modules (call_module targets) the runtime can run, keyed by qualified class name
// ("torch.nn.modules.linear.Linear"). Shape inference runs a bound module in meta mode, as an op's run
// (ops/registry.h): modules compute through the ops' dispatch, so none needs more. A module is bound once per call_module node when the Interpreter
// is built — parameters looked up, hyperparameters parsed — and the bound function only computes.
#pragma once
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "module/graph_module.h"
#include "ops/registry.h"

namespace fx {

struct ModuleBinding {
  const GraphModule& gm;
  const std::string& path;  // qualified module name, e.g. "layer1.0.conv1"
  const ModuleInfo& info;
  // The tensor `path.name` (a parameter or buffer), or nullptr.
  const Tensor* tensor(const std::string& name) const {
    return gm.find_tensor(path.empty() ? name : path + "." + name);
  }
  const Value* hparam(const std::string& name) const {
    for (const auto& [k, v] : info.hparams)
      if (k == name) return &v;
    return nullptr;
  }
};

// Runs a bound module on the node's args/kwargs (OpCall::node is the call_module node).
using BoundModule = std::function<Object(const OpCall&)>;
using ModuleBinder = BoundModule (*)(const ModuleBinding&);  // FxError when the module is malformed

class ModuleRegistry {
 public:
  static ModuleRegistry& global();
  // Registers `bind` under every type name; FxError if a name is taken.
  void add(const std::vector<std::string>& types, ModuleBinder bind);
  ModuleBinder find(const std::string& type) const;  // nullptr when unknown
  std::vector<std::string> types() const;           // every registered type name, sorted

 private:
  std::unordered_map<std::string, ModuleBinder> binders_;
};

struct ModuleRegistrar {
  ModuleRegistrar(const std::vector<std::string>& types, ModuleBinder bind) {
    ModuleRegistry::global().add(types, bind);
  }
};

}  // namespace fx
