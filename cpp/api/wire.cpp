#include "api/wire.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/resident.h"
#include "serialize/json_parse.h"
#include "serialize/limits.h"
#include "support/error.h"

namespace fx {
namespace {

// One JSON type for the whole project (ordered: the output text keeps its keys' order; each type is
// ~50 KB of wasm).
using json = nlohmann::ordered_json;
using ojson = nlohmann::ordered_json;

std::string shape_text(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// The checks and messages both wire forms share; views the bytes in place when `blocks` owns `ptr`.
Tensor tensor_from_parts(DType dtype, const Shape& shape, uintptr_t address, size_t nbytes, const WireBlocks* blocks) {
  const size_t want = static_cast<size_t>(checked_numel(shape)) * dtype_size(dtype);
  FX_CHECK(nbytes == want, "input tensor: " + std::to_string(nbytes) + " bytes given for " +
                               std::string(dtype_name(dtype)) + " " + shape_text(shape) + ", which needs " +
                               std::to_string(want));
  auto* ptr = reinterpret_cast<uint8_t*>(address);
  FX_CHECK(ptr != nullptr || nbytes == 0, "input tensor: null data pointer");
  if (blocks) {
    const auto owner = blocks->find(address);
    if (owner != blocks->end()) return Tensor::view_bytes(shape, dtype, ptr, nbytes, owner->second);
  }
  return Tensor::from_bytes(shape, dtype, ptr, nbytes);
}

Tensor tensor_from_json(const json& j, const WireBlocks* blocks) {
  FX_CHECK(j.contains("dtype") && j["dtype"].is_string(), "input tensor: missing dtype");
  FX_CHECK(j.contains("shape") && j["shape"].is_array(), "input tensor: missing shape");
  FX_CHECK(j.contains("ptr") && j["ptr"].is_number_unsigned(), "input tensor: missing data pointer");
  FX_CHECK(j.contains("nbytes") && j["nbytes"].is_number_unsigned(), "input tensor: missing byte count");
  const DType dtype = dtype_from_name(j["dtype"].get<std::string>());
  Shape shape;
  for (const json& d : j["shape"]) {
    // No dump() of the shape in the message: it may nest arbitrarily deep, and dump() recurses.
    FX_CHECK(d.is_number_integer() && d.get<int64_t>() >= 0,
             "input tensor: shape must hold non-negative integers; item " + std::to_string(shape.size()) + " is " +
                 (d.is_number_integer() ? std::to_string(d.get<int64_t>()) : std::string("a JSON ") + d.type_name()));
    shape.push_back(d.get<int64_t>());
  }
  return tensor_from_parts(dtype, shape, static_cast<uintptr_t>(j["ptr"].get<uint64_t>()), j["nbytes"].get<size_t>(),
                           blocks);
}

double float_from_json(const json& v) {
  if (v.is_number()) return v.get<double>();
  FX_CHECK(v.is_string(), "float input: expected a number or \"inf\", \"-inf\", \"nan\"");
  const std::string s = v.get<std::string>();
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  if (s == "nan") return NAN;
  throw FxError("float input: cannot read '" + s + "'");
}

}  // namespace

namespace {

bool is_container(const json& j) {
  if (j.is_array()) return true;
  if (!j.is_object()) return false;
  const auto tag = j.find("$t");
  return tag == j.end() || !tag->is_string() || (*tag != "tensor" && *tag != "float");
}

// Decodes one value `depth` containers deep (the input itself is at 1); `where` names it for messages.
// The depth is checked before any recursion, so a message nested 100,000 deep costs one FxError.
Object decode_wire(const json& j, const WireBlocks* blocks, size_t depth, const std::string& where) {
  if (depth > kMaxObjectDepth && is_container(j))
    throw FxError(where + ": value nests deeper than " + std::to_string(kMaxObjectDepth) +
                  " levels (tuples, lists, dicts); the limit is " + std::to_string(kMaxObjectDepth));
  auto nested = [&](const json& x) { return decode_wire(x, blocks, depth + 1, where); };
  switch (j.type()) {
    case json::value_t::null: return Object();
    case json::value_t::boolean: return Object(Value::boolean(j.get<bool>()));
    case json::value_t::number_integer: return Object(Value::integer(j.get<int64_t>()));
    case json::value_t::number_unsigned: {
      const uint64_t u = j.get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX))
        throw FxError(where + ": integer " + std::to_string(u) + " does not fit in 64-bit signed");
      return Object(Value::integer(static_cast<int64_t>(u)));
    }
    case json::value_t::number_float: return Object(Value::floating(j.get<double>()));
    case json::value_t::string: return Object(Value::str(j.get<std::string>()));
    case json::value_t::binary:
      if (fxw::is_big_integer(j))
        throw FxError(where + ": integer " + fxw::big_integer_text(j) + " does not fit in 64-bit signed");
      break;
    case json::value_t::array: {
      std::vector<Object> items;
      items.reserve(j.size());
      for (const json& x : j) items.push_back(nested(x));
      return Object::tuple(std::move(items));
    }
    case json::value_t::object: {
      const auto tag = j.find("$t");
      if (tag == j.end()) {
        std::vector<std::pair<std::string, Object>> items;
        for (auto it = j.begin(); it != j.end(); ++it) items.emplace_back(it.key(), nested(it.value()));
        return Object::dict(std::move(items));
      }
      const std::string t = tag->is_string() ? tag->get<std::string>() : "";
      if (t == "tensor") return Object(tensor_from_json(j, blocks));
      if (t == "float") return Object(Value::floating(float_from_json(j.value("v", json()))));
      if (t == "list" || t == "tuple") {
        std::vector<Object> items;
        const auto body = j.find("items");
        if (body != j.end()) {
          FX_CHECK(body->is_array(), where + ": " + t + " items must be an array");
          for (const json& x : *body) items.push_back(nested(x));
        }
        return t == "list" ? Object::list(std::move(items)) : Object::tuple(std::move(items));
      }
      if (t == "dict") {
        std::vector<std::pair<std::string, Object>> items;
        const auto body = j.find("items");
        if (body != j.end()) {
          FX_CHECK(body->is_array(), where + ": dict items must be an array");
          for (const json& kv : *body) {
            FX_CHECK(kv.is_array() && kv.size() == 2 && kv[0].is_string(), "dict input: items must be [key, value]");
            items.emplace_back(kv[0].get<std::string>(), nested(kv[1]));
          }
        }
        return Object::dict(std::move(items));
      }
      throw FxError(where + ": unknown tag '" + fxw::clip(t, 64) + "'");
    }
    default: break;
  }
  throw FxError(where + ": cannot read a JSON " + j.type_name());
}

}  // namespace

Object object_from_wire(const json& j, const WireBlocks* blocks) { return decode_wire(j, blocks, 1, "input"); }

json parse_wire_json(const std::string& text) {
  try {
    return fxw::parse_json(text);
  } catch (const json::exception& e) {
    throw FxError(std::string("malformed JSON from JavaScript: ") + e.what());
  }
}

std::vector<Object> inputs_from_wire(const std::string& text, const WireBlocks* blocks,
                                     const std::vector<std::string>& names) {
  const json inputs = parse_wire_json(text);
  FX_CHECK(inputs.is_array(), "inputs must be a JSON array");
  std::vector<Object> args;
  args.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string where = i < names.size() ? "input '" + names[i] + "'" : "input #" + std::to_string(i);
    try {
      args.push_back(decode_wire(inputs[i], blocks, 1, where));
    } catch (const FxError& e) {
      if (i >= names.size() || !e.node().empty()) throw;
      throw FxError(e.bare_message(), names[i]);
    }
  }
  return args;
}

ojson object_to_wire(const Object& o, std::vector<Tensor>& keep) {
  switch (o.kind()) {
    case Object::Kind::Tensor: {
      Tensor t = o.tensor().contiguous();
      ojson j;
      j["$t"] = "tensor";
      j["dtype"] = dtype_name(t.dtype());
      j["shape"] = t.shape();
      j["ptr"] = t.numel() ? static_cast<uint64_t>(reinterpret_cast<uintptr_t>(t.raw_data())) : 0;
      j["nbytes"] = t.nbytes();
      keep.push_back(std::move(t));
      return j;
    }
    case Object::Kind::Tuple:
    case Object::Kind::List: {
      ojson arr = ojson::array();
      for (const Object& x : o.items()) arr.push_back(object_to_wire(x, keep));
      return arr;
    }
    case Object::Kind::Dict: {
      ojson items = ojson::array();
      for (const auto& [k, v] : o.dict_items()) items.push_back(ojson::array({k, object_to_wire(v, keep)}));
      return ojson{{"$t", "dict"}, {"items", std::move(items)}};
    }
    case Object::Kind::Value: break;
  }
  const Value& v = o.value();
  switch (v.kind()) {
    case ValueKind::None: return nullptr;
    case ValueKind::Bool: return v.as_bool();
    case ValueKind::Int: return v.as_int();
    case ValueKind::Float: {
      const double d = v.as_float();
      if (std::isfinite(d)) return d;
      return ojson{{"$t", "float"}, {"v", std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf"}};
    }
    case ValueKind::Str: return v.as_str();
    default: break;
  }
  return ojson{{"$t", "value"}, {"repr", v.repr()}};
}

WireBlocks own_wire_blocks(const double* ptrs, size_t n) {
  WireBlocks blocks;
  for (size_t i = 0; i < n; ++i) {
    if (ptrs[i] < 0) continue;  // a resident tensor's id (api/resident.h): not a block
    void* p = reinterpret_cast<void*>(static_cast<uintptr_t>(ptrs[i]));
    std::shared_ptr<void> owner(p, [](void* q) { std::free(q); });  // frees p itself if this throws
    blocks.emplace(reinterpret_cast<uintptr_t>(p), std::move(owner));
  }
  return blocks;
}

std::vector<Object> tensors_from_descriptor(const double* d, size_t size, size_t n, const WireBlocks& blocks) {
  std::vector<Object> args;
  args.reserve(n);
  size_t at = n;  // after the block pointers
  auto next = [&]() {
    FX_CHECK(at < size, "run: tensor descriptor is truncated");
    return d[at++];
  };
  for (size_t i = 0; i < n; ++i) {
    const double code = next();
    FX_CHECK(code >= 0 && code < kWireDTypes, "input tensor: unknown dtype code " + std::to_string(code));
    const auto dtype = static_cast<DType>(static_cast<int>(code));
    const auto ndim = static_cast<size_t>(next());
    const auto nbytes = static_cast<size_t>(next());
    Shape shape(ndim);
    for (size_t k = 0; k < ndim; ++k) shape[k] = static_cast<int64_t>(next());
    if (d[i] < 0) {
      const Tensor& t = resident_tensors().get(static_cast<int64_t>(-d[i]));
      FX_CHECK(t.dtype() == dtype && t.shape() == shape,
               "input tensor: resident tensor " + std::to_string(static_cast<int64_t>(-d[i])) + " is " +
                   dtype_name(t.dtype()) + " " + shape_text(t.shape()) + ", described as " + dtype_name(dtype) +
                   " " + shape_text(shape));
      args.emplace_back(t);
      continue;
    }
    args.emplace_back(tensor_from_parts(dtype, shape, static_cast<uintptr_t>(d[i]), nbytes, &blocks));
  }
  return args;
}

namespace {
// Kept for JS to copy out (contiguous: one block), or, `resident`, kept in the runtime as it is.
void describe_tensor(const Tensor& t0, std::vector<Tensor>& keep, bool resident, std::vector<double>& out) {
  double ptr = 0;
  const Tensor* t = &t0;
  if (resident) {
    ptr = -static_cast<double>(resident_tensors().add(t0));
  } else {
    keep.push_back(t0.contiguous());
    t = &keep.back();
    if (t->numel()) ptr = static_cast<double>(reinterpret_cast<uintptr_t>(t->raw_data()));
  }
  out.push_back(static_cast<double>(static_cast<int>(t->dtype())));
  out.push_back(static_cast<double>(t->shape().size()));
  out.push_back(ptr);
  out.push_back(static_cast<double>(t->nbytes()));
  for (int64_t s : t->shape()) out.push_back(static_cast<double>(s));
}
}  // namespace

bool tensors_to_descriptor(const Object& o, std::vector<Tensor>& keep, std::vector<double>& out, bool resident) {
  out.clear();
  if (o.kind() == Object::Kind::Tensor) {
    out = {0, 1};
    describe_tensor(o.tensor(), keep, resident, out);
    return true;
  }
  if (o.kind() != Object::Kind::Tuple && o.kind() != Object::Kind::List) return false;
  for (const Object& x : o.items())
    if (x.kind() != Object::Kind::Tensor) return false;
  out = {1, static_cast<double>(o.items().size())};
  for (const Object& x : o.items()) describe_tensor(x.tensor(), keep, resident, out);
  return true;
}

}  // namespace fx
