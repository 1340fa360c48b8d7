#include "api/wire.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/resident.h"
#include "serialize/json_parse.h"
#include "serialize/value_json.h"
#include "support/error.h"

namespace fx {
namespace {

using json = nlohmann::ordered_json;  // the one JSON type of the project (each type is ~50 KB of wasm)

std::string shape_text(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// The checks both readers share, on a wire tensor's parts: the bytes match dtype × shape; views them in
// place when `blocks` owns `address`, copies them otherwise.
Tensor tensor_from_parts(DType dtype, const Shape& shape, uintptr_t address, size_t nbytes, const WireBlocks* blocks) {
  const size_t want = static_cast<size_t>(checked_numel(shape)) * dtype_size(dtype);
  FX_CHECK(nbytes == want, "$tensor: " + std::to_string(nbytes) + " bytes given for " + std::string(dtype_name(dtype)) +
                               " " + shape_text(shape) + ", which needs " + std::to_string(want));
  auto* ptr = reinterpret_cast<uint8_t*>(address);
  FX_CHECK(ptr != nullptr || nbytes == 0, "$tensor: null data pointer");
  if (blocks) {
    const auto owner = blocks->find(address);
    if (owner != blocks->end()) return Tensor::view_bytes(shape, dtype, ptr, nbytes, owner->second);
  }
  return Tensor::from_bytes(shape, dtype, ptr, nbytes);
}

// A resident tensor (api/resident.h), named on the wire by ptr = -id: taken as it is, or a copy when
// `copy()` says so, once it is what the caller describes.
Tensor resident_input(int64_t id, DType dtype, const Shape& shape, const CopyResident& copy) {
  const Tensor& t = resident_tensors().get(id);
  FX_CHECK(t.dtype() == dtype && t.shape() == shape,
           "$tensor: resident tensor " + std::to_string(id) + " is " + dtype_name(t.dtype()) + " " +
               shape_text(t.shape()) + ", described as " + dtype_name(dtype) + " " + shape_text(shape));
  return copy && copy() ? t.clone() : t;
}

// The body of a wire {"$tensor": …}: {dtype, shape, ptr, nbytes}; a negative ptr is a resident tensor.
Tensor tensor_from_wire(const json& j, const WireBlocks* blocks, const CopyResident& copy_resident) {
  FX_CHECK(j.is_object(), std::string("$tensor needs {dtype, shape, ptr, nbytes}, found a JSON ") + j.type_name());
  const auto member = [&](const char* key) {
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
  };
  const json* dtype_name_j = member("dtype");
  const json* shape_j = member("shape");
  const json* ptr_j = member("ptr");
  const json* nbytes_j = member("nbytes");
  FX_CHECK(dtype_name_j && dtype_name_j->is_string(), "$tensor: missing dtype");
  FX_CHECK(shape_j && shape_j->is_array(), "$tensor: missing shape");
  FX_CHECK(ptr_j && ptr_j->is_number_integer(), "$tensor: missing data pointer");
  FX_CHECK(nbytes_j && nbytes_j->is_number_unsigned(), "$tensor: missing byte count");
  const DType dtype = dtype_from_name(dtype_name_j->get<std::string>());
  Shape shape;
  for (const json& d : *shape_j) {
    // No dump() of the shape in the message: it may nest arbitrarily deep, and dump() recurses.
    FX_CHECK(d.is_number_integer() && d.get<int64_t>() >= 0,
             "$tensor: shape must hold non-negative integers; item " + std::to_string(shape.size()) + " is " +
                 (d.is_number_integer() ? std::to_string(d.get<int64_t>()) : std::string("a JSON ") + d.type_name()));
    shape.push_back(d.get<int64_t>());
  }
  if (!ptr_j->is_number_unsigned()) {  // negative
    const int64_t ptr = ptr_j->get<int64_t>();
    return resident_input(ptr == INT64_MIN ? 0 : -ptr, dtype, shape, copy_resident);
  }
  return tensor_from_parts(dtype, shape, static_cast<uintptr_t>(ptr_j->get<uint64_t>()), nbytes_j->get<size_t>(),
                           blocks);
}

json tensor_to_wire(const Tensor& tensor, std::vector<Tensor>& keep) {
  Tensor t = tensor.contiguous();
  json j = json::object();
  j["dtype"] = dtype_name(t.dtype());
  j["shape"] = t.shape();
  j["ptr"] = t.numel() ? static_cast<uint64_t>(reinterpret_cast<uintptr_t>(t.raw_data())) : 0;
  j["nbytes"] = t.nbytes();
  keep.push_back(std::move(t));
  return j;
}

}  // namespace

Object object_from_wire(const json& j, const WireBlocks* blocks, const std::string& where,
                        const CopyResident& copy_resident) {
  const TensorReader read = [&](const json& body) { return tensor_from_wire(body, blocks, copy_resident); };
  return object_from_json(j, read, ValueContext{"", where});
}

json object_to_wire(const Object& o, std::vector<Tensor>& keep) {
  return object_to_json(o, [&keep](const Tensor& t, const std::string&) { return tensor_to_wire(t, keep); });
}

json parse_wire_json(const std::string& text) {
  try {
    return fxw::parse_json(text);
  } catch (const json::exception& e) {
    throw FxError(std::string("malformed JSON from JavaScript: ") + e.what());
  }
}

std::vector<Object> inputs_from_wire(const std::string& text, const WireBlocks* blocks,
                                     const std::vector<std::string>& names, const CopyResident& copy_resident) {
  const json inputs = parse_wire_json(text);
  FX_CHECK(inputs.is_array(), "inputs must be a JSON array");
  std::vector<Object> args;
  args.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string where = i < names.size() ? "input '" + names[i] + "'" : "input #" + std::to_string(i);
    try {
      args.push_back(object_from_wire(inputs[i], blocks, where, copy_resident));
    } catch (const FxError& e) {
      if (i >= names.size() || !e.node().empty()) throw;
      throw FxError(e.bare_message(), names[i]);
    }
  }
  return args;
}

WireBlocks own_wire_blocks(const double* ptrs, size_t n) {
  WireBlocks blocks;
  for (size_t i = 0; i < n; ++i) {
    void* p = reinterpret_cast<void*>(static_cast<uintptr_t>(ptrs[i]));
    std::shared_ptr<void> owner(p, [](void* q) { std::free(q); });  // frees p itself if this throws
    blocks.emplace(reinterpret_cast<uintptr_t>(p), std::move(owner));
  }
  return blocks;
}

static_assert(static_cast<int>(DType::Complex128) + 1 == kWireDTypes, "the packed form's dtype codes are the DType enum");

namespace {

// Reads one packed value `depth` containers deep at d[at]; `at` moves past it.
Object unpack(const double* d, size_t size, size_t& at, const WireBlocks& blocks, const CopyResident& copy_resident,
              size_t depth) {
  auto next = [&]() {
    FX_CHECK(at < size, "packed value is truncated");
    return d[at++];
  };
  auto count = [&](const char* what) {
    const double n = next();
    FX_CHECK(n >= 0 && n <= static_cast<double>(size - at) && n == static_cast<double>(static_cast<size_t>(n)),
             std::string("packed ") + what + ": bad item count");
    return static_cast<size_t>(n);
  };
  const double kind = next();
  if (kind == 0) {
    const double code = next();
    FX_CHECK(code >= 0 && code < kWireDTypes && code == static_cast<int>(code),
             "$tensor: unknown dtype code " + std::to_string(code));
    const size_t ndim = count("tensor");
    const double ptr = next();
    const double nbytes = next();
    constexpr double kMaxExact = 9007199254740992.0;  // 2^53
    FX_CHECK(std::abs(ptr) <= kMaxExact && ptr == std::trunc(ptr) && nbytes >= 0 && nbytes <= kMaxExact,
             "$tensor: bad data pointer or byte count");
    Shape shape(ndim);
    for (size_t k = 0; k < ndim; ++k) {
      const double s = next();
      FX_CHECK(s >= 0 && s <= kMaxExact && s == std::trunc(s),
               "$tensor: shape must hold non-negative integers; item " + std::to_string(k) + " is " +
                   std::to_string(s));
      shape[k] = static_cast<int64_t>(s);
    }
    const auto dtype = static_cast<DType>(static_cast<int>(code));
    if (ptr < 0) return Object(resident_input(static_cast<int64_t>(-ptr), dtype, shape, copy_resident));
    return Object(tensor_from_parts(dtype, shape, static_cast<uintptr_t>(ptr), static_cast<size_t>(nbytes), &blocks));
  }
  if (kind == 1 || kind == 2) {
    if (depth > kMaxObjectDepth)
      throw FxError("value nests deeper than " + std::to_string(kMaxObjectDepth) +
                    " levels (tuples, lists, dicts); the limit is " + std::to_string(kMaxObjectDepth));
    const size_t n = count(kind == 1 ? "tuple" : "list");
    std::vector<Object> items;
    items.reserve(n);
    for (size_t i = 0; i < n; ++i) items.push_back(unpack(d, size, at, blocks, copy_resident, depth + 1));
    return kind == 1 ? Object::tuple(std::move(items)) : Object::list(std::move(items));
  }
  FX_CHECK(kind == 3, "packed value: unknown kind " + std::to_string(kind));
  return Object();
}

// Kept for JS to copy out (contiguous: one block), or, `resident` (non-null), added to the resident
// tensors as it is (ptr = -id; undone by the caller when packing fails).
bool pack(const Object& o, std::vector<Tensor>& keep, std::vector<int64_t>* resident, std::vector<double>& out,
          size_t depth) {
  switch (o.kind()) {
    case Object::Kind::Tensor: {
      const Tensor& t = o.tensor();
      out.push_back(0);
      out.push_back(static_cast<double>(static_cast<int>(t.dtype())));
      out.push_back(static_cast<double>(t.shape().size()));
      if (resident) {
        resident->push_back(resident_tensors().add(t));
        out.push_back(-static_cast<double>(resident->back()));
      } else {
        keep.push_back(t.contiguous());
        out.push_back(t.numel() ? static_cast<double>(reinterpret_cast<uintptr_t>(keep.back().raw_data())) : 0);
      }
      out.push_back(static_cast<double>(t.nbytes()));
      for (int64_t s : t.shape()) out.push_back(static_cast<double>(s));
      return true;
    }
    case Object::Kind::Tuple:
    case Object::Kind::List:
      if (depth > kMaxObjectDepth) return false;
      out.push_back(o.kind() == Object::Kind::Tuple ? 1 : 2);
      out.push_back(static_cast<double>(o.items().size()));
      for (const Object& x : o.items())
        if (!pack(x, keep, resident, out, depth + 1)) return false;
      return true;
    case Object::Kind::Dict: return false;
    case Object::Kind::Value: break;
  }
  if (o.value().kind() != ValueKind::None) return false;
  out.push_back(3);
  return true;
}

}  // namespace

std::vector<Object> inputs_from_packed(const double* d, size_t size, const WireBlocks& blocks,
                                       const std::function<std::vector<std::string>()>& names,
                                       const CopyResident& copy_resident) {
  size_t at = 0;
  FX_CHECK(size >= 2 && d[0] == 1, "packed inputs must be one tuple");
  ++at;
  const double n = d[at++];
  FX_CHECK(n >= 0 && n <= static_cast<double>(size), "packed inputs: bad item count");
  std::vector<Object> args;
  args.reserve(static_cast<size_t>(n));
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    try {
      args.push_back(unpack(d, size, at, blocks, copy_resident, 1));
    } catch (const FxError& e) {
      // As the JSON reader words it: "input 'x': …", naming the placeholder.
      const std::vector<std::string> known = names();
      const bool named = i < known.size();
      const std::string where = named ? "input '" + known[i] + "'" : "input #" + std::to_string(i);
      throw FxError(where + ": " + e.bare_message(), e.node().empty() && named ? known[i] : e.node());
    }
  }
  FX_CHECK(at == size, "packed inputs: " + std::to_string(size - at) + " doubles left over");
  return args;
}

bool object_to_packed(const Object& o, std::vector<Tensor>& keep, std::vector<double>& out, bool resident) {
  const size_t kept = keep.size();
  std::vector<int64_t> added;
  out.clear();
  if (pack(o, keep, resident ? &added : nullptr, out, 1)) return true;
  keep.resize(kept);
  for (int64_t id : added) resident_tensors().free(id);
  out.clear();
  return false;
}

}  // namespace fx
