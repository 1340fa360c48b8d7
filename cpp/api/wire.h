// The JSON form in which run inputs and outputs cross the bindings. Tensor bytes never go through JSON:
// a tensor is {"$t":"tensor","dtype","shape","ptr","nbytes"} where ptr addresses its bytes in the (wasm)
// heap — the caller copies them in before a run and out after it.
//   None ↔ null, bool ↔ true/false, int ↔ integral number, float ↔ number ({"$t":"float","v":"inf"|"-inf"|"nan"}
//   for non-finite ones, {"$t":"float","v":1} to force a float input), tuple/list ↔ array (inputs: tuple),
//   dict ↔ {"$t":"dict","items":[[key, value], ...]} (a plain object is accepted on input), other constants
//   (str, dtype, device, ...) → {"$t":"value","kind","repr"} on output, str ↔ string.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "module/object.h"

namespace fx {

// Builds an Object, copying every tensor's bytes from its ptr (validated against dtype × shape).
Object object_from_wire(const nlohmann::json& j);

// Describes `o`; each tensor is made contiguous and appended to `keep`, which must outlive the caller's
// copy of the bytes the returned ptrs address.
nlohmann::ordered_json object_to_wire(const Object& o, std::vector<Tensor>& keep);

}  // namespace fx
