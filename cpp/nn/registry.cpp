#include "nn/registry.h"

#include <algorithm>

#include "support/error.h"

namespace fx {

ModuleRegistrar::ModuleRegistrar(std::initializer_list<const char*> types, ModuleBinder bind) noexcept
    : ModuleRegistrar(std::vector<std::string>(types.begin(), types.end()), bind) {}
ModuleRegistrar::ModuleRegistrar(const std::vector<std::string>& types, ModuleBinder bind) noexcept {
  ModuleRegistry::global().add(types, bind);
}

ModuleRegistry& ModuleRegistry::global() {
  static ModuleRegistry registry;
  return registry;
}

void ModuleRegistry::add(const std::vector<std::string>& types, ModuleBinder bind) {
  FX_CHECK(bind != nullptr, "module registered without a binder");
  for (const auto& t : types)
    if (binders_.count(t)) throw FxError("module type '" + t + "' registered twice");
  for (const auto& t : types) binders_[t] = bind;
}

ModuleBinder ModuleRegistry::find(const std::string& type) const {
  auto it = binders_.find(type);
  return it == binders_.end() ? nullptr : it->second;
}

std::vector<std::string> ModuleRegistry::types() const {
  std::vector<std::string> out;
  for (const auto& [t, bind] : binders_) out.push_back(t);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace fx
