// Reading the IR golden files written by tests/golden/ir/gen_*.py with the reference torch: the JSON itself,
// and FX argument values in the tagged form of tests/golden/ir/ir_golden_common.py:encode.
#pragma once
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "ir/value.h"

namespace fx::testing {

inline nlohmann::json load_golden(const std::string& relative) {
  const std::string path = std::string(FXWASM_SOURCE_DIR) + "/tests/golden/ir/" + relative;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open golden file " + path);
  return nlohmann::json::parse(in);
}

inline double double_from_hex_bits(const std::string& hex) {
  uint64_t bits = std::stoull(hex, nullptr, 16);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// `node_by_name` resolves {"t": "node", "v": name}.
inline Value decode_value(const nlohmann::json& j, const std::function<Node*(const std::string&)>& node_by_name) {
  const std::string t = j.at("t");
  auto list = [&](const nlohmann::json& items) {
    ValueList out;
    for (const auto& item : items) out.push_back(decode_value(item, node_by_name));
    return out;
  };
  if (t == "none") return Value();
  if (t == "bool") return Value::boolean(j.at("v").get<bool>());
  if (t == "int") return Value::integer(j.at("v").get<int64_t>());
  if (t == "float") return Value::floating(double_from_hex_bits(j.at("bits")));
  if (t == "str") return Value::str(j.at("v"));
  if (t == "tuple") return Value::tuple(list(j.at("v")));
  if (t == "list") return Value::list(list(j.at("v")));
  if (t == "size") return Value::size(list(j.at("v")));
  if (t == "dict") {
    Kwargs kw;
    for (const auto& kv : j.at("v")) kw.emplace_back(kv.at(0).get<std::string>(), decode_value(kv.at(1), node_by_name));
    return Value::dict(std::move(kw));
  }
  if (t == "slice") {
    ValueList parts = list(j.at("v"));
    return Value::slice(parts[0], parts[1], parts[2]);
  }
  if (t == "ellipsis") return Value::ellipsis();
  if (t == "dtype") return Value::dtype(j.at("v"));
  if (t == "device") return Value::device(j.at("v"));
  if (t == "memory_format") return Value::memory_format(j.at("v"));
  if (t == "layout") return Value::layout(j.at("v"));
  if (t == "node") return Value::node(node_by_name(j.at("v")));
  throw std::runtime_error("unknown value tag " + t);
}

}  // namespace fx::testing
