// Passes stay linear (or n log n) on the graphs a hostile file can spell out: dead-code elimination and
// lint on a 200,000-node fan-out, replace_pattern with a 3,000-node pattern and on a 200,000-node graph.
// Each time bound is one a quadratic algorithm cannot meet here (their figures at these sizes were tens
// of seconds to minutes; the commit that made them linear has them).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <unordered_map>

#include "ir/python_code.h"
#include "ir/tabular.h"
#include "passes/subgraph_rewriter.h"
#include "support/error.h"

namespace fx {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Bounds in seconds are for an optimised build; sanitizers slow everything down by a few times.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kSlack = 5;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kSlack = 5;
#else
constexpr double kSlack = 1;
#endif
#else
constexpr double kSlack = 1;
#endif

// The figure, in the test's output.
void report(const char* what, double s) { std::printf("[ linear   ] %s: %.3f s\n", what, s); }

std::unique_ptr<GraphModule> empty_module() {
  auto gm = std::make_unique<GraphModule>();
  gm->modules()[""] = ModuleInfo{"torch.nn.modules.module.Module", {}};
  return gm;
}

// x → n dead relu(x) nodes (x's users), and output(x).
std::unique_ptr<GraphModule> fan_out(size_t n) {
  auto gm = empty_module();
  Graph& g = gm->graph();
  Node* x = g.placeholder("x");
  for (size_t i = 0; i < n; ++i) g.call_function("torch.relu", {Value::node(x)});
  g.output(Value::node(x));
  return gm;
}

// p → `n` times target(...) in a chain, output the last.
std::unique_ptr<Graph> chain(size_t n, const char* target) {
  auto g = std::make_unique<Graph>();
  Node* last = g->placeholder("p");
  for (size_t i = 0; i < n; ++i) last = g->call_function(target, {Value::node(last)});
  g->output(Value::node(last));
  return g;
}

TEST(LinearPasses, DeadCodeEliminationOnAFanOut) {
  auto gm = fan_out(200000);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(gm->graph().eliminate_dead_code());
  const double s = seconds_since(start);
  report("eliminate_dead_code, 200k dead users of one node", s);
  EXPECT_EQ(gm->graph().size(), 2u);
  EXPECT_TRUE(gm->graph().find("x")->users().size() == 1);  // the output
  EXPECT_LT(s, 3.0 * kSlack) << "DCE of 200k dead users of one node took " << s << " s";
}

TEST(LinearPasses, LintOnAFanOutAndAChain) {
  auto wide = fan_out(200000);
  auto start = std::chrono::steady_clock::now();
  wide->graph().lint();
  report("lint, 200k users of one node", seconds_since(start));
  EXPECT_LT(seconds_since(start), 3.0 * kSlack);
  auto gm = empty_module();
  Graph& g = gm->graph();
  Node* last = g.placeholder("x");
  for (int i = 0; i < 200000; ++i) last = g.call_function("torch.relu", {Value::node(last)});
  g.output(Value::node(last));
  start = std::chrono::steady_clock::now();
  g.lint();
  report("lint, a 200k-node chain", seconds_since(start));
  EXPECT_LT(seconds_since(start), 3.0 * kSlack);
}

// The text views of the same graphs (the CLI's table and code).
TEST(LinearPasses, TextViewsOfAWideAndALongGraph) {
  auto wide = fan_out(200000);
  auto start = std::chrono::steady_clock::now();
  const std::string table = print_tabular(wide->graph());
  const std::string code = python_code(wide->graph());
  report("print_tabular + python_code, 200k users of one node", seconds_since(start));
  EXPECT_LT(seconds_since(start), 6.0 * kSlack);
  EXPECT_NE(table.find("relu_199998"), std::string::npos);
  auto gm = empty_module();
  std::unordered_map<const Node*, Node*> copied;
  gm->graph().output(gm->graph().graph_copy(*chain(200000, "torch.relu"), copied));
  start = std::chrono::steady_clock::now();
  (void)print_tabular(gm->graph());
  (void)python_code(gm->graph());
  report("print_tabular + python_code, a 200k-node chain", seconds_since(start));
  EXPECT_LT(seconds_since(start), 6.0 * kSlack);
}

// replacePattern(gm, gm): the graph is its own pattern — one match, the whole graph.
TEST(LinearPasses, AThreeThousandNodePatternMatchesItself) {
  auto gm = empty_module();
  std::unordered_map<const Node*, Node*> copied;
  gm->graph().output(gm->graph().graph_copy(*chain(3000, "torch.relu"), copied));
  const auto start = std::chrono::steady_clock::now();
  auto matches = replace_pattern(*gm, *chain(3000, "torch.relu"), *chain(1, "torch.neg"));
  const double s = seconds_since(start);
  report("replace_pattern, a 3,000-node pattern on itself", s);
  ASSERT_EQ(matches.size(), 1u);
  gm->graph().lint();
  EXPECT_EQ(gm->graph().size(), 3u);  // p, neg, output
  EXPECT_LT(s, 3.0 * kSlack) << "a 3,000-node pattern took " << s << " s";
}

// A 3,000-node pattern over a 200,000-node chain: 66 matches, each found without re-walking the ones before.
TEST(LinearPasses, ALongPatternOverALongChain) {
  auto gm = empty_module();
  std::unordered_map<const Node*, Node*> copied;
  gm->graph().output(gm->graph().graph_copy(*chain(200000, "torch.relu"), copied));
  const auto start = std::chrono::steady_clock::now();
  auto matches = replace_pattern(*gm, *chain(3000, "torch.relu"), *chain(1, "torch.neg"));
  const double s = seconds_since(start);
  report("replace_pattern, a 3,000-node pattern over a 200k-node chain", s);
  EXPECT_EQ(matches.size(), 66u);
  gm->graph().lint();
  EXPECT_EQ(gm->graph().size(), 200000 - 66 * 3000 + 66 + 2u);
  EXPECT_LT(s, 6.0 * kSlack) << "took " << s << " s";
}

// Many small matches in a 200,000-node graph: a chain of abs → relu pairs, each replaced by one sigmoid.
TEST(LinearPasses, ManySmallMatchesInALargeGraph) {
  auto gm = empty_module();
  Graph& g = gm->graph();
  Node* last = g.placeholder("x");
  for (int i = 0; i < 100000; ++i)
    last = g.call_function("torch.relu", {Value::node(g.call_function("torch.abs", {Value::node(last)}))});
  g.output(Value::node(last));
  auto pattern = std::make_unique<Graph>();
  Node* p = pattern->placeholder("p");
  Node* a = pattern->call_function("torch.abs", {Value::node(p)});
  pattern->output(Value::node(pattern->call_function("torch.relu", {Value::node(a)})));
  const auto start = std::chrono::steady_clock::now();
  auto matches = replace_pattern(*gm, *pattern, *chain(1, "torch.sigmoid"));
  const double s = seconds_since(start);
  report("replace_pattern, 100k matches in a 200k-node graph", s);
  EXPECT_EQ(matches.size(), 100000u);
  g.lint();
  EXPECT_EQ(g.size(), 100002u);
  EXPECT_EQ(g.output_node()->prev()->target(), "torch.sigmoid");
  EXPECT_LT(s, 6.0 * kSlack) << "took " << s << " s";
}

// replacePattern(gm, gm): the graph being rewritten is its own pattern (and replacement).
TEST(LinearPasses, ThePatternMayBeTheGraphItself) {
  auto gm = empty_module();
  std::unordered_map<const Node*, Node*> copied;
  gm->graph().output(gm->graph().graph_copy(*chain(5, "torch.relu"), copied));
  auto matches = replace_pattern(*gm, gm->graph(), gm->graph());
  ASSERT_EQ(matches.size(), 1u);
  gm->graph().lint();
  EXPECT_EQ(gm->graph().size(), 7u);  // the same function: p, five relus, output
  matches = replace_pattern(*gm, gm->graph(), *chain(1, "torch.neg"));
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(gm->graph().size(), 3u);
}

}  // namespace
}  // namespace fx
