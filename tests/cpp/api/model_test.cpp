// The facade over the core, natively: the committed seed example loads, prints as torch does, runs,
// checks against its stored reference, describes itself as JSON and round-trips through save.
#include "api/model.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "support/error.h"

namespace fx {
namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::unique_ptr<Model> load_toy() {
  const auto bytes = read_file(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw");
  return Model::load(bytes.data(), bytes.size(), "toy_example.fxw");
}

TEST(ModelTest, ToyExampleTableMatchesTorch) {
  const std::string expected =
      "opcode         name    target            args         kwargs\n"
      "-------------  ------  ----------------  -----------  --------\n"
      "placeholder    l_a_    L_a_              ()           {}\n"
      "placeholder    l_b_    L_b_              ()           {}\n"
      "call_function  abs_1   torch.abs         (l_a_,)      {}\n"
      "call_function  add     operator.add      (abs_1, 1)   {}\n"
      "call_function  x       operator.truediv  (l_a_, add)  {}\n"
      "call_method    sum_1   sum               (l_b_,)      {}\n"
      "call_function  lt      operator.lt       (sum_1, 0)   {}\n"
      "output         output  output            ((lt, x),)   {}\n";
  EXPECT_EQ(load_toy()->print_tabular(), expected);
}

TEST(ModelTest, CodeDefinesForward) {
  const std::string code = load_toy()->code();
  EXPECT_NE(code.find("def forward(self, L_a_"), std::string::npos) << code;
  EXPECT_NE(code.find("torch.abs(l_a_)"), std::string::npos) << code;
}

TEST(ModelTest, CheckPassesAgainstStoredReference) {
  auto model = load_toy();
  const CheckReport report = model->check(1e-4, 1e-5);
  EXPECT_EQ(report.status, CheckStatus::Pass) << report.to_json();
  ASSERT_EQ(report.outputs.size(), 2u);
  EXPECT_EQ(report.outputs[0].path, "[0]");
  EXPECT_EQ(report.outputs[1].path, "[1]");
  EXPECT_EQ(report.outputs[1].numel, 10);
  EXPECT_LE(report.outputs[1].max_abs, 1e-6);
}

TEST(ModelTest, RunReturnsOutputStructure) {
  auto model = load_toy();
  const Reference& ref = model->graph_module().reference();
  ASSERT_TRUE(ref.present);
  const Object out = model->run(ref.inputs);
  ASSERT_TRUE(out.is_sequence());
  ASSERT_EQ(out.items().size(), 2u);
  EXPECT_EQ(out.items()[0].tensor().dtype(), DType::Bool);
  EXPECT_EQ(out.items()[1].tensor().shape(), Shape{10});
}

TEST(ModelTest, WrongInputCountIsFxError) {
  auto model = load_toy();
  EXPECT_THROW(model->run({}), FxError);
  // The model stays usable after a failed run.
  EXPECT_EQ(model->check().status, CheckStatus::Pass);
}

TEST(ModelTest, InfoDescribesModel) {
  const auto info = nlohmann::json::parse(load_toy()->info_json());
  EXPECT_EQ(info["format_version"], "1");
  EXPECT_EQ(info["producer"]["tracer"], "dynamo");
  EXPECT_EQ(info["nodes"], 8);
  EXPECT_EQ(info["ops"]["call_function"], 4);
  EXPECT_EQ(info["ops"]["call_method"], 1);
  ASSERT_EQ(info["inputs"].size(), 2u);
  EXPECT_EQ(info["inputs"][0]["name"], "l_a_");
  EXPECT_EQ(info["inputs"][0]["shape"], nlohmann::json::array({10}));
  EXPECT_EQ(info["inputs"][0]["dtype"], "float32");
  ASSERT_EQ(info["outputs"].size(), 2u);
  EXPECT_EQ(info["outputs"][0]["node"], "lt");
  EXPECT_EQ(info["outputs"][0]["dtype"], "bool");
  EXPECT_EQ(info["parameters"]["count"], 0);
  EXPECT_TRUE(info["has_reference"].get<bool>());
  EXPECT_TRUE(info["unsupported"].empty());
}

TEST(ModelTest, GraphJsonUsesFormatEncoding) {
  const auto graph = nlohmann::json::parse(load_toy()->graph_json());
  const auto& nodes = graph["nodes"];
  ASSERT_EQ(nodes.size(), 8u);
  EXPECT_EQ(nodes[2]["name"], "abs_1");
  EXPECT_EQ(nodes[2]["target"], "torch.abs");
  EXPECT_EQ(nodes[2]["args"][0]["$node"], "l_a_");
  EXPECT_EQ(nodes[2]["users"], nlohmann::json::array({"add"}));
  EXPECT_EQ(nodes[3]["args"][1], 1);
  EXPECT_EQ(nodes[7]["args"][0]["$tuple"][1]["$node"], "x");
  EXPECT_EQ(nodes[0]["meta"]["dtype"]["$dtype"], "float32");
}

TEST(ModelTest, SaveRoundTrips) {
  auto model = load_toy();
  const std::vector<uint8_t> bytes = model->save();
  auto again = Model::load(bytes.data(), bytes.size(), "saved");
  EXPECT_EQ(again->print_tabular(), model->print_tabular());
  EXPECT_EQ(again->check().status, CheckStatus::Pass);
}

TEST(ModelTest, GarbageBytesAreFxErrorNamingTheSource) {
  const std::string garbage = "this is not an fxw file at all";
  try {
    Model::load(reinterpret_cast<const uint8_t*>(garbage.data()), garbage.size(), "garbage.fxw");
    FAIL() << "no error";
  } catch (const FxError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("garbage.fxw: ", 0), 0u) << e.what();
  }
  EXPECT_THROW(Model::load(nullptr, 0, "empty"), FxError);
  const auto bytes = read_file(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw");
  for (size_t cut : {size_t(4), size_t(8), size_t(20), bytes.size() / 2, bytes.size() - 1})
    EXPECT_THROW(Model::load(bytes.data(), cut, "truncated"), FxError) << cut;
}

}  // namespace
}  // namespace fx
