// replace_pattern as torch.fx.subgraph_rewriter.replace_pattern: wildcards, literals, containment,
// overlapping matches, and the rewritten graph.
#include "passes/subgraph_rewriter.h"

#include <gtest/gtest.h>

#include "ir/python_code.h"
#include "ir/tabular.h"
#include "support/error.h"

namespace fx {
namespace {

// x, y → relu(abs(x)) + relu(abs(y)) * 2, output both the sum and abs(y)'s neg when asked.
std::unique_ptr<GraphModule> target_graph(bool leak_inner = false) {
  auto gm = std::make_unique<GraphModule>();
  gm->modules()[""] = ModuleInfo{"torch.nn.modules.module.Module", {}};
  Graph& g = gm->graph();
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* a1 = g.call_function("torch.abs", {Value::node(x)});
  Node* r1 = g.call_function("torch.relu", {Value::node(a1)});
  Node* a2 = g.call_function("torch.abs", {Value::node(y)});
  Node* r2 = g.call_function("torch.relu", {Value::node(a2)});
  Node* m = g.call_function("operator.mul", {Value::node(r2), Value::integer(2)});
  Node* s = g.call_function("operator.add", {Value::node(r1), Value::node(m)});
  if (leak_inner) {
    Node* n = g.call_function("torch.neg", {Value::node(a2)});
    g.output(Value::tuple({Value::node(s), Value::node(n)}));
  } else {
    g.output(Value::node(s));
  }
  return gm;
}

// p → relu(abs(p))
std::unique_ptr<Graph> pattern() {
  auto g = std::make_unique<Graph>();
  Node* p = g->placeholder("p");
  Node* a = g->call_function("torch.abs", {Value::node(p)});
  g->output(Value::node(g->call_function("torch.relu", {Value::node(a)})));
  return g;
}

// p → sigmoid(p)
std::unique_ptr<Graph> replacement() {
  auto g = std::make_unique<Graph>();
  Node* p = g->placeholder("p");
  g->output(Value::node(g->call_function("torch.sigmoid", {Value::node(p)})));
  return g;
}

TEST(SubgraphRewriterTest, ReplacesEveryMatch) {
  auto gm = target_graph();
  auto matches = replace_pattern(*gm, *pattern(), *replacement());
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].anchor, "relu");
  EXPECT_EQ(matches[0].nodes_map,
            (std::vector<std::pair<std::string, std::string>>{{"p", "x"}, {"abs_1", "abs_1"}, {"relu", "relu"}}));
  EXPECT_EQ(matches[0].replacements, (std::vector<std::string>{"sigmoid"}));
  EXPECT_EQ(matches[1].replacements, (std::vector<std::string>{"sigmoid_1"}));
  gm->graph().lint();
  // torch 2.15 prints exactly this (each copy goes before the first user of what it replaces).
  EXPECT_EQ(python_code(gm->graph()),
            "\n\n\ndef forward(self, x, y):\n"
            "    sigmoid_1 = torch.sigmoid(y);  y = None\n"
            "    mul = sigmoid_1 * 2;  sigmoid_1 = None\n"
            "    sigmoid = torch.sigmoid(x);  x = None\n"
            "    add = sigmoid + mul;  sigmoid = mul = None\n"
            "    return add\n    ");
}

TEST(SubgraphRewriterTest, InnerNodesUsedOutsideBlockTheMatch) {
  auto gm = target_graph(/*leak_inner=*/true);
  auto matches = replace_pattern(*gm, *pattern(), *replacement());
  ASSERT_EQ(matches.size(), 1u);  // abs(y) also feeds neg: that match is not self-contained
  EXPECT_EQ(matches[0].anchor, "relu");
  EXPECT_NE(gm->graph().find("relu_1"), nullptr);
}

TEST(SubgraphRewriterTest, LiteralsMustMatchAndPlaceholdersBindThem) {
  auto gm = target_graph();
  // p * 2 → p + p; p * 3 does not match.
  Graph pat;
  Node* p = pat.placeholder("p");
  Node* q = pat.placeholder("q");
  pat.output(Value::node(pat.call_function("operator.mul", {Value::node(p), Value::node(q)})));
  Graph rep;
  Node* rp = rep.placeholder("p");
  Node* rq = rep.placeholder("q");
  rep.output(Value::node(rep.call_function("torch.mul", {Value::node(rq), Value::node(rp)})));
  auto matches = replace_pattern(*gm, pat, rep);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].nodes_map[1], (std::pair<std::string, std::string>{"q", "2"}));
  const Node* m = gm->graph().find("mul_1");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->target(), "torch.mul");
  EXPECT_EQ(m->args()[0], Value::integer(2));

  Graph pat3;
  Node* p3 = pat3.placeholder("p");
  pat3.output(Value::node(pat3.call_function("torch.mul", {Value::integer(3), Value::node(p3)})));
  Graph rep3;
  rep3.output(Value::node(rep3.call_function("torch.neg", {Value::node(rep3.placeholder("p"))})));
  EXPECT_TRUE(replace_pattern(*gm, pat3, rep3).empty());
}

TEST(SubgraphRewriterTest, MalformedPatternsAreErrors) {
  auto gm = target_graph();
  Graph no_output;
  no_output.placeholder("p");
  EXPECT_THROW(replace_pattern(*gm, no_output, *replacement()), FxError);
  Graph two;
  Node* a = two.placeholder("a");
  Node* b = two.placeholder("b");
  two.output(Value::node(two.call_function("operator.add", {Value::node(a), Value::node(b)})));
  EXPECT_THROW(replace_pattern(*gm, *pattern(), two), FxError);  // placeholder counts differ
}

}  // namespace
}  // namespace fx
