#include "api/supported.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "nn/registry.h"
#include "ops/registry.h"

namespace fx {

std::string supported_ops_json() {
  std::vector<std::string> functions, methods;
  for (const OpDef& def : OpRegistry::global().all()) {
    functions.push_back(def.name);
    functions.insert(functions.end(), def.functions.begin(), def.functions.end());
    methods.insert(methods.end(), def.methods.begin(), def.methods.end());
  }
  std::sort(functions.begin(), functions.end());
  std::sort(methods.begin(), methods.end());
  nlohmann::ordered_json j;
  j["functions"] = functions;
  j["methods"] = methods;
  j["modules"] = ModuleRegistry::global().types();
  return j.dump();
}

}  // namespace fx
