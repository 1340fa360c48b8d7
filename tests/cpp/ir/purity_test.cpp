// Node::is_impure against torch's Node.is_impure for every aten overload and a list of Python-level targets
// (tests/golden/ir/impure.json, from gen_impure.py), plus the in-place widening documented in node_purity.cpp.
#include <set>

#include <gtest/gtest.h>

#include "golden_values.h"
#include "ir/graph.h"

namespace fx {
namespace {

bool impure_call(const std::string& target, Kwargs kwargs = {}) {
  Graph g;
  return g.call_function(target, {}, std::move(kwargs))->is_impure();
}

TEST(Purity, EveryAtenOverloadMatchesTorch) {
  const auto golden = testing::load_golden("impure.json");
  size_t checked = 0;
  for (const auto& t : golden.at("aten").at("impure")) {
    EXPECT_TRUE(impure_call(t)) << t.get<std::string>();
    ++checked;
  }
  for (const auto& t : golden.at("aten").at("pure")) {
    EXPECT_FALSE(impure_call(t)) << t.get<std::string>();
    ++checked;
  }
  EXPECT_GT(checked, 2000u);
}

TEST(Purity, FunctionsMatchTorch) {
  const auto golden = testing::load_golden("impure.json");
  for (const auto& c : golden.at("functions")) {
    EXPECT_EQ(impure_call(c.at("target")), c.at("impure").get<bool>()) << c.at("target").get<std::string>();
  }
}

TEST(Purity, OpsByKind) {
  Graph g;
  EXPECT_TRUE(g.placeholder("x")->is_impure());
  EXPECT_FALSE(g.get_attr("w")->is_impure());
  EXPECT_FALSE(g.call_module("fc")->is_impure());
  EXPECT_FALSE(g.call_method("add")->is_impure());
  EXPECT_FALSE(g.call_method("__and__")->is_impure());
  EXPECT_TRUE(g.output(Value())->is_impure());
  EXPECT_TRUE(impure_call("torch.ops.aten.add_.Tensor"));
  EXPECT_TRUE(impure_call("operator.setitem"));
  EXPECT_FALSE(impure_call("aten.add.Tensor"));
}

// Where fxwasm is deliberately stricter than torch: in-place Python-level calls are kept by DCE.
TEST(Purity, InPlacePythonCallsAreImpure) {
  Graph g;
  EXPECT_TRUE(g.call_method("add_")->is_impure());
  EXPECT_TRUE(g.call_method("relu_")->is_impure());
  EXPECT_TRUE(g.call_method("__iadd__")->is_impure());
  EXPECT_TRUE(impure_call("torch.relu_"));
  EXPECT_TRUE(impure_call("torch.Tensor.add_"));
  EXPECT_TRUE(impure_call("operator.iadd"));
  EXPECT_TRUE(impure_call("torch.nn.functional.relu", {{"inplace", Value::boolean(true)}}));
  EXPECT_FALSE(impure_call("torch.nn.functional.relu", {{"inplace", Value::boolean(false)}}));
}

}  // namespace
}  // namespace fx
