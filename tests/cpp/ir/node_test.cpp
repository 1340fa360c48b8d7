// Node: format_node and argument printing against torch (tests/golden/ir/values.json), users kept in sync on
// every change (orders checked against what torch produces), replacement, moves, meta.
#include <gtest/gtest.h>

#include "golden_values.h"
#include "ir/graph.h"
#include "support/error.h"

namespace fx {
namespace {

std::vector<std::string> names(const std::vector<Node*>& nodes) {
  std::vector<std::string> out;
  for (Node* n : nodes) out.push_back(n->name());
  return out;
}

TEST(Node, FormatNodeAndArgsMatchTorch) {
  const auto golden = testing::load_golden("values.json");
  Graph g;
  auto by_name = [&](const std::string& name) {
    Node* n = g.find(name);
    if (!n) throw std::runtime_error("no node " + name);
    return n;
  };
  for (const auto& c : golden.at("graph")) {
    ValueList args;
    for (const auto& a : c.at("args")) args.push_back(testing::decode_value(a, by_name));
    Kwargs kwargs;
    for (const auto& kv : c.at("kwargs")) kwargs.emplace_back(kv.at(0), testing::decode_value(kv.at(1), by_name));
    Node* n = g.create_node(parse_op(c.at("op")), c.at("target"), args, kwargs, c.at("name").get<std::string>(),
                            c.at("type_expr"));
    ASSERT_EQ(n->name(), c.at("name").get<std::string>());
  }
  g.lint();
  for (const auto& c : golden.at("graph")) {
    Node* n = g.find(c.at("name"));
    EXPECT_EQ(n->format_node(), c.at("format_node").get<std::string>());
    EXPECT_EQ(Value::tuple(n->args()).repr(), c.at("str_args").get<std::string>());
    EXPECT_EQ(Value::dict(n->kwargs()).repr(), c.at("str_kwargs").get<std::string>());
    EXPECT_EQ(names(n->users()), c.at("users").get<std::vector<std::string>>()) << n->name();
  }
}

TEST(Node, UsersFollowArgsLikeTorch) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* a = g.call_function("operator.add", {Value::node(x), Value::node(x)});  // two uses, one user
  Node* b = g.call_function("torch.abs", {Value::node(x)});
  Node* c = g.call_function("torch.neg", {}, {{"input", Value::node(x)}});
  EXPECT_EQ(names(x->users()), (std::vector<std::string>{"add", "abs_1", "neg"}));
  EXPECT_EQ(a->all_input_nodes(), (std::vector<Node*>{x}));

  // Re-assigning args moves the node to the back of its inputs' users (torch: add_1 moved last).
  a->set_args({Value::node(x), Value::node(y), Value::integer(1)});
  EXPECT_EQ(names(x->users()), (std::vector<std::string>{"abs_1", "neg", "add"}));
  EXPECT_EQ(names(y->users()), (std::vector<std::string>{"add"}));

  // Dropping an input removes the user.
  a->update_arg(0, Value::integer(3));
  EXPECT_EQ(names(x->users()), (std::vector<std::string>{"abs_1", "neg"}));
  EXPECT_EQ(a->all_input_nodes(), (std::vector<Node*>{y}));

  // Kwargs count too; a nested reference counts once.
  c->update_kwarg("other", Value::tuple({Value::list({Value::node(y)}), Value::node(y)}));
  EXPECT_EQ(names(y->users()), (std::vector<std::string>{"add", "neg"}));
  EXPECT_EQ(c->all_input_nodes(), (std::vector<Node*>{x, y}));
  c->set_kwargs({});
  EXPECT_EQ(names(y->users()), (std::vector<std::string>{"add"}));
  EXPECT_EQ(names(x->users()), (std::vector<std::string>{"abs_1"}));
  EXPECT_THROW(b->update_arg(5, Value()), FxError);
  EXPECT_EQ(c->kwarg("input"), nullptr);
}

TEST(Node, SizeArgumentsBecomeTuples) {
  // As torch's map_aggregate: node.args never hold a torch.Size (meta does).
  Graph g;
  Node* x = g.placeholder("x");
  Value size = Value::size({Value::integer(1), Value::integer(2)});
  Node* v = g.call_method("view", {Value::node(x), size}, {{"s", Value::list({size})}});
  EXPECT_EQ(Value::tuple(v->args()).repr(), "(x, (1, 2))");
  EXPECT_EQ(Value::dict(v->kwargs()).repr(), "{'s': [(1, 2)]}");
  v->update_arg(1, Value::size({Value::node(x)}));
  EXPECT_EQ(v->args()[1].kind(), ValueKind::Tuple);
  EXPECT_EQ(x->users(), (std::vector<Node*>{v}));
  v->set_meta("shape", size);
  EXPECT_EQ(v->meta_value("shape")->kind(), ValueKind::Size);
}

TEST(Node, UpdateKwargKeepsPlace) {
  Graph g;
  Node* n = g.call_function("torch.sum", {}, {{"dim", Value::integer(1)}, {"keepdim", Value::boolean(false)}});
  n->update_kwarg("dim", Value::integer(2));
  n->update_kwarg("dtype", Value::dtype("float32"));
  EXPECT_EQ(Value::dict(n->kwargs()).repr(), "{'dim': 2, 'keepdim': False, 'dtype': torch.float32}");
  EXPECT_EQ(n->kwarg("missing"), nullptr);
}

TEST(Node, ReplaceAllUsesWithMatchesTorch) {
  // The torch session this mirrors:
  //   x; with inserting_after(x): abs_1, neg; with inserting_before(None): relu, sin; cos, tan before output
  //   erase tan; tan_1 = tan(x); x.replace_all_uses_with(relu)
  Graph g;
  Node* x = g.placeholder("x");
  Node* out = g.output(Value::node(x));
  {
    auto guard = g.inserting_after(x);
    g.call_function("torch.abs", {Value::node(x)});
    g.call_function("torch.neg", {Value::node(x)});
  }
  Node* relu;
  {
    auto guard = g.inserting_before(nullptr);
    relu = g.call_function("torch.relu", {Value::node(x)});
    g.call_function("torch.sin", {Value::node(x)});
  }
  {
    auto guard = g.inserting_before(out);
    g.call_function("torch.cos", {Value::node(x)});
    g.call_function("torch.tan", {Value::node(x)});
  }
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"sin", "relu", "x", "neg", "abs_1", "cos", "tan", "output"}));
  g.erase_node(g.find("tan"));
  EXPECT_EQ(g.call_function("torch.tan", {Value::node(x)})->name(), "tan_1");
  EXPECT_EQ(names(x->users()), (std::vector<std::string>{"output", "abs_1", "neg", "relu", "sin", "cos", "tan_1"}));
  std::vector<Node*> changed = x->replace_all_uses_with(relu);
  EXPECT_EQ(names(changed), (std::vector<std::string>{"output", "abs_1", "neg", "relu", "sin", "cos", "tan_1"}));
  EXPECT_EQ(names(relu->users()), (std::vector<std::string>{"output", "abs_1", "neg", "relu", "sin", "cos", "tan_1"}));
  EXPECT_TRUE(x->users().empty());
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"sin", "relu", "x", "neg", "abs_1", "cos", "output", "tan_1"}));
}

TEST(Node, ReplaceAllUsesWithFilter) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* a = g.call_function("torch.abs", {Value::node(x)});
  Node* b = g.call_function("torch.neg", {Value::node(x)});
  std::vector<Node*> changed = x->replace_all_uses_with(y, [&](Node* user) { return user == b; });
  EXPECT_EQ(changed, (std::vector<Node*>{b}));
  EXPECT_EQ(x->users(), (std::vector<Node*>{a}));
  EXPECT_EQ(y->users(), (std::vector<Node*>{b}));
  EXPECT_EQ(b->args()[0].as_node(), y);
}

TEST(Node, ReplaceInputWith) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* a = g.call_function("operator.add", {Value::node(x), Value::tuple({Value::node(x)})},
                            {{"alpha", Value::node(x)}});
  a->replace_input_with(x, y);
  EXPECT_EQ(Value::tuple(a->args()).repr(), "(y, (y,))");
  EXPECT_EQ(Value::dict(a->kwargs()).repr(), "{'alpha': y}");
  EXPECT_TRUE(x->users().empty());
  EXPECT_EQ(y->users(), (std::vector<Node*>{a}));
}

TEST(Node, PrependAppendNextPrev) {
  Graph g;
  Node* a = g.placeholder("a");
  Node* b = g.placeholder("b");
  Node* c = g.placeholder("c");
  EXPECT_EQ(a->prev(), nullptr);
  EXPECT_EQ(a->next(), b);
  EXPECT_EQ(c->next(), nullptr);
  a->prepend(c);
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"c", "a", "b"}));
  b->append(c);
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"a", "b", "c"}));
  a->append(c);
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"a", "c", "b"}));
  a->prepend(a);  // no effect, as in torch
  a->append(a);
  c->prepend(a);
  a->append(c);
  EXPECT_EQ(names(g.nodes()), (std::vector<std::string>{"a", "c", "b"}));
  EXPECT_EQ(g.size(), 3u);
  Graph other;
  Node* o = other.placeholder("o");
  EXPECT_THROW(a->prepend(o), FxError);
}

TEST(Node, Meta) {
  Graph g;
  Node* a = g.placeholder("a");
  EXPECT_EQ(a->meta_value("shape"), nullptr);
  a->set_meta("shape", Value::size({Value::integer(1), Value::integer(3)}));
  a->set_meta("dtype", Value::dtype("float32"));
  a->set_meta("shape", Value::size({Value::integer(2)}));
  ASSERT_NE(a->meta_value("shape"), nullptr);
  EXPECT_EQ(a->meta_value("shape")->repr(), "torch.Size([2])");
  EXPECT_EQ(a->meta().size(), 2u);
  EXPECT_EQ(a->meta()[0].first, "shape");
}

TEST(Node, ParseOp) {
  for (Op op : {Op::Placeholder, Op::GetAttr, Op::CallFunction, Op::CallModule, Op::CallMethod, Op::Output}) {
    EXPECT_EQ(parse_op(op_name(op)), op);
  }
  EXPECT_THROW(parse_op("root"), FxError);
}

}  // namespace
}  // namespace fx
