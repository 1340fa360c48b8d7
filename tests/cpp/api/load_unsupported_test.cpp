// Unsupported ops are reported at load time (issue #4 item 7): Model::load fails with one FxError naming
// every unsupported target and the nodes using it, unless allow_unsupported (inspection only).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "api/model.h"
#include "support/error.h"

namespace fx {
namespace {

// The toy example (abs, add, truediv, sum, lt) with abs_1 and x retargeted to one unknown function and
// sum_1 to an unknown method.
std::vector<uint8_t> two_unsupported() {
  std::ifstream in(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw", std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto model = Model::load(bytes.data(), bytes.size(), "toy_example.fxw");
  Graph& g = model->mutable_graph_module().graph();
  g.find("abs_1")->set_target("torch.no_such_op");
  g.find("x")->set_target("torch.no_such_op");
  g.find("sum_1")->set_target("frobnicate");
  model->graph_changed(true);
  return model->save();
}

const char* kExpected =
    "two.fxw: unsupported ops: torch.no_such_op (nodes: abs_1, x); method frobnicate (nodes: sum_1)";

TEST(LoadUnsupported, LoadNamesEveryTargetAndItsNodes) {
  const std::vector<uint8_t> bytes = two_unsupported();
  try {
    Model::load(bytes.data(), bytes.size(), "two.fxw");
    FAIL() << "the load should fail";
  } catch (const FxError& e) {
    EXPECT_EQ(std::string(e.what()), kExpected);
  }
}

TEST(LoadUnsupported, InspectionOnlyLoadsAndRunFailsTheSameWay) {
  const std::vector<uint8_t> bytes = two_unsupported();
  auto model = Model::load(bytes.data(), bytes.size(), "two.fxw", /*allow_unsupported=*/true);
  EXPECT_NE(model->print_tabular().find("torch.no_such_op"), std::string::npos);
  const auto info = nlohmann::json::parse(model->info_json());
  ASSERT_EQ(info["unsupported"].size(), 2u);
  EXPECT_EQ(info["unsupported"][0]["target"], "torch.no_such_op");
  EXPECT_EQ(info["unsupported"][0]["nodes"], nlohmann::json::array({"abs_1", "x"}));
  EXPECT_EQ(info["unsupported"][1]["target"], "frobnicate");
  try {
    model->run(model->graph_module().reference().inputs);
    FAIL() << "the run should fail";
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find(std::string(kExpected).substr(9)), std::string::npos) << e.what();
  }
}

TEST(LoadUnsupported, ASupportedModelIsPreparedAtLoad) {
  std::ifstream in(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw", std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (bool allow : {false, true}) {
    auto model = Model::load(bytes.data(), bytes.size(), "toy_example.fxw", allow);
    EXPECT_EQ(model->check().status, CheckStatus::Pass);
  }
}

}  // namespace
}  // namespace fx
