#include "ops/registry.h"

#include "support/error.h"

namespace fx {

Names::Names(std::initializer_list<const char*> names) noexcept
    : std::vector<std::string>(names.begin(), names.end()) {}
Names::Names(std::initializer_list<std::string> names) : std::vector<std::string>(names) {}

Names::~Names() = default;
OpDef::~OpDef() = default;

OpRegistrar::OpRegistrar(OpDef def) noexcept { OpRegistry::global().add(std::move(def)); }

OpRegistry& OpRegistry::global() {
  // Function-local: constructed on first use, so registrars in any translation unit may run first.
  static OpRegistry registry;
  return registry;
}

const OpDef& OpRegistry::add(OpDef def) {
  FX_CHECK(def.run != nullptr, "op '" + def.name + "' registered without a function");
  std::vector<std::string> fns = def.functions;
  fns.insert(fns.begin(), def.name);
  for (const auto& f : fns)
    if (functions_.count(f)) throw FxError("op name '" + f + "' registered twice");
  for (const auto& m : def.methods)
    if (methods_.count(m)) throw FxError("method '" + m + "' registered twice");
  defs_.push_back(std::move(def));
  const OpDef* entry = &defs_.back();
  for (const auto& f : fns) functions_[f] = entry;
  for (const auto& m : entry->methods) methods_[m] = entry;
  return *entry;
}

const OpDef* OpRegistry::find_function(const std::string& target) const {
  auto it = functions_.find(target);
  return it == functions_.end() ? nullptr : it->second;
}

const OpDef* OpRegistry::find_method(const std::string& name) const {
  auto it = methods_.find(name);
  return it == methods_.end() ? nullptr : it->second;
}

const OpDef* OpRegistry::find(Op op, const std::string& target) const {
  if (op == Op::CallFunction) return find_function(target);
  if (op == Op::CallMethod) return find_method(target);
  return nullptr;
}

Object OpRegistry::call(const std::string& target, std::vector<Object> args,
                        std::vector<std::pair<std::string, Object>> kwargs) const {
  const OpDef* def = find_function(target);
  if (!def) throw FxError("unsupported op: " + target);
  OpCall call;
  call.args = std::move(args);
  call.kwargs = std::move(kwargs);
  return def->run(call);
}

}  // namespace fx
