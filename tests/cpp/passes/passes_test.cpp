// The pass infrastructure, dead code elimination, constant folding and shape propagation.
#include "passes/pass.h"

#include <gtest/gtest.h>

#include "ir/tabular.h"
#include "passes/constant_fold.h"
#include "passes/shape_prop.h"
#include "passes_testing.h"
#include "exec/interpreter.h"
#include "support/error.h"

namespace fx {
namespace {

using testing::f32;
using testing::values;

// x → add(x, mul(w, 2)) with an unused relu(x); w = [1, 2, 3] a parameter.
std::unique_ptr<GraphModule> weighted() {
  auto gm = std::make_unique<GraphModule>();
  gm->modules()[""] = ModuleInfo{"torch.nn.modules.module.Module", {}};
  gm->tensors()["w"] = NamedTensor{TensorKind::Parameter, f32({1, 2, 3})};
  Graph& g = gm->graph();
  Node* x = g.placeholder("x");
  x->set_meta("shape", Value::size({Value::integer(3)}));
  x->set_meta("dtype", Value::dtype("float32"));
  Node* w = g.get_attr("w");
  Node* mul = g.call_function("torch.mul", {Value::node(w), Value::integer(2)});
  g.call_function("torch.relu", {Value::node(x)});
  Node* add = g.call_function("operator.add", {Value::node(x), Value::node(mul)});
  g.output(Value::node(add));
  return gm;
}

TEST(PassTest, DeadCodeEliminationRemovesUnusedPureNodes) {
  auto gm = weighted();
  DeadCodeElimination dce;
  EXPECT_TRUE(run_pass(dce, *gm));
  EXPECT_EQ(gm->graph().find("relu"), nullptr);
  EXPECT_EQ(gm->graph().size(), 5u);
  EXPECT_FALSE(run_pass(dce, *gm));  // nothing left to remove
}

TEST(PassTest, RunPassLintsBeforeAndNamesThePass) {
  auto gm = weighted();
  Graph& g = gm->graph();
  g.find("add")->prepend(g.output_node());  // output no longer last
  DeadCodeElimination dce;
  try {
    run_pass(dce, *gm);
    FAIL() << "expected a lint failure";
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("pass 'dce': the graph is invalid before the pass"), std::string::npos)
        << e.what();
  }
}

TEST(PassTest, MakePassKnowsItsNames) {
  for (const auto& name : pass_names()) EXPECT_EQ(make_pass(name)->name(), name);
  EXPECT_THROW(make_pass("nope"), FxError);
}

TEST(PassTest, ConstantFoldingReplacesConstantSubgraphs) {
  auto gm = weighted();
  const Object before = Interpreter(*gm).run({Object(f32({10, 20, 30}))});
  ConstantFolding fold;
  EXPECT_TRUE(run_pass(fold, *gm));
  Graph& g = gm->graph();
  EXPECT_EQ(g.find("mul"), nullptr);
  EXPECT_EQ(g.find("w"), nullptr);  // its only user was folded
  Node* folded = g.find("_folded_mul");
  ASSERT_NE(folded, nullptr);
  EXPECT_EQ(folded->op(), Op::GetAttr);
  EXPECT_EQ(gm->tensors().at("_folded_mul").kind, TensorKind::Constant);
  EXPECT_EQ(values(Object(gm->tensors().at("_folded_mul").tensor)), (std::vector<float>{2, 4, 6}));
  const Object after = Interpreter(*gm).run({Object(f32({10, 20, 30}))});
  EXPECT_EQ(values(after), values(before));
  EXPECT_EQ(values(after), (std::vector<float>{12, 24, 36}));
  EXPECT_FALSE(run_pass(fold, *gm));
}

TEST(PassTest, ConstantFoldingChainsAndDropsIntermediates) {
  auto gm = weighted();
  Graph& g = gm->graph();
  Node* mul = g.find("mul");
  Node* neg;
  {
    auto guard = g.inserting_after(mul);
    neg = g.call_function("torch.neg", {Value::node(mul)});
  }
  g.find("add")->replace_input_with(mul, neg);
  ConstantFolding fold;
  EXPECT_TRUE(run_pass(fold, *gm));
  EXPECT_NE(g.find("_folded_neg"), nullptr);
  EXPECT_EQ(gm->tensors().count("_folded_mul"), 0u);  // an intermediate constant nobody uses
  EXPECT_EQ(values(Interpreter(*gm).run({Object(f32({0, 0, 0}))})), (std::vector<float>{-2, -4, -6}));
}

TEST(PassTest, ShapePropagationFillsMeta) {
  auto gm = weighted();
  ShapePropagation prop;
  EXPECT_TRUE(run_pass(prop, *gm));  // random inputs from the placeholder's meta
  const Node* add = gm->graph().find("add");
  ASSERT_NE(add->meta_value("shape"), nullptr);
  EXPECT_EQ(add->meta_value("shape")->repr(), "torch.Size([3])");
  EXPECT_EQ(add->meta_value("dtype")->repr(), "torch.float32");
  EXPECT_FALSE(run_pass(prop, *gm));  // same shapes again

  ShapePropagation given({Object(Tensor::zeros({2, 3}, DType::Float32))});
  EXPECT_TRUE(run_pass(given, *gm));
  EXPECT_EQ(gm->graph().find("add")->meta_value("shape")->repr(), "torch.Size([2, 3])");
}

TEST(PassTest, ShapePropagationNeedsKnownInputShapes) {
  auto gm = weighted();
  gm->graph().find("x")->meta().clear();
  ShapePropagation prop;
  try {
    run_pass(prop, *gm);
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "x");
  }
}

}  // namespace
}  // namespace fx
