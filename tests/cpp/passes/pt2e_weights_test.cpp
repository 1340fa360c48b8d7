// pt2e_weights: a Linear weight torchao's convert_pt2e dequantises from int8 becomes one int8-backed tensor
// the int8 kernels read; the values stay those of dequantize_per_channel, and what the int8 kernels cannot
// take (-128, non-zero zero points, axis 1, 4-D) keeps the dequantize op.
#include "passes/pt2e_weights.h"

#include <gtest/gtest.h>

#include "passes_testing.h"
#include "runtime/plan.h"
#include "tensor/quantized.h"

namespace fx {
namespace {

Tensor i8(const std::vector<int8_t>& v, Shape shape) {
  return Tensor::from_bytes(shape, DType::Int8, v.data(), v.size());
}
Tensor i64(const std::vector<int64_t>& v) {
  return Tensor::from_bytes({static_cast<int64_t>(v.size())}, DType::Int64, v.data(), v.size() * 8);
}

// y = linear(x, dequantize_per_channel(w_int8, scales, zero_points, axis, -127, 127, torch.int8), b)
struct QLinear {
  GraphModule gm;
  Node* x;
  Node* dq;
  Node* y;
  QLinear(std::vector<int8_t> w, std::vector<int64_t> zps = {0, 0, 0}, int64_t axis = 0) {
    gm.tensors()["w"] = NamedTensor{TensorKind::Constant, i8(w, {3, 2})};
    gm.tensors()["scales"] = NamedTensor{TensorKind::Constant, testing::f32({0.5f, 0.25f, 2.0f})};
    gm.tensors()["zps"] = NamedTensor{TensorKind::Constant, i64(zps)};
    gm.tensors()["b"] = NamedTensor{TensorKind::Parameter, testing::f32({1, 2, 3})};
    Graph& g = gm.graph();
    Node *wn = g.get_attr("w"), *sn = g.get_attr("scales"), *zn = g.get_attr("zps"), *bn = g.get_attr("b");
    x = g.placeholder("x");
    dq = g.call_function("quantized_decomposed.dequantize_per_channel.default",
                         {Value::node(wn), Value::node(sn), Value::node(zn), Value::integer(axis), Value::integer(-127),
                          Value::integer(127), Value::dtype("int8")});
    y = g.call_function("aten.linear.default", {Value::node(x), Value::node(dq), Value::node(bn)});
    g.output(Value::node(y));
  }
};

TEST(Pt2eWeights, AnInt8LinearWeightBecomesAQuantizedTensor) {
  QLinear m({1, -2, 3, 4, -127, 127});
  EXPECT_TRUE(Pt2eWeights().run(m.gm));
  const Node* w = m.y->args()[1].as_node();
  EXPECT_EQ(w->op(), Op::GetAttr);
  const QuantizedWeight* q = quantized_of(*m.gm.find_tensor(w->target()));
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->scheme, QScheme::Int8);
  EXPECT_EQ(m.gm.graph().find("w"), nullptr);  // the int8 data's get_attr is gone with the dequantize
  EXPECT_FALSE(Pt2eWeights().run(m.gm));
}

TEST(Pt2eWeights, ThePlanGivesTheDequantizedValues) {
  QLinear m({1, -2, 3, 4, -127, 127});
  Plan plan(m.gm);
  EXPECT_EQ(m.y->args()[1].as_node(), m.dq);  // the user's graph keeps the dequantize
  Object out = plan.run({Object(testing::f32({1, 2}, {1, 2}))});
  // w = [[0.5, -1], [0.75, 1], [-254, 254]]; y = x·wᵀ + b
  const std::vector<float> y = testing::values(out);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_NEAR(y[0], 1 + (0.5 - 2), 1e-3);
  EXPECT_NEAR(y[1], 2 + (0.75 + 2), 1e-3);
  EXPECT_NEAR(y[2], 3 + (-254 + 508), 0.1);
}

// What the int8 kernels cannot take becomes the float32 constant the op computes, once.
TEST(Pt2eWeights, DequantizesOnceWhatTheInt8KernelsCannotTake) {
  auto dequantized_once = [](QLinear& m) {
    EXPECT_TRUE(Pt2eWeights().run(m.gm));
    const Node* w = m.y->args()[1].as_node();
    ASSERT_EQ(w->op(), Op::GetAttr);
    EXPECT_EQ(quantized_of(*m.gm.find_tensor(w->target())), nullptr);
  };
  QLinear with_min({1, -2, 3, 4, -128, 127});       // -128
  dequantized_once(with_min);
  QLinear with_zp({1, -2, 3, 4, 5, 6}, {0, 1, 0});  // a non-zero zero point
  dequantized_once(with_zp);
  {
    QLinear m({1, -2, 3, 4, 5, 6}, {0, 0, 0}, 1);  // along axis 1 ([3, 2] has no axis-1 scales for 3): left
    EXPECT_FALSE(Pt2eWeights().run(m.gm));
  }
  // (q - zp) · scale along axis 0.
  QLinear m({1, -2, 3, 4, 5, 6}, {0, 1, 0});
  Plan plan(m.gm);
  const std::vector<float> y = testing::values(plan.run({Object(testing::f32({1, 0}, {1, 2}))}));
  EXPECT_EQ(y, (std::vector<float>{1 + 0.5f, 2 + 0.5f, 3 + 10.0f}));
}

// x = dequantize_per_tensor(q, 0.5, 1, ...) feeds the int8 Linear: fused_linear takes the activation's
// grid, and the result is the exact Σ (q - 1)·0.5 · w + b.
TEST(Pt2eWeights, ADequantizedActivationGivesItsScale) {
  QLinear m({1, -2, 3, 4, -127, 127});
  Graph& g = m.gm.graph();
  Node* dqx;
  {
    auto guard = g.inserting_before(m.y);
    dqx = g.call_function("quantized_decomposed.dequantize_per_tensor.default",
                          {Value::node(m.x), Value::floating(0.5), Value::integer(1), Value::integer(-128),
                           Value::integer(127), Value::dtype("int8")});
  }
  ValueList args = m.y->args();
  args[0] = Value::node(dqx);
  m.y->set_args(args);
  EXPECT_TRUE(Pt2eWeights().run(m.gm));
  EXPECT_EQ(m.y->target(), "fxwasm.fused_linear");
  ASSERT_NE(m.y->kwarg("act_scale"), nullptr);
  EXPECT_EQ(m.y->kwarg("act_scale")->as_float(), 0.5);
  Plan plan(m.gm);
  const Tensor q = Tensor::from_bytes({1, 2}, DType::Int8, std::vector<int8_t>{3, -5}.data(), 2);
  // x = [1, -3]; w = [[0.5, -1], [0.75, 1], [-254, 254]]
  const std::vector<float> y = testing::values(plan.run({Object(q)}));
  EXPECT_EQ(y, (std::vector<float>{1 + 3.5f, 2 - 2.25f, 3 - 1016.0f}));
}

}  // namespace
}  // namespace fx
