#include <gtest/gtest.h>

#include "nn/registry.h"
#include "exec/interpreter.h"
#include "support/error.h"

namespace fx {
namespace {

// A test-only leaf module: y = x * weight * k, weight a parameter, k a hyperparameter.
BoundModule bind_scale(const ModuleBinding& b) {
  const Tensor* w = b.tensor("weight");
  if (!w) throw FxError("missing parameter 'weight'");
  const Value* k = b.hparam("k");
  Tensor weight = *w;
  int64_t kv = k ? k->as_int() : 1;
  return [weight, kv](const OpCall& call) {
    const OpRegistry& r = OpRegistry::global();
    Object y = r.call("operator.mul", {call.args.at(0), Object(weight)});
    return r.call("operator.mul", {y, Object(Value::integer(kv))});
  };
}
const ModuleRegistrar reg_scale{{"fxwasm.test.Scale"}, bind_scale};

Tensor f32(const Shape& shape, std::vector<float> v) {
  return Tensor::from_bytes(shape, DType::Float32, v.data(), v.size() * sizeof(float));
}

TEST(CallModule, RunsARegisteredModuleBoundAtConstruction) {
  GraphModule gm;
  gm.modules()["block.scale"] = ModuleInfo{"fxwasm.test.Scale", {{"k", Value::integer(3)}}};
  gm.tensors()["block.scale.weight"] = NamedTensor{TensorKind::Parameter, f32({2}, {1, 10})};
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* m = g.call_module("block.scale", {Value::node(x)});
  g.output(Value::node(m));
  EXPECT_TRUE(find_unsupported(gm).empty());
  Interpreter interp(gm);
  Object y = interp.run({Object(f32({2}, {2, 5}))});
  EXPECT_EQ(y.tensor().data<float>()[0], 6.0f);
  EXPECT_EQ(y.tensor().data<float>()[1], 150.0f);
  // Errors inside the module name its node.
  try {
    interp.run({Object(f32({3}, {1, 2, 3}))});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), m->name());
    EXPECT_EQ(e.bare_message().rfind("call_module block.scale: ", 0), 0u) << e.bare_message();
  }
}

TEST(CallModule, BindingFailureAndMissingModuleNameTheNode) {
  GraphModule gm;
  gm.modules()["s"] = ModuleInfo{"fxwasm.test.Scale", {}};
  Node* x = gm.graph().placeholder("x");
  Node* m = gm.graph().call_module("s", {Value::node(x)});
  gm.graph().output(Value::node(m));
  try {
    Interpreter interp(gm);
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "s");
    EXPECT_NE(e.bare_message().find("missing parameter 'weight'"), std::string::npos);
  }
  GraphModule gm2;
  Node* x2 = gm2.graph().placeholder("x");
  gm2.graph().output(Value::node(gm2.graph().call_module("nowhere", {Value::node(x2)})));
  auto u = find_unsupported(gm2);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].target, "<missing module nowhere>");
  EXPECT_THROW(Interpreter{gm2}, FxError);
}

}  // namespace
}  // namespace fx
