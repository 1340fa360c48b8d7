#include "exec/interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "support/error.h"
#include "../seed_graph.h"

namespace fx {
namespace {

using testing::build_seed;
using testing::f32;

TEST(Interpreter, SeedGraphComputesTheFormula) {
  GraphModule gm;
  build_seed(gm);
  ASSERT_NE(gm.graph().find("abs_1"), nullptr);
  ASSERT_NE(gm.graph().find("sum_1"), nullptr);
  Interpreter interp(gm);
  const std::vector<float> av = {-2.0f, 0.5f, 3.0f, -0.25f};
  for (float bsign : {1.0f, -1.0f}) {
    Object out = interp.run({Object(f32({4}, av)), Object(f32({2, 2}, {1, 2, 3, -10 * bsign}))});
    ASSERT_EQ(out.kind(), Object::Kind::Tuple);
    ASSERT_EQ(out.items().size(), 2u);
    const Tensor& lt = out.items()[0].tensor();
    EXPECT_EQ(lt.dtype(), DType::Bool);
    EXPECT_EQ(lt.dim(), 0);
    EXPECT_EQ(*lt.data<bool>(), 6 - 10 * bsign < 0);
    const Tensor& x = out.items()[1].tensor();
    EXPECT_EQ(x.dtype(), DType::Float32);
    EXPECT_EQ(x.shape(), (Shape{4}));
    for (size_t i = 0; i < av.size(); ++i) EXPECT_FLOAT_EQ(x.data<float>()[i], av[i] / (std::fabs(av[i]) + 1));
  }
}

// A run reuses each node's argument lists; a run started while another is under way (here from a node hook)
// builds its own and both compute the right values.
TEST(Interpreter, RunInsideARunComputesBoth) {
  GraphModule gm;
  build_seed(gm);
  Interpreter interp(gm);
  const std::vector<float> av = {-2.0f, 0.5f, 3.0f, -0.25f}, inner_av = {4.0f, -1.0f, 0.0f, 9.0f};
  const std::vector<Object> outer_in = {Object(f32({4}, av)), Object(f32({2, 2}, {1, 2, 3, 4}))};
  const std::vector<Object> inner_in = {Object(f32({4}, inner_av)), Object(f32({2, 2}, {-1, -2, -3, -4}))};
  int inner_runs = 0;
  interp.set_node_hook([&](const Node& n, const Object&) {
    if (n.name() != "add" || inner_runs++) return;  // once, in the middle of the outer run
    Object inner = interp.run(inner_in);
    const Tensor& x = inner.items()[1].tensor();
    for (size_t i = 0; i < inner_av.size(); ++i) EXPECT_FLOAT_EQ(x.data<float>()[i], inner_av[i] / (std::fabs(inner_av[i]) + 1));
    EXPECT_TRUE(*inner.items()[0].tensor().data<bool>());
  });
  Object out = interp.run(outer_in);
  EXPECT_EQ(inner_runs, 2);  // the inner run's own "add" came through the hook too
  const Tensor& x = out.items()[1].tensor();
  for (size_t i = 0; i < av.size(); ++i) EXPECT_FLOAT_EQ(x.data<float>()[i], av[i] / (std::fabs(av[i]) + 1));
  EXPECT_FALSE(*out.items()[0].tensor().data<bool>());
  // And the next run, with the argument lists free again, too.
  interp.set_node_hook(nullptr);
  Object again = interp.run(inner_in);
  EXPECT_FLOAT_EQ(again.items()[1].tensor().data<float>()[3], 9.0f / 10.0f);
}

TEST(Interpreter, ValuesAreFreedAfterTheirLastUse) {
  GraphModule gm;
  build_seed(gm);
  Interpreter interp(gm);
  const Graph& g = gm.graph();
  // FX's last-use analysis: l_a_ is last read by x, abs_1 by add, add by x.
  auto freed = interp.freed_after(g.find("x"));
  EXPECT_EQ(freed.size(), 2u);
  EXPECT_EQ(interp.freed_after(g.find("add")), std::vector<const Node*>{g.find("abs_1")});

  Tensor a = f32({3}, {1, -2, 3});
  std::vector<Object> inputs = {Object(a), Object(f32({2}, {1, 1}))};
  // (The inputs' release shows in live_values below: an Object's copies share one Tensor, so the
  // interpreter's copy of l_a_ adds no reference to its storage.)
  std::weak_ptr<Storage> abs_storage, add_storage;
  std::vector<std::string> checked;
  interp.set_node_hook([&](const Node& n, const Object& value) {
    if (n.name() == "abs_1") abs_storage = value.tensor().storage();
    if (n.name() == "add") {
      EXPECT_TRUE(abs_storage.expired());  // abs_1 released once add ran
      add_storage = value.tensor().storage();
    }
    if (n.name() == "x") EXPECT_TRUE(add_storage.expired());  // add released once x ran
    checked.push_back(n.name());
  });
  struct Live : RunObserver {  // (node, values held after it ran)
    std::vector<std::pair<std::string, size_t>> seen;
    void after(const Node& n, const Object&, size_t live) override { seen.emplace_back(n.name(), live); }
  } live;
  interp.run(inputs, &live);
  EXPECT_EQ(checked.size(), 8u);
  ASSERT_EQ(live.seen.size(), 8u);
  // After x, only x itself is live (l_b_ was freed by sum_1 earlier); after output nothing but the result.
  EXPECT_EQ(live.seen[4].first, "x");
  EXPECT_EQ(live.seen[4].second, 2u);  // x and l_b_ (sum_1 has not run yet)
  EXPECT_EQ(live.seen[6].first, "lt");
  EXPECT_EQ(live.seen[6].second, 2u);  // lt and x
}

TEST(Interpreter, OpErrorsNameTheNode) {
  GraphModule gm;
  build_seed(gm);
  Interpreter interp(gm);
  try {
    interp.run({Object(f32({2}, {1, 2})), Object(Value::str("not a tensor"))});
    FAIL() << "expected an error";
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "sum_1");
    EXPECT_EQ(e.bare_message(), "call_method sum: sum(): argument 'input' must be Tensor, not str 'not a tensor'");
    EXPECT_EQ(std::string(e.what()).rfind("node 'sum_1': ", 0), 0u);
  }
  // Broadcasting failures inside an op name the op's node too; the interpreter stays usable.
  GraphModule gm2;
  Graph& g = gm2.graph();
  Node* p = g.placeholder("p");
  Node* q = g.placeholder("q");
  g.output(Value::node(g.call_function("operator.mul", {Value::node(p), Value::node(q)})));
  Interpreter i2(gm2);
  try {
    i2.run({Object(f32({2}, {1, 2})), Object(f32({3}, {1, 2, 3}))});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "mul");
    EXPECT_NE(e.bare_message().find("call_function operator.mul: The size of tensor a (2)"), std::string::npos);
  }
  Object ok = i2.run({Object(f32({2}, {1, 2})), Object(f32({1}, {3}))});
  EXPECT_EQ(ok.tensor().data<float>()[1], 6.0f);
}

TEST(Interpreter, InputCountMismatchNamesThePlaceholder) {
  GraphModule gm;
  build_seed(gm);
  Interpreter interp(gm);
  try {
    interp.run({Object(f32({1}, {1}))});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "l_b_");
    EXPECT_NE(e.bare_message().find("takes 2 inputs, got 1"), std::string::npos);
  }
  try {
    interp.run({Object(f32({1}, {1})), Object(f32({1}, {1})), Object()});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_STREQ(e.what(), "the graph takes 2 inputs (l_a_, l_b_), got 3");
  }
}

TEST(Interpreter, ListsEveryUnsupportedOpInOneError) {
  GraphModule gm;
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* f1 = g.call_function("torch.foo", {Value::node(x)});
  Node* f2 = g.call_function("torch.foo", {Value::node(f1)});
  Node* m = g.call_method("bar", {Value::node(f2)});
  gm.modules()["linear"] = ModuleInfo{"fxwasm.test.NotARealModule", {}};
  Node* lin = g.call_module("linear", {Value::node(m)});
  Node* ok = g.call_function("torch.abs", {Value::node(lin)});
  g.output(Value::node(ok));
  auto unsupported = find_unsupported(gm);
  ASSERT_EQ(unsupported.size(), 3u);
  EXPECT_EQ(unsupported[0].kind, "function");
  EXPECT_EQ(unsupported[0].nodes, (std::vector<std::string>{"foo", "foo_1"}));
  EXPECT_EQ(unsupported[2].target, "fxwasm.test.NotARealModule");
  try {
    Interpreter interp(gm);
    FAIL();
  } catch (const FxError& e) {
    EXPECT_STREQ(e.what(),
                 "unsupported ops: torch.foo (nodes: foo, foo_1); method bar (nodes: bar); "
                 "module type fxwasm.test.NotARealModule (nodes: linear)");
  }
}

TEST(Interpreter, GetAttrResolvesTensorsAndModuleAttributes) {
  GraphModule gm;
  gm.tensors()["sub.weight"] = NamedTensor{TensorKind::Parameter, f32({2}, {10, 20})};
  gm.modules()["sub"] = ModuleInfo{"my.Module", {{"scale", Value::integer(3)}}};
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* w = g.get_attr("sub.weight");
  Node* s = g.get_attr("sub.scale");
  Node* y = g.call_function("operator.add", {Value::node(x), Value::node(w)});
  Node* z = g.call_function("operator.mul", {Value::node(y), Value::node(s)});
  g.output(Value::list({Value::node(z), Value::node(s)}));
  Interpreter interp(gm);
  Object out = interp.run({Object(f32({2}, {1, 2}))});
  ASSERT_EQ(out.kind(), Object::Kind::List);
  EXPECT_EQ(out.items()[0].tensor().data<float>()[1], 66.0f);
  EXPECT_EQ(out.items()[1].value().as_int(), 3);

  GraphModule bad;
  Node* missing = bad.graph().get_attr("nope");
  bad.graph().output(Value::node(missing));
  try {
    Interpreter interp2(bad);
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), missing->name());
  }
}

TEST(Interpreter, PlaceholderDefaultsAndPythonScalars) {
  GraphModule gm;
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* k = g.placeholder("k");
  k->set_args({Value::integer(7)});  // def forward(self, x, k=7)
  Node* q = g.call_function("operator.floordiv", {Value::node(k), Value::integer(-2)});
  Node* y = g.call_function("operator.truediv", {Value::node(x), Value::node(q)});
  g.output(Value::tuple({Value::node(q), Value::node(y)}));
  Interpreter interp(gm);
  Object out = interp.run({Object(f32({1}, {8}))});
  EXPECT_EQ(out.items()[0].value(), Value::integer(-4));  // Python floor division
  EXPECT_EQ(out.items()[1].tensor().data<float>()[0], -2.0f);
  Object out2 = interp.run({Object(f32({1}, {8})), Object(Value::integer(4))});
  EXPECT_EQ(out2.items()[0].value(), Value::integer(-2));
}

}  // namespace
}  // namespace fx
