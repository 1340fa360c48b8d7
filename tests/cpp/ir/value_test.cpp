// Value: repr() of every kind as Python prints it (tests/golden/ir/values.json, from gen_values.py), accessors,
// equality and node traversal.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "golden_values.h"
#include "ir/graph.h"
#include "support/error.h"

namespace fx {
namespace {

TEST(Value, ReprMatchesPython) {
  const auto golden = testing::load_golden("values.json");
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  auto by_name = [&](const std::string& name) { return name == "x" ? x : y; };
  size_t checked = 0;
  for (const auto& c : golden.at("reprs")) {
    Value v = testing::decode_value(c.at("value"), by_name);
    EXPECT_EQ(v.repr(), c.at("repr").get<std::string>()) << c.at("value").dump();
    ++checked;
  }
  EXPECT_GT(checked, 500u);
}

TEST(Value, FloatRepr) {
  EXPECT_EQ(python_float_repr(1.0), "1.0");
  EXPECT_EQ(python_float_repr(1e-05), "1e-05");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(0.1), "0.1");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(1.5e300), "1.5e+300");
  EXPECT_EQ(python_float_repr(5e-324), "5e-324");
  EXPECT_EQ(python_float_repr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(python_float_repr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(python_float_repr(std::nan("")), "nan");
  EXPECT_EQ(python_float_repr(0.1 + 0.2), "0.30000000000000004");
}

TEST(Value, StrRepr) {
  EXPECT_EQ(python_str_repr("hi"), "'hi'");
  EXPECT_EQ(python_str_repr("it's"), "\"it's\"");
  EXPECT_EQ(python_str_repr("both ' and \""), "'both \\' and \"'");
  EXPECT_EQ(python_str_repr("a\\b\n"), "'a\\\\b\\n'");
  EXPECT_EQ(python_str_repr(std::string("\x00", 1)), "'\\x00'");
  EXPECT_EQ(python_str_repr("\xc3\xa9"), "'\xc3\xa9'");  // é stays
}

TEST(Value, Accessors) {
  EXPECT_TRUE(Value().is_none());
  EXPECT_EQ(Value::integer(3).as_int(), 3);
  EXPECT_EQ(Value::integer(3).as_float(), 3.0);
  EXPECT_EQ(Value::floating(2.5).as_float(), 2.5);
  EXPECT_TRUE(Value::boolean(true).as_bool());
  EXPECT_EQ(Value::dtype("float32").as_str(), "float32");
  EXPECT_EQ(Value::device("cuda:0").as_str(), "cuda:0");
  EXPECT_EQ(Value::slice(Value(), Value::integer(2), Value()).items().size(), 3u);
  EXPECT_TRUE(Value::size({Value::integer(1)}).is_sequence());
  EXPECT_FALSE(Value::dict({}).is_sequence());
  EXPECT_THROW(Value::floating(1.0).as_int(), FxError);
  EXPECT_THROW(Value::integer(1).as_str(), FxError);
  EXPECT_THROW(Value::str("a").items(), FxError);
  EXPECT_THROW(Value::list({}).dict_items(), FxError);
  EXPECT_THROW(Value().as_node(), FxError);
  EXPECT_THROW(Value::node(nullptr), FxError);
}

TEST(Value, Equality) {
  EXPECT_EQ(Value::integer(1), Value::integer(1));
  EXPECT_NE(Value::integer(1), Value::floating(1.0));
  EXPECT_NE(Value::integer(1), Value::boolean(true));
  EXPECT_NE(Value::tuple({Value::integer(1)}), Value::list({Value::integer(1)}));
  EXPECT_EQ(Value::floating(std::nan("")), Value::floating(std::nan("")));
  EXPECT_NE(Value::floating(0.0), Value::floating(-0.0));
  EXPECT_EQ(Value::dict({{"a", Value::integer(1)}, {"b", Value()}}),
            Value::dict({{"b", Value()}, {"a", Value::integer(1)}}));
  EXPECT_NE(Value::dict({{"a", Value::integer(1)}}), Value::dict({{"a", Value::integer(2)}}));
  EXPECT_EQ(Value::slice(Value(), Value::integer(2), Value()), Value::slice(Value(), Value::integer(2), Value()));
  EXPECT_NE(Value::dtype("float32"), Value::str("float32"));
  EXPECT_EQ(Value::ellipsis(), Value::ellipsis());
  Graph g;
  Node* a = g.placeholder("a");
  Node* b = g.placeholder("b");
  EXPECT_EQ(Value::node(a), Value::node(a));
  EXPECT_NE(Value::node(a), Value::node(b));
}

TEST(Value, NodeTraversal) {
  Graph g;
  Node* a = g.placeholder("a");
  Node* b = g.placeholder("b");
  Node* c = g.placeholder("c");
  Value v = Value::tuple({Value::node(a),
                          Value::list({Value::node(b), Value::integer(1)}),
                          Value::dict({{"k", Value::node(a)}}),
                          Value::slice(Value(), Value::node(c), Value()),
                          Value::size({Value::node(b)})});
  std::vector<Node*> seen;
  v.for_each_node([&](Node* n) { seen.push_back(n); });
  EXPECT_EQ(seen, (std::vector<Node*>{a, b, a, c, b}));

  Value mapped = v.map_nodes([&](Node* n) { return n == a ? Value::integer(7) : Value::node(n); });
  EXPECT_EQ(mapped.repr(), "(7, [b, 1], {'k': 7}, slice(None, c, None), torch.Size([b]))");
  EXPECT_EQ(mapped.items()[4].kind(), ValueKind::Size);
  EXPECT_EQ(mapped.items()[3].kind(), ValueKind::Slice);
  // The original is untouched (values are immutable).
  EXPECT_EQ(v.repr(), "(a, [b, 1], {'k': a}, slice(None, c, None), torch.Size([b]))");
}

}  // namespace
}  // namespace fx
