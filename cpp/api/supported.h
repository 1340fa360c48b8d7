// What the runtime can run: every call_function target, call_method name and leaf module type the op and
// module registries hold — for `fxwasm ops`, the JS API's supportedOps() and the exporter's list
// (python/fxwasm/supported_ops.json, which a test keeps equal to this).
#pragma once
#include <string>

namespace fx {

// {"functions": [...], "methods": [...], "modules": [...]}, each sorted, every spelling the registries accept.
std::string supported_ops_json();

}  // namespace fx
