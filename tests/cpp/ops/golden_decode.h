// Decoding the op-case files (tests/golden/op_cases.json, tests/golden/ops/*.json; format in
// tests/golden/ops/gen_shape_ops.py) into runtime Objects: shared by the golden test and the shape
// inference test.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "program/object.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace golden {

using json = nlohmann::json;

inline double decode_float(const json& j) {
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s == "nan") return NAN;
    return s == "inf" ? INFINITY : -INFINITY;
  }
  return j.get<double>();
}

inline Tensor decode_tensor(const json& t) {
  DType dtype = dtype_from_name(t.at("dtype").get<std::string>());
  Shape shape = t.at("shape").get<Shape>();
  const json& data = t.at("data");
  if (t.contains("strides")) {  // a view: data is the whole storage
    json flat = t;
    flat.erase("strides");
    flat.erase("offset");
    flat["shape"] = Shape{static_cast<int64_t>(data.size())};
    Tensor storage = decode_tensor(flat);
    return make_view(storage, shape, t.at("strides").get<Shape>(), t.at("offset").get<int64_t>());
  }
  Tensor f64 = Tensor::empty(shape, DType::Float64);
  FX_CHECK(static_cast<int64_t>(data.size()) == f64.numel(), "golden tensor data size");
  if (dtype == DType::Int64) {  // int64 values need not fit a double exactly
    Tensor out = Tensor::empty(shape, dtype);
    for (size_t i = 0; i < data.size(); ++i) out.data<int64_t>()[i] = data[i].get<int64_t>();
    return out;
  }
  for (size_t i = 0; i < data.size(); ++i)
    f64.data<double>()[i] = data[i].is_boolean() ? (data[i].get<bool>() ? 1.0 : 0.0) : decode_float(data[i]);
  return to_dtype(f64, dtype);
}

inline Object decode(const json& j) {
  if (j.is_null()) return Object();
  if (j.is_boolean()) return Object(Value::boolean(j.get<bool>()));
  if (j.is_number_integer()) return Object(Value::integer(j.get<int64_t>()));
  if (j.is_number_float()) return Object(Value::floating(j.get<double>()));
  if (j.is_string()) return Object(Value::str(j.get<std::string>()));
  if (j.is_array()) {
    std::vector<Object> items;
    for (const json& x : j) items.push_back(decode(x));
    return Object::list(std::move(items));
  }
  if (j.contains("tensor")) return Object(decode_tensor(j.at("tensor")));
  if (j.contains("float")) return Object(Value::floating(decode_float(j.at("float"))));
  if (j.contains("dtype")) return Object(Value::dtype(j.at("dtype").get<std::string>()));
  if (j.contains("device")) return Object(Value::device(j.at("device").get<std::string>()));
  if (j.contains("ellipsis")) return Object(Value::ellipsis());
  if (j.contains("slice")) {
    auto part = [](const json& x) { return x.is_null() ? Value() : Value::integer(x.get<int64_t>()); };
    const json& p = j.at("slice");
    return Object(Value::slice(part(p[0]), part(p[1]), part(p[2])));
  }
  if (j.contains("tuple")) {
    std::vector<Object> items;
    for (const json& x : j.at("tuple")) items.push_back(decode(x));
    return Object::tuple(std::move(items));
  }
  throw FxError("unknown golden encoding: " + j.dump());
}

}  // namespace golden
}  // namespace fx
