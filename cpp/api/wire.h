// The JSON form in which run inputs and outputs cross the bindings. Tensor bytes never go through JSON:
// a tensor is {"$t":"tensor","dtype","shape","ptr","nbytes"} where ptr addresses its bytes in the (wasm)
// heap — the caller copies them in before a run (into blocks a run may take over: WireBlocks) and out after it.
// The common case has a compact form in doubles (no JSON): tensors_from_descriptor / tensors_to_descriptor.
//   None ↔ null, bool ↔ true/false, int ↔ integral number, float ↔ number ({"$t":"float","v":"inf"|"-inf"|"nan"}
//   for non-finite ones, {"$t":"float","v":1} to force a float input), tuple/list ↔ array (inputs: tuple),
//   dict ↔ {"$t":"dict","items":[[key, value], ...]} (a plain object is accepted on input), other constants
//   (str, dtype, device, ...) → {"$t":"value","kind","repr"} on output, str ↔ string.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "program/object.h"

namespace fx {

// Heap blocks (64-byte aligned, malloc'ed) whose ownership the caller handed over, by address: a tensor
// whose ptr is one of them views its bytes in place instead of copying them.
using WireBlocks = std::unordered_map<uintptr_t, std::shared_ptr<void>>;

// Takes over the `n` blocks at the addresses `ptrs` holds: each is freed once nothing views it (or now,
// if taking it over fails).
WireBlocks own_wire_blocks(const double* ptrs, size_t n);

// Builds an Object, viewing a tensor's bytes when `blocks` owns its ptr and copying them otherwise
// (validated against dtype × shape). Values nest at most kMaxObjectDepth (64) levels and integers fit in
// int64: anything else is an FxError saying so, found before any deeper recursion.
Object object_from_wire(const nlohmann::ordered_json& j, const WireBlocks* blocks = nullptr);

// JSON text from JS (run inputs, tensors, graph edits) as a DOM: nlohmann's parser (no recursion: any
// nesting parses), except that an integer literal outside int64/uint64 is kept as a marker
// (serialize/json_parse.h big_integer) which the decoders reject, rather than read as a rounded float.
nlohmann::ordered_json parse_wire_json(const std::string& text);

// The inputs of a run: `text` is a JSON array of values in the wire form; `names` (the placeholders, may
// be empty) name them in messages and as FxError::node ("input 'x': value nests deeper than 64 levels").
std::vector<Object> inputs_from_wire(const std::string& text, const WireBlocks* blocks,
                                     const std::vector<std::string>& names = {});

// The fast form for inputs that are all tensors: `d` (`size` doubles) holds the `n` block pointers,
// then per input [dtype code (the DType enum's order), ndim, nbytes, dims...]; errors as object_from_wire's.
// A negative block pointer -id names a resident tensor (api/resident.h), taken as it is.
constexpr int kWireDTypes = 10;
std::vector<Object> tensors_from_descriptor(const double* d, size_t size, size_t n, const WireBlocks& blocks);

// The compact reply when `o` is a tensor (kind 0) or a flat tuple/list of tensors (kind 1): `out` becomes
// [kind, count, per tensor: dtype code, ndim, ptr, nbytes, dims...], tensors kept as by object_to_wire —
// or, `resident`, added to the resident tensors with ptr = -id. False (nothing kept) for any other output.
bool tensors_to_descriptor(const Object& o, std::vector<Tensor>& keep, std::vector<double>& out,
                           bool resident = false);

// Describes `o`; each tensor is made contiguous and appended to `keep`, which must outlive the caller's
// copy of the bytes the returned ptrs address.
nlohmann::ordered_json object_to_wire(const Object& o, std::vector<Tensor>& keep);

}  // namespace fx
