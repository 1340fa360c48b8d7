// Leaf torch.nn modules (call_module targets) the runtime can run, keyed by qualified class name
// ("torch.nn.modules.linear.Linear"). Shape inference runs a bound module in meta mode, as an op's run
// (ops/registry.h): modules compute through the ops' dispatch, so none needs more. A module is bound once per call_module node when the Interpreter
// is built — parameters looked up, hyperparameters parsed — and the bound function only computes.
#pragma once
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "program/graph_module.h"
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

// Runs a bound module on the node's args/kwargs (OpCall::node is the call_module node). A bound module is
// a callable (a binder's lambda) behind a reference-counted pointer and two plain function pointers:
// std::function's per-lambda vtable, typeinfo and clone code cost ~1 KB of wasm per binder (measured
// for issue #5's size goal). Copies share the callable; it is only ever called (const), never changed.
// The count is not atomic: bound modules are copied when an Interpreter is built, on one thread.
class BoundModule {
 public:
  BoundModule() = default;
  BoundModule(std::nullptr_t) {}
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, BoundModule>>>
  BoundModule(F f) : held_(new Held<F>(std::move(f))) {}
  BoundModule(const BoundModule& o) noexcept : held_(o.held_) {
    if (held_) ++held_->refs;
  }
  BoundModule(BoundModule&& o) noexcept : held_(o.held_) { o.held_ = nullptr; }
  BoundModule& operator=(BoundModule o) noexcept {
    std::swap(held_, o.held_);
    return *this;
  }
  ~BoundModule() {
    if (held_ && --held_->refs == 0) held_->destroy(held_);
  }
  explicit operator bool() const { return held_ != nullptr; }
  Object operator()(const OpCall& call) const { return held_->call(held_, call); }

 private:
  struct Base {
    long refs;
    Object (*call)(const Base*, const OpCall&);
    void (*destroy)(Base*);
  };
  template <class F>
  struct Held : Base {
    F fn;
    explicit Held(F f) : Base{1, &run, &drop}, fn(std::move(f)) {}
    static Object run(const Base* b, const OpCall& call) { return static_cast<const Held*>(b)->fn(call); }
    static void drop(Base* b) { delete static_cast<Held*>(b); }
  };
  Base* held_ = nullptr;
};
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

// Out of line, and from literals without a std::string per name at the call site (startup code size).
struct ModuleRegistrar {
  ModuleRegistrar(std::initializer_list<const char*> types, ModuleBinder bind) noexcept;
  ModuleRegistrar(const std::vector<std::string>& types, ModuleBinder bind) noexcept;
};

}  // namespace fx
