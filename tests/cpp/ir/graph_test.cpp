// Graph: erase, dead-code elimination, lint (one test per fault it must catch), copies, insertion points.
#include <gtest/gtest.h>

#include "ir/graph.h"
#include "support/error.h"

namespace fx {
namespace {

std::vector<std::string> names(const std::vector<Node*>& nodes) {
  std::vector<std::string> out;
  for (Node* n : nodes) out.push_back(n->name());
  return out;
}

// x -> abs -> add(abs, 1) -> output
struct Small {
  Graph g;
  Node* x = g.placeholder("x");
  Node* abs = g.call_function("torch.abs", {Value::node(x)});
  Node* add = g.call_function("operator.add", {Value::node(abs), Value::integer(1)});
  Node* out = g.output(Value::node(add));
};

// Runs lint and returns the node its FxError names ("" when lint passes).
std::string lint_fault(const Graph& g) {
  try {
    g.lint();
  } catch (const FxError& e) {
    return e.node().empty() ? "<no node>" : e.node();
  }
  return "";
}

TEST(Graph, EraseRefusesNodeWithUsers) {
  Small s;
  try {
    s.g.erase_node(s.abs);
    FAIL() << "erase_node accepted a node with users";
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "abs_1");
    EXPECT_NE(std::string(e.what()).find("add"), std::string::npos);  // names the user
  }
  EXPECT_EQ(s.g.size(), 4u);
}

TEST(Graph, EraseUpdatesInputsUsers) {
  Small s;
  s.out->set_args({Value::node(s.abs)});
  s.g.erase_node(s.add);
  EXPECT_EQ(names(s.g.nodes()), (std::vector<std::string>{"x", "abs_1", "output"}));
  EXPECT_EQ(s.abs->users(), (std::vector<Node*>{s.out}));
  EXPECT_EQ(s.g.find("add"), nullptr);
  EXPECT_EQ(s.g.size(), 3u);
  EXPECT_EQ(lint_fault(s.g), "");
  s.g.erase_node(s.add);  // a second erase is a no-op, as in torch
  EXPECT_EQ(s.g.size(), 3u);
}

TEST(Graph, DeadCodeEliminationKeepsImpure) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* unused_input = g.placeholder("unused");
  Node* a = g.call_function("torch.abs", {Value::node(x)});
  g.call_function("torch.neg", {Value::node(a)});                               // dead, and makes a dead
  g.call_method("add_", {Value::node(x), Value::integer(1)});                   // in-place: kept
  g.call_function("aten.copy_.default", {Value::node(x), Value::node(x)});      // in-place: kept
  g.call_function("torch._assert", {Value::boolean(true), Value::str("msg")});  // side effect: kept
  g.call_function("torch.randn", {Value::integer(3)});                          // RNG: kept
  g.call_module("fc", {Value::node(x)});                                        // dead module call
  Node* keep = g.call_function("torch.relu", {Value::node(x)});
  g.output(Value::node(keep));
  EXPECT_TRUE(g.eliminate_dead_code());
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"x", "unused", "add_", "copy__default", "_assert",
                                                         "randn", "relu", "output"}));
  EXPECT_EQ(unused_input->users().size(), 0u);
  EXPECT_FALSE(g.eliminate_dead_code());
  EXPECT_EQ(lint_fault(g), "");
}

TEST(Graph, LintAcceptsWellFormedGraph) {
  Small s;
  EXPECT_EQ(lint_fault(s.g), "");
  Graph empty;
  EXPECT_EQ(lint_fault(empty), "");
}

TEST(Graph, LintCatchesUseBeforeDefinition) {
  Small s;
  s.x->prepend(s.abs);  // abs now comes before its input x
  EXPECT_EQ(lint_fault(s.g), "abs_1");
}

TEST(Graph, LintCatchesForeignArgument) {
  Small s;
  Graph other;
  Node* foreign = other.placeholder("y");
  s.add->update_arg(1, Value::node(foreign));
  EXPECT_EQ(lint_fault(s.g), "add");
  // The other graph sees a user that is not its own.
  EXPECT_EQ(lint_fault(other), "y");
  s.add->update_arg(1, Value::integer(1));
  EXPECT_EQ(lint_fault(s.g), "");
  EXPECT_EQ(lint_fault(other), "");
}

TEST(Graph, LintCatchesErasedArgument) {
  Small s;
  s.out->set_args({Value::node(s.abs)});
  s.g.erase_node(s.add);
  s.g.call_function("torch.neg", {Value::node(s.add)});  // refers to the erased node
  EXPECT_EQ(lint_fault(s.g), "neg");
}

TEST(Graph, LintCatchesNodeAfterOutput) {
  Small s;
  s.g.call_function("torch.neg", {Value::node(s.x)});  // appended after output
  EXPECT_EQ(lint_fault(s.g), "neg");
  Small t;
  t.g.output(Value::node(t.x));  // a second output
  EXPECT_EQ(lint_fault(t.g), "output_1");
}

TEST(Graph, DeadCodeEliminationLintsFirst) {
  Small s;
  s.x->prepend(s.abs);
  EXPECT_THROW(s.g.eliminate_dead_code(), FxError);
}

TEST(Graph, OutputNodeAndFind) {
  Small s;
  EXPECT_EQ(s.g.output_node(), s.out);
  EXPECT_EQ(s.g.find("abs_1"), s.abs);
  EXPECT_EQ(s.g.find("nope"), nullptr);
  Graph g;
  EXPECT_EQ(g.output_node(), nullptr);
}

TEST(Graph, GraphCopy) {
  Small s;
  s.abs->set_meta("shape", Value::size({Value::integer(2)}));
  s.add->set_type_expr("torch.Tensor");
  Graph copy;
  std::unordered_map<const Node*, Node*> val_map;
  Value result = copy.graph_copy(s.g, val_map);
  EXPECT_EQ(names(copy.nodes()), (std::vector<std::string>{"x", "abs_1", "add"}));  // output not copied
  ASSERT_TRUE(result.is_node());
  EXPECT_EQ(result.as_node(), val_map.at(s.add));
  Node* abs = val_map.at(s.abs);
  EXPECT_NE(abs, s.abs);
  EXPECT_EQ(&abs->graph(), &copy);
  EXPECT_EQ(abs->args()[0].as_node(), val_map.at(s.x));
  EXPECT_EQ(abs->meta_value("shape")->repr(), "torch.Size([2])");
  EXPECT_EQ(val_map.at(s.add)->type_expr(), "torch.Tensor");
  EXPECT_EQ(val_map.at(s.x)->users(), (std::vector<Node*>{abs}));
  copy.output(result);
  EXPECT_EQ(lint_fault(copy), "");
  EXPECT_EQ(copy.output_node()->format_node(), "return add");

  // Copying again into the same graph: names are taken, so they get suffixes, as in torch.
  std::unordered_map<const Node*, Node*> second;
  Graph twice;
  twice.graph_copy(s.g, val_map = {});
  twice.graph_copy(s.g, second);
  EXPECT_EQ(names(twice.nodes()), (std::vector<std::string>{"x", "abs_1", "add", "x_1", "abs_2", "add_1"}));
}

TEST(Graph, GraphCopyHonoursPrefilledMap) {
  Small s;
  Graph g;
  Node* input = g.placeholder("input_tensor");
  std::unordered_map<const Node*, Node*> val_map{{s.x, input}};
  Value result = g.graph_copy(s.g, val_map);
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"input_tensor", "abs_1", "add"}));
  EXPECT_EQ(val_map.at(s.abs)->args()[0].as_node(), input);
  EXPECT_EQ(result.as_node()->name(), "add");
}

TEST(Graph, NodeCopyWithTransform) {
  Small s;
  Graph g;
  Node* c = g.placeholder("c");
  Node* copy = g.node_copy(*s.add, [&](Node*) { return Value::node(c); });
  EXPECT_EQ(copy->name(), "add");
  EXPECT_EQ(copy->format_node(), "%add : [num_users=0] = call_function[target=operator.add](args = (%c, 1), kwargs = {})");
  EXPECT_EQ(c->users(), (std::vector<Node*>{copy}));
}

TEST(Graph, InsertionPointsLikeTorch) {
  Small s;
  {
    auto guard = s.g.inserting_before(s.add);
    s.g.call_function("torch.neg", {Value::node(s.abs)});
    s.g.call_function("torch.sin", {Value::node(s.abs)});
  }
  {
    auto guard = s.g.inserting_after(s.x);  // each new node right after x: they come out reversed
    s.g.call_function("torch.cos", {Value::node(s.x)});
    s.g.call_function("torch.tan", {Value::node(s.x)});
  }
  s.g.call_function("torch.exp", {Value::node(s.x)});  // the guards restored "append at the end"
  EXPECT_EQ(names(s.g.nodes()),
            (std::vector<std::string>{"x", "tan", "cos", "abs_1", "neg", "sin", "add", "output", "exp"}));
  {
    auto guard = s.g.inserting_after(nullptr);  // the end
    s.g.call_function("torch.log", {Value::node(s.x)});
  }
  EXPECT_EQ(names(s.g.nodes()).back(), "log");
  Graph other;
  EXPECT_THROW(other.inserting_before(s.x), FxError);
}

TEST(Graph, InsertionPointSurvivesErase) {
  Small s;
  Node* neg = s.g.call_function("torch.neg", {Value::node(s.x)});
  auto guard = s.g.inserting_before(neg);
  s.g.erase_node(neg);
  s.g.call_function("torch.sin", {Value::node(s.x)});
  EXPECT_EQ(names(s.g.nodes()), (std::vector<std::string>{"x", "abs_1", "add", "output", "sin"}));
}

TEST(Graph, CreateNodeChecksTarget) {
  Graph g;
  EXPECT_THROW(g.create_node(Op::CallFunction, ""), FxError);
}

}  // namespace
}  // namespace fx
