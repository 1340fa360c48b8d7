#include "api/wire.h"

#include <cmath>
#include <cstdint>

#include "support/error.h"

namespace fx {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

Tensor tensor_from_json(const json& j) {
  FX_CHECK(j.contains("dtype") && j["dtype"].is_string(), "input tensor: missing dtype");
  FX_CHECK(j.contains("shape") && j["shape"].is_array(), "input tensor: missing shape");
  FX_CHECK(j.contains("ptr") && j["ptr"].is_number_unsigned(), "input tensor: missing data pointer");
  FX_CHECK(j.contains("nbytes") && j["nbytes"].is_number_unsigned(), "input tensor: missing byte count");
  const DType dtype = dtype_from_name(j["dtype"].get<std::string>());
  Shape shape;
  for (const json& d : j["shape"]) {
    FX_CHECK(d.is_number_integer() && d.get<int64_t>() >= 0,
             "input tensor: shape " + j["shape"].dump() + " must hold non-negative integers");
    shape.push_back(d.get<int64_t>());
  }
  const size_t nbytes = j["nbytes"].get<size_t>();
  const size_t want = static_cast<size_t>(checked_numel(shape)) * dtype_size(dtype);
  FX_CHECK(nbytes == want, "input tensor: " + std::to_string(nbytes) + " bytes given for " +
                               std::string(dtype_name(dtype)) + " " + j["shape"].dump() + ", which needs " +
                               std::to_string(want));
  const auto ptr = reinterpret_cast<const void*>(static_cast<uintptr_t>(j["ptr"].get<uint64_t>()));
  FX_CHECK(ptr != nullptr || nbytes == 0, "input tensor: null data pointer");
  return Tensor::from_bytes(shape, dtype, ptr, nbytes);
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

Object object_from_wire(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return Object();
    case json::value_t::boolean: return Object(Value::boolean(j.get<bool>()));
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return Object(Value::integer(j.get<int64_t>()));
    case json::value_t::number_float: return Object(Value::floating(j.get<double>()));
    case json::value_t::string: return Object(Value::str(j.get<std::string>()));
    case json::value_t::array: {
      std::vector<Object> items;
      for (const json& x : j) items.push_back(object_from_wire(x));
      return Object::tuple(std::move(items));
    }
    case json::value_t::object: {
      const auto tag = j.find("$t");
      if (tag == j.end()) {
        std::vector<std::pair<std::string, Object>> items;
        for (auto it = j.begin(); it != j.end(); ++it) items.emplace_back(it.key(), object_from_wire(it.value()));
        return Object::dict(std::move(items));
      }
      const std::string t = tag->is_string() ? tag->get<std::string>() : "";
      if (t == "tensor") return Object(tensor_from_json(j));
      if (t == "float") return Object(Value::floating(float_from_json(j.value("v", json()))));
      if (t == "list" || t == "tuple") {
        std::vector<Object> items;
        for (const json& x : j.value("items", json::array())) items.push_back(object_from_wire(x));
        return t == "list" ? Object::list(std::move(items)) : Object::tuple(std::move(items));
      }
      if (t == "dict") {
        std::vector<std::pair<std::string, Object>> items;
        for (const json& kv : j.value("items", json::array())) {
          FX_CHECK(kv.is_array() && kv.size() == 2 && kv[0].is_string(), "dict input: items must be [key, value]");
          items.emplace_back(kv[0].get<std::string>(), object_from_wire(kv[1]));
        }
        return Object::dict(std::move(items));
      }
      throw FxError("input: unknown tag '" + t + "'");
    }
    default: break;
  }
  throw FxError("input: cannot read " + j.dump());
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

}  // namespace fx
