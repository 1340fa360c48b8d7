// tensor/layout.h against the strides torch 2.15 gives the same element-wise ops (printed by the reference
// torch: x = torch.randn(2, 3, 4).permute(2, 0, 1), s = torch.randn(4, 6)[:, ::2]).
#include "tensor/layout.h"

#include <gtest/gtest.h>

#include "ops/registry.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

using Order = std::vector<int64_t>;

Tensor zeros(const Shape& s) { return Tensor::zeros(s, DType::Float32); }
Tensor permute(const Tensor& t, const Order& p) {
  return Tensor(t.storage(), t.dtype(), permuted(t.shape(), p), permuted(t.strides(), p), t.offset());
}
Tensor run(const std::string& target, std::vector<Object> args) {
  return OpRegistry::global().call(target, std::move(args)).tensor();
}

TEST(ElementwiseLayout, RowMajorOperandsGiveNoOrder) {
  const Shape shape{4, 2, 3}, c = contiguous_strides(shape), bias{0, 0, 1};
  EXPECT_EQ(elementwise_order(shape, {&c}), Order{});
  EXPECT_EQ(elementwise_order(shape, {&c, &bias}), Order{});
  EXPECT_EQ(elementwise_order({5}, {&c}), Order{});
}

TEST(ElementwiseLayout, ThePermutedFirstOperandDecides) {
  const Tensor x = permute(zeros({2, 3, 4}), {2, 0, 1});  // shape [4, 2, 3], strides (1, 12, 4)
  const Shape c = contiguous_strides(x.shape());
  EXPECT_EQ(elementwise_order(x.shape(), {&x.strides()}), (Order{1, 2, 0}));
  EXPECT_EQ(elementwise_order(x.shape(), {&x.strides(), &c}), (Order{1, 2, 0}));
  EXPECT_EQ(elementwise_order(x.shape(), {&c, &x.strides()}), Order{});
}

TEST(ElementwiseLayout, OpsGiveTorchsStrides) {
  const Tensor x = permute(zeros({2, 3, 4}), {2, 0, 1});
  EXPECT_EQ(run("operator.add", {Object(x), Object(Value::floating(1.0))}).strides(), (Shape{1, 12, 4}));      // x + 1
  EXPECT_EQ(run("torch.neg", {Object(x)}).strides(), (Shape{1, 12, 4}));                      // torch.neg(x)
  EXPECT_EQ(run("operator.mul", {Object(x), Object(zeros({4, 1, 1}))}).strides(), (Shape{1, 12, 4}));
  EXPECT_EQ(run("operator.add", {Object(zeros({4, 2, 3})), Object(x)}).strides(), (Shape{6, 3, 1}));
  EXPECT_EQ(run("operator.add", {Object(x), Object(zeros({4, 2, 3}))}).strides(), (Shape{1, 12, 4}));
  // a strided slice: dense again, row-major (torch: (3, 1))
  const Tensor full = zeros({4, 6});
  const Tensor s(full.storage(), DType::Float32, {4, 3}, {6, 2}, 0);
  EXPECT_EQ(run("operator.add", {Object(s), Object(Value::floating(1.0))}).strides(), (Shape{3, 1}));
  EXPECT_EQ(run("torch.neg", {Object(s)}).strides(), (Shape{3, 1}));
}

TEST(ElementwiseLayout, ValuesFollowTheLayout) {
  Tensor base = Tensor::empty({2, 3}, DType::Float32);
  for (int i = 0; i < 6; ++i) base.data<float>()[i] = static_cast<float>(i);
  const Tensor t = permute(base, {1, 0});  // base.T: t[i][j] = base[j][i] = 3j + i
  const Tensor y = run("torch.neg", {Object(t)});
  ASSERT_EQ(y.shape(), (Shape{3, 2}));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(y.data<float>()[i * y.strides()[0] + j * y.strides()[1]], -static_cast<float>(3 * j + i));
}

}  // namespace
}  // namespace fx
