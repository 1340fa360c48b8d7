#include "serialize/value_json.h"

#include <cmath>
#include <limits>
#include <set>

#include "ir/node.h"
#include "serialize/json_parse.h"
#include "serialize/limits.h"
#include "support/error.h"

namespace fx {
namespace {

[[noreturn]] void fail(const ValueContext& ctx, const std::string& message) {
  throw FxError(ctx.field.empty() ? message : ctx.field + ": " + message, ctx.node);
}

// torch's dtype names ($dtype may name any of them; stored tensors are limited to the tensor layer's).
const std::set<std::string>& known_dtypes() {
  static const std::set<std::string> names = {
      "float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool",
      "complex32", "complex64", "complex128", "uint16", "uint32", "uint64", "float8_e4m3fn",
      "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
      "qint8", "quint8", "qint32", "quint4x2", "quint2x4", "bits1x8", "bits2x4", "bits4x2", "bits8",
      "bits16", "int1", "int2", "int3", "int4", "int5", "int6", "int7", "uint1", "uint2", "uint3", "uint4",
      "uint5", "uint6", "uint7"};
  return names;
}

const std::set<std::string>& known_memory_formats() {
  static const std::set<std::string> names = {"contiguous_format", "channels_last", "channels_last_3d",
                                              "preserve_format"};
  return names;
}

const std::set<std::string>& known_layouts() {
  static const std::set<std::string> names = {"strided", "sparse_coo", "sparse_csr", "sparse_csc",
                                              "sparse_bsr", "sparse_bsc", "_mkldnn", "jagged"};
  return names;
}

std::string json_kind(const Json& j) {
  if (j.is_object()) {
    std::string keys;
    for (auto it = j.begin(); it != j.end() && keys.size() < 200; ++it)
      keys += (keys.empty() ? "" : ", ") + ("'" + fxw::clip(it.key(), 64) + "'");
    if (keys.size() >= 200) keys += ", ...";
    return "an object with keys [" + keys + "]";
  }
  if (fxw::is_big_integer(j)) return "the integer " + fxw::big_integer_text(j) + " (outside 64-bit signed)";
  return std::string("a JSON ") + j.type_name();
}

Json to_json(const Value& v, size_t depth) {
  if (depth > fxw::kMaxJsonDepth)
    throw FxError("value nests deeper than the format's limit of " + std::to_string(fxw::kMaxJsonDepth));
  auto seq = [&](const ValueList& items) {
    Json arr = Json::array();
    for (const Value& item : items) arr.push_back(to_json(item, depth + 2));
    return arr;
  };
  auto tag = [](const char* name, Json body) {
    Json o = Json::object();
    o[name] = std::move(body);
    return o;
  };
  switch (v.kind()) {
    case ValueKind::None: return nullptr;
    case ValueKind::Bool: return v.as_bool();
    case ValueKind::Int: return v.as_int();
    case ValueKind::Float: {
      const double d = v.as_float();
      if (std::isnan(d)) return tag("$float", "nan");
      if (std::isinf(d)) return tag("$float", d > 0 ? "inf" : "-inf");
      return d;  // nlohmann writes finite doubles with '.' or an exponent ("1.0"), so they stay floats
    }
    case ValueKind::Str: return v.as_str();
    case ValueKind::Tuple: return tag("$tuple", seq(v.items()));
    case ValueKind::List: {
      Json arr = Json::array();
      for (const Value& item : v.items()) arr.push_back(to_json(item, depth + 1));
      return arr;
    }
    case ValueKind::Dict: {
      Json body = Json::object();
      for (const auto& [k, item] : v.dict_items()) body[k] = to_json(item, depth + 2);
      return tag("$dict", std::move(body));
    }
    case ValueKind::Slice: return tag("$slice", seq(v.items()));
    case ValueKind::Ellipsis: return tag("$ellipsis", nullptr);
    case ValueKind::Dtype: return tag("$dtype", v.as_str());
    case ValueKind::Device: return tag("$device", v.as_str());
    case ValueKind::MemoryFormat: return tag("$memory_format", v.as_str());
    case ValueKind::Layout: return tag("$layout", v.as_str());
    case ValueKind::Size: return tag("$size", seq(v.items()));
    case ValueKind::NodeRef: return tag("$node", v.as_node()->name());
  }
  throw FxError("value of unknown kind");
}

struct Decoder {
  const NodeResolver& nodes;
  const ValueContext& ctx;

  const std::string& text(const Json& j, const char* tag) const {
    if (!j.is_string()) fail(ctx, std::string(tag) + " needs a string, found " + json_kind(j));
    const std::string& s = j.get_ref<const std::string&>();
    fxw::check_string_length(s, ctx.field, ctx.node);
    return s;
  }

  const Json& array(const Json& j, const char* tag) const {
    if (!j.is_array()) fail(ctx, std::string(tag) + " needs an array, found " + json_kind(j));
    return j;
  }

  ValueList items(const Json& arr, size_t depth) const {
    ValueList out;
    out.reserve(arr.size());
    for (const Json& item : arr) out.push_back(decode(item, depth + 1));
    return out;
  }

  Value decode(const Json& j, size_t depth) const {
    if (depth > fxw::kMaxJsonDepth)
      fail(ctx, "value nests deeper than the format's limit of " + std::to_string(fxw::kMaxJsonDepth));
    switch (j.type()) {
      case Json::value_t::null: return Value::none();
      case Json::value_t::boolean: return Value::boolean(j.get<bool>());
      case Json::value_t::number_integer: return Value::integer(j.get<int64_t>());
      case Json::value_t::number_unsigned: {
        const uint64_t u = j.get<uint64_t>();
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
          fail(ctx, "integer " + std::to_string(u) + " does not fit in 64-bit signed");
        return Value::integer(static_cast<int64_t>(u));
      }
      case Json::value_t::number_float: return Value::floating(j.get<double>());
      case Json::value_t::string: {
        const std::string& s = j.get_ref<const std::string&>();
        fxw::check_string_length(s, ctx.field, ctx.node);
        return Value::str(s);
      }
      case Json::value_t::array: return Value::list(items(j, depth));
      case Json::value_t::object: return tagged(j, depth);
      case Json::value_t::binary:
        if (fxw::is_big_integer(j))
          fail(ctx, "integer " + fxw::big_integer_text(j) + " does not fit in 64-bit signed");
        fail(ctx, "unexpected " + json_kind(j));
      default: fail(ctx, "unexpected " + json_kind(j));
    }
  }

  Value tagged(const Json& j, size_t depth) const {
    if (j.size() != 1) fail(ctx, "an object must be exactly one tag ($node, $tuple, ...), found " + json_kind(j));
    const std::string& tag = j.begin().key();
    const Json& body = j.begin().value();
    if (tag == "$node") {
      const std::string& name = text(body, "$node");
      if (!nodes) fail(ctx, "node references are not allowed here (found '" + name + "')");
      Node* n = nodes(name);
      if (!n) throw FxError(ctx.field + " refer to unknown node '" + name + "'", ctx.node);
      return Value::node(n);
    }
    if (tag == "$tuple") return Value::tuple(items(array(body, "$tuple"), depth));
    if (tag == "$size") {
      ValueList dims = items(array(body, "$size"), depth);
      for (const Value& d : dims)
        if (d.kind() != ValueKind::Int && !d.is_node()) fail(ctx, "$size items must be integers or $node");
      return Value::size(std::move(dims));
    }
    if (tag == "$dict") {
      if (!body.is_object()) fail(ctx, "$dict needs an object, found " + json_kind(body));
      Kwargs entries;
      for (auto it = body.begin(); it != body.end(); ++it) {
        fxw::check_string_length(it.key(), ctx.field, ctx.node);
        entries.emplace_back(it.key(), decode(it.value(), depth + 2));
      }
      return Value::dict(std::move(entries));
    }
    if (tag == "$slice") {
      ValueList parts = items(array(body, "$slice"), depth);
      if (parts.size() != 3) fail(ctx, "$slice needs [start, stop, step], found " + std::to_string(parts.size()) + " items");
      return Value::slice(parts[0], parts[1], parts[2]);
    }
    if (tag == "$ellipsis") {
      if (!body.is_null()) fail(ctx, "$ellipsis takes null");
      return Value::ellipsis();
    }
    if (tag == "$float") {
      // A number body says that an integral number is a float ({"$float": 2} is 2.0): JavaScript writes
      // the number 2.0 as "2". Writers of the file never need it.
      if (body.is_number()) return Value::floating(body.get<double>());
      const std::string& s = text(body, "$float");
      if (s == "inf") return Value::floating(std::numeric_limits<double>::infinity());
      if (s == "-inf") return Value::floating(-std::numeric_limits<double>::infinity());
      if (s == "nan") return Value::floating(std::numeric_limits<double>::quiet_NaN());
      fail(ctx, "$float must be a number, \"inf\", \"-inf\" or \"nan\", found \"" + s + "\"");
    }
    if (tag == "$dtype") {
      const std::string& s = text(body, "$dtype");
      if (!known_dtypes().count(s)) fail(ctx, "unknown dtype '" + s + "'");
      return Value::dtype(s);
    }
    if (tag == "$device") {
      const std::string& s = text(body, "$device");
      if (s.empty()) fail(ctx, "$device needs a device name");
      return Value::device(s);
    }
    if (tag == "$memory_format") {
      const std::string& s = text(body, "$memory_format");
      if (!known_memory_formats().count(s)) fail(ctx, "unknown memory_format '" + s + "'");
      return Value::memory_format(s);
    }
    if (tag == "$layout") {
      const std::string& s = text(body, "$layout");
      if (!known_layouts().count(s)) fail(ctx, "unknown layout '" + s + "'");
      return Value::layout(s);
    }
    if (tag == "$tensor") fail(ctx, "$tensor is only allowed in reference values and run inputs");
    fail(ctx, "unknown tag '" + tag + "'");
  }
};

Json object_json(const Object& o, const TensorWriter& write_tensor, const std::string& path) {
  auto tag = [](const char* name, Json body) {
    Json j = Json::object();
    j[name] = std::move(body);
    return j;
  };
  switch (o.kind()) {
    case Object::Kind::Value: return to_json(o.value(), 1);
    case Object::Kind::Tensor: return tag("$tensor", write_tensor(o.tensor(), path));
    case Object::Kind::Tuple:
    case Object::Kind::List: {
      Json arr = Json::array();
      const auto& items = o.items();
      for (size_t i = 0; i < items.size(); ++i)
        arr.push_back(object_json(items[i], write_tensor, path + "." + std::to_string(i)));
      return o.kind() == Object::Kind::Tuple ? tag("$tuple", std::move(arr)) : arr;
    }
    case Object::Kind::Dict: {
      Json body = Json::object();
      for (const auto& [k, item] : o.dict_items()) body[k] = object_json(item, write_tensor, path + "." + k);
      return tag("$dict", std::move(body));
    }
  }
  throw FxError("object of unknown kind");
}

bool is_container(const Json& j) {
  return j.is_array() || (j.is_object() && j.size() == 1 && (j.contains("$tuple") || j.contains("$dict")));
}

// `depth` counts the containers around `j` plus one; the check comes before any recursion, so a value
// nested 100,000 deep costs one FxError.
Object object_decode(const Json& j, const TensorReader& read_tensor, const ValueContext& ctx, size_t depth) {
  if (depth > kMaxObjectDepth && is_container(j))
    fail(ctx, "value nests deeper than " + std::to_string(kMaxObjectDepth) +
                  " levels (tuples, lists, dicts); the limit is " + std::to_string(kMaxObjectDepth));
  auto items_of = [&](const Json& arr) {
    std::vector<Object> items;
    items.reserve(arr.size());
    for (const Json& item : arr) items.push_back(object_decode(item, read_tensor, ctx, depth + 1));
    return items;
  };
  if (j.is_array()) return Object::list(items_of(j));
  if (j.is_object() && j.size() == 1) {
    const std::string& tag = j.begin().key();
    const Json& body = j.begin().value();
    if (tag == "$tensor") {
      try {
        return Object(read_tensor(body));
      } catch (const FxError& e) {
        fail(ctx, e.bare_message());
      }
    }
    if (tag == "$tuple") {
      if (!body.is_array()) fail(ctx, "$tuple needs an array, found " + json_kind(body));
      return Object::tuple(items_of(body));
    }
    if (tag == "$dict") {
      if (!body.is_object()) fail(ctx, "$dict needs an object, found " + json_kind(body));
      std::vector<std::pair<std::string, Object>> items;
      for (auto it = body.begin(); it != body.end(); ++it) {
        fxw::check_string_length(it.key(), ctx.field, ctx.node);
        items.emplace_back(it.key(), object_decode(it.value(), read_tensor, ctx, depth + 1));
      }
      return Object::dict(std::move(items));
    }
  }
  // Scalars and the other tags: the graph's decoder, without node references.
  return Object(Decoder{NodeResolver{}, ctx}.decode(j, 1));
}

}  // namespace

Json value_to_json(const Value& v) { return to_json(v, 1); }

Value value_from_json(const Json& j, const NodeResolver& nodes, const ValueContext& ctx) {
  return Decoder{nodes, ctx}.decode(j, 1);
}

Json object_to_json(const Object& o, const TensorWriter& write_tensor, const std::string& path) {
  return object_json(o, write_tensor, path);
}

Object object_from_json(const Json& j, const TensorReader& read_tensor, const ValueContext& ctx) {
  return object_decode(j, read_tensor, ctx, 1);
}

}  // namespace fx
