// For ops composed of other ops (normalize = norm → clamp_min → div, …): call an op by its call_function
// target through the global registry, with already-evaluated arguments.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "ops/registry.h"

namespace fx {

inline Object call_op(const std::string& target, std::vector<Object> args,
                      std::vector<std::pair<std::string, Object>> kwargs = {}) {
  return OpRegistry::global().call(target, std::move(args), std::move(kwargs));
}

}  // namespace fx
