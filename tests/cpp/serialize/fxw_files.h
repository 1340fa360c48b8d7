// Helpers for the serialize tests: hand-made .fxw files (valid or broken on purpose) and graph comparison.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "program/graph_module.h"
#include "serialize/reader.h"
#include "serialize/value_json.h"
#include "support/error.h"

namespace fx {
namespace testing_fxw {

// 8-byte length + header text + data, with no alignment (readers must accept that).
inline std::vector<uint8_t> raw_file(const std::string& header, const std::vector<uint8_t>& data = {}) {
  std::vector<uint8_t> out(8 + header.size() + data.size());
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(n >> (8 * i));
  if (!header.empty()) std::memcpy(out.data() + 8, header.data(), header.size());
  if (!data.empty()) std::memcpy(out.data() + 8 + header.size(), data.data(), data.size());
  return out;
}

inline Json node(const std::string& op, const std::string& name, const std::string& target,
                 Json args = Json::array(), Json kwargs = Json::object()) {
  // Under clang, `{ref("x")}` for a Json parameter is a copy of the one element, not a one-element array
  // (CWG 1467; GCC builds the array): wrap it, so the helpers mean the same with either compiler.
  if (!args.is_array()) args = Json::array({args});
  Json n = Json::object();
  n["op"] = op;
  n["name"] = name;
  n["target"] = target;
  n["args"] = std::move(args);
  n["kwargs"] = std::move(kwargs);
  return n;
}

inline Json ref(const std::string& name) { return Json{{"$node", name}}; }

// x → relu → output, the smallest valid program.
inline Json small_program() {
  Json p = Json::object();
  p["producer"] = {{"torch", "2.15.0"}, {"exporter", "0.1.0"}, {"tracer", "graph"}};
  p["nodes"] = Json::array({node("placeholder", "x", "x"), node("call_function", "relu", "torch.relu", {ref("x")}),
                            node("output", "output", "output", {ref("relu")})});
  p["modules"] = Json{{"", {{"type", "torch.nn.modules.module.Module"}}}};
  p["tensors"] = Json::object();
  return p;
}

inline Json header_for(const Json& program, Json tensors = Json::object()) {
  Json h = Json::object();
  h["__metadata__"] = {{"format", "fxwasm"}, {"format_version", "1"}, {"program", program.dump()}};
  for (auto it = tensors.begin(); it != tensors.end(); ++it) h[it.key()] = it.value();
  return h;
}

inline std::vector<uint8_t> file_for(const Json& program, Json tensors = Json::object(),
                                     const std::vector<uint8_t>& data = {}) {
  return raw_file(header_for(program, std::move(tensors)).dump(), data);
}

// Runs read_fxw and returns the FxError's full message ("" when it did not throw).
inline std::string read_error(const std::vector<uint8_t>& bytes) {
  try {
    read_fxw(bytes.data(), bytes.size());
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

inline std::string describe(const Node& n) {
  Json args = Json::array();
  for (const Value& a : n.args()) args.push_back(value_to_json(a));
  Json kwargs = Json::object();
  for (const auto& [k, v] : n.kwargs()) kwargs[k] = value_to_json(v);
  Json meta = Json::object();
  for (const auto& [k, v] : n.meta()) meta[k] = value_to_json(v);
  return std::string(op_name(n.op())) + " " + n.name() + " " + n.target() + " " + args.dump() + " " +
         kwargs.dump() + " type=" + n.type_expr() + " meta=" + meta.dump();
}

inline void expect_same_graph(const Graph& a, const Graph& b) {
  auto na = a.nodes(), nb = b.nodes();
  ASSERT_EQ(na.size(), nb.size());
  for (size_t i = 0; i < na.size(); ++i) EXPECT_EQ(describe(*na[i]), describe(*nb[i]));
}

inline void expect_same_tensor(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  Tensor ca = a.contiguous(), cb = b.contiguous();
  ASSERT_EQ(ca.nbytes(), cb.nbytes());
  EXPECT_EQ(0, std::memcmp(ca.raw_data(), cb.raw_data(), ca.nbytes()));
}

}  // namespace testing_fxw
}  // namespace fx
