// Hardening against hostile files and wrong inputs (docs/security.md): tensors sharing bytes, messages
// that would quote megabytes of the file, graphs a million uses wide, and inputs that do not match the
// placeholders' meta — each an FxError, and the model still usable afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "../serialize/fxw_files.h"
#include "api/model.h"

namespace fx {
namespace {

using namespace testing_fxw;

std::string load_error(const std::vector<uint8_t>& bytes) {
  try {
    Model::load(bytes.data(), bytes.size(), "hostile.fxw");
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

TEST(Hostile, TensorsMayNotShareBytes) {
  Json p = small_program();
  std::vector<uint8_t> data(16, 0);
  Json tensors = Json::object();
  for (int i = 0; i < 3; ++i) {
    const std::string name = "w" + std::to_string(i);
    tensors[name] = {{"dtype", "F32"}, {"shape", {4}}, {"data_offsets", {0, 16}}};
    p["tensors"][name] = "parameter";
  }
  const std::string err = load_error(file_for(p, tensors, data));
  EXPECT_NE(err.find("overlap those of tensor 'w"), std::string::npos) << err;
  // Partial overlap, in any header order, pads included.
  Json t2 = {{"b", {{"dtype", "U8"}, {"shape", {8}}, {"data_offsets", {8, 16}}}},
             {"__pad__.0", {{"dtype", "U8"}, {"shape", {9}}, {"data_offsets", {0, 9}}}}};
  Json p2 = small_program();
  p2["tensors"] = {{"b", "buffer"}};
  EXPECT_NE(load_error(file_for(p2, t2, data)).find("tensor 'b': data_offsets [8, 16] overlap those of tensor '__pad__.0'"),
            std::string::npos);
  // Touching is fine, and so are empty tensors anywhere.
  Json t3 = {{"b", {{"dtype", "U8"}, {"shape", {7}}, {"data_offsets", {9, 16}}}},
             {"e", {{"dtype", "F32"}, {"shape", {0}}, {"data_offsets", {4, 4}}}},
             {"__pad__.0", {{"dtype", "U8"}, {"shape", {9}}, {"data_offsets", {0, 9}}}}};
  p2["tensors"] = {{"b", "buffer"}, {"e", "constant"}};
  EXPECT_EQ(load_error(file_for(p2, t3, data)), "");
}

TEST(Hostile, MessagesQuoteLittleOfTheFile) {
  const std::string big(200000, 'x');
  std::string header = "{\"__metadata__\": \"" + big;  // unterminated: the parser's message quotes it
  EXPECT_LT(load_error(raw_file(header)).size(), 1000u);
  Json p = small_program();
  p["tensors"] = {{std::string(100000, 'k'), "parameter"}};
  const std::string err = load_error(file_for(p));
  EXPECT_NE(err.find("which is not in the header"), std::string::npos);
  EXPECT_LT(err.size(), 1000u);
  Json shape = Json::object();
  for (int i = 0; i < 20000; ++i) shape["k" + std::to_string(i)] = i;
  Json tensors = {{"w", {{"dtype", "F32"}, {"shape", {shape}}, {"data_offsets", {0, 4}}}}};
  EXPECT_LT(load_error(file_for(small_program(), tensors, std::vector<uint8_t>(4))).size(), 1000u);
}

// Before: lint and Node::all_input_nodes searched use lists linearly, so 100k users of one node (or one
// node with 100k inputs) took minutes to read. Now both are linear; this runs in about a second (ASan).
TEST(Hostile, WideGraphsReadInLinearTime) {
  const int n = getenv("FXWASM_WIDE_N") ? atoi(getenv("FXWASM_WIDE_N")) : 20000;
  Json nodes = Json::array({node("placeholder", "x", "x")});
  Json items = Json::array();
  for (int i = 0; i < n; ++i) {
    const std::string name = "r" + std::to_string(i);
    nodes.push_back(node("call_function", name, "torch.relu", Json::array({ref("x")})));
    items.push_back(ref(name));
  }
  nodes.push_back(node("call_function", "cat", "torch.cat", Json::array({items})));
  nodes.push_back(node("output", "output", "output", Json::array({ref("cat")})));
  Json p = small_program();
  p["nodes"] = nodes;
  const auto bytes = file_for(p);
  const auto start = std::chrono::steady_clock::now();
  auto model = Model::load(bytes.data(), bytes.size(), "wide.fxw");
  model->graph_module().graph().lint();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(model->graph_module().graph().size(), static_cast<size_t>(n + 3));
  EXPECT_LT(s, 60.0);  // generous: quadratic took many minutes at this size
}

std::unique_ptr<Model> load_toy() {
  std::ifstream in(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw", std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return Model::load(bytes.data(), bytes.size(), "toy_example.fxw");
}

std::string run_error(Model& m, const std::vector<Object>& inputs, std::string* node = nullptr) {
  try {
    m.run(inputs);
  } catch (const FxError& e) {
    if (node) *node = e.node();
    return e.what();
  }
  return "";
}

TEST(Hostile, InputsAreCheckedAgainstPlaceholderMeta) {
  auto model = load_toy();
  const Object a(Tensor::zeros({10}, DType::Float32));
  std::string node;
  std::string err = run_error(*model, {Object(Tensor::zeros({3}, DType::Float32)), a}, &node);
  EXPECT_NE(err.find("input 'l_a_' expects float32 [10], got float32 [3]"), std::string::npos) << err;
  EXPECT_EQ(node, "l_a_");
  err = run_error(*model, {a, Object(Tensor::zeros({10}, DType::Int64))}, &node);
  EXPECT_NE(err.find("input 'l_b_' expects float32 [10], got int64 [10]"), std::string::npos) << err;
  EXPECT_EQ(node, "l_b_");
  err = run_error(*model, {a, Object(Tensor::zeros({10, 1}, DType::Float32))});
  EXPECT_NE(err.find("got float32 [10, 1]"), std::string::npos) << err;
  err = run_error(*model, {a, Object(Value::integer(3))});
  EXPECT_NE(err.find("input 'l_b_' expects float32 [10], got"), std::string::npos) << err;
  EXPECT_EQ(run_error(*model, {a, a}), "");
  EXPECT_EQ(model->check().status, CheckStatus::Pass);
}

TEST(Hostile, SymbolicSizesAndMissingMetaMatchAnything) {
  Json p = small_program();
  p["nodes"] = Json::array({node("placeholder", "s0", "s0"), node("placeholder", "x", "x"),
                            node("call_function", "relu", "torch.relu", Json::array({ref("x")})),
                            node("output", "output", "output", Json::array({ref("relu")}))});
  Json size = Json::object(), dtype = Json::object(), meta = Json::object();
  size["$size"] = Json::array({ref("s0"), 3});
  dtype["$dtype"] = "float32";
  meta["shape"] = size;
  meta["dtype"] = dtype;
  p["nodes"][1]["meta"] = meta;
  p["producer"]["tracer"] = "export";  // a graph whose sizes are fixed but where s0 is symbolic
  const auto bytes = file_for(p);
  auto model = Model::load(bytes.data(), bytes.size(), "sym.fxw");
  const Object s0(Value::integer(5));
  EXPECT_EQ(run_error(*model, {s0, Object(Tensor::zeros({5, 3}, DType::Float32))}), "");
  EXPECT_EQ(run_error(*model, {s0, Object(Tensor::zeros({7, 3}, DType::Float32))}), "");
  const std::string err = run_error(*model, {s0, Object(Tensor::zeros({7, 4}, DType::Float32))});
  EXPECT_NE(err.find("input 'x' expects float32 [s0, 3], got float32 [7, 4]"), std::string::npos) << err;

  // symbolic_trace / hand-made graphs run at any sizes: only dtype and rank are checked.
  p["producer"]["tracer"] = "graph";
  const auto generic_bytes = file_for(p);
  auto generic = Model::load(generic_bytes.data(), generic_bytes.size(), "generic.fxw");
  EXPECT_EQ(run_error(*generic, {s0, Object(Tensor::zeros({7, 4}, DType::Float32))}), "");
  const std::string rank = run_error(*generic, {s0, Object(Tensor::zeros({7}, DType::Float32))});
  EXPECT_NE(rank.find("input 'x' expects float32 [s0, 3] (any sizes of rank 2), got float32 [7]"), std::string::npos)
      << rank;
}

}  // namespace
}  // namespace fx
