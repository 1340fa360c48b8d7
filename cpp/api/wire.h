// Run inputs and outputs across the bindings, in the file's value dialect (docs/format.md §3, read and
// written by serialize/value_json.h). Tensor bytes never go through JSON: on the wire a tensor is
//   {"$tensor": {"dtype": "float32", "shape": [2, 3], "ptr": <heap address>, "nbytes": 24}}
// — the caller copies the bytes in before a run (into blocks a run may take over: WireBlocks) and out after it.
// A negative ptr, -id, names a resident tensor instead (api/resident.h: kept in the runtime between runs; its
// nbytes is not read); a run's reader takes a copy when `copy_resident()` says so (CopyResident).
// Tensors in tuples and lists also have a packed spelling in doubles (below), read and written without JSON.
#pragma once
#include <cstdint>
#include <functional>
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

// Whether a run's reader takes copies of resident tensors (a graph that writes in place), asked only when
// an input is one; unset: no.
using CopyResident = std::function<bool()>;

// Takes over the `n` blocks at the addresses `ptrs` holds: each is freed once nothing views it (or now,
// if taking it over fails).
WireBlocks own_wire_blocks(const double* ptrs, size_t n);

// JSON text from JS (run inputs, tensors, graph edits) as a DOM: nlohmann's parser (no recursion: any
// nesting parses), except that an integer literal outside int64/uint64 is kept as a marker
// (serialize/json_parse.h big_integer) which the decoders reject, rather than read as a rounded float.
nlohmann::ordered_json parse_wire_json(const std::string& text);

// Decodes one value, viewing a tensor's bytes when `blocks` owns its ptr and copying them otherwise
// (validated against dtype × shape). `where` names it in messages ("input 'x': ..."). Values nest at most
// kMaxObjectDepth (64) tuples, lists and dicts, and integers fit in int64: anything else is an FxError
// saying so, found before any deeper recursion.
Object object_from_wire(const nlohmann::ordered_json& j, const WireBlocks* blocks = nullptr,
                        const std::string& where = "input", const CopyResident& copy_resident = {});

// The inputs of a run: `text` is a JSON array of values; `names` (the placeholders, may be empty) name
// them in messages and as FxError::node ("input 'x': value nests deeper than 64 levels").
std::vector<Object> inputs_from_wire(const std::string& text, const WireBlocks* blocks,
                                     const std::vector<std::string>& names = {},
                                     const CopyResident& copy_resident = {});

// Encodes `o`; each tensor is made contiguous and appended to `keep`, which must outlive the caller's
// copy of the bytes the returned ptrs address.
nlohmann::ordered_json object_to_wire(const Object& o, std::vector<Tensor>& keep);

// The packed form: the same values in doubles, for the usual run — tensors in tuples and lists — where
// parsing and writing JSON would cost more than a small graph's whole run. A value is
//   tensor: 0, dtype code (the DType enum's order: kWireDTypes of them), ndim, ptr, nbytes, dims...
//   tuple: 1, count, items...      list: 2, count, items...      None: 3
// (docs/format.md §3). In a run reply {"$packed": address} stands for the value packed at that address.
constexpr int kWireDTypes = 12;

// The inputs of a run packed as one tuple in `size` doubles; checks and messages as inputs_from_wire's
// (`names()` gives the placeholders' names, asked only when a message needs one).
std::vector<Object> inputs_from_packed(const double* d, size_t size, const WireBlocks& blocks,
                                       const std::function<std::vector<std::string>()>& names,
                                       const CopyResident& copy_resident = {});

// Packs `o` into `out` (cleared first), its tensors made contiguous and appended to `keep` — or with
// `resident`, added as they are to the resident tensors (ptr = -id); false, with `keep` and the resident
// tensors as they were, when `o` holds anything but tensors, tuples, lists and None.
bool object_to_packed(const Object& o, std::vector<Tensor>& keep, std::vector<double>& out, bool resident = false);

}  // namespace fx
