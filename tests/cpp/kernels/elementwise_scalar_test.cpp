#include "kernels/elementwise_scalar.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xoperation.hpp>

#include "kernels/convert.h"
#include "kernels/reduce_scalar.h"

namespace fx::kernels {
namespace {

// The references are xtensor expressions over the same buffers (its adaptors, transpose and
// broadcasting): they share nothing with the kernel's row walk.

// Sweeps shapes (including 0, 1 and odd sizes, so every merge/tail path runs) with a transposed, a
// broadcast and a packed operand.
TEST(ElementwiseScalar, BinaryStridedMatchesIndexing) {
  for (int64_t m : {0, 1, 2, 7}) {
    for (int64_t n : {1, 3, 16, 17}) {
      std::vector<int64_t> shape = {2, m, n};
      std::vector<float> a(2 * m * n), b(n);
      for (size_t i = 0; i < a.size(); ++i) a[i] = 0.5f * i;
      for (size_t i = 0; i < b.size(); ++i) b[i] = 100.0f + i;
      // a read through a transposed view of a [2, n, m] buffer; b broadcast from [n].
      std::vector<int64_t> as = {m * n, 1, m}, bs = {0, 0, 1};
      std::vector<float> y(2 * m * n, -1);
      binary_strided(3, shape.data(), a.data(), as.data(), b.data(), bs.data(), y.data(),
                     [](float x, float z) { return x - z; });
      // a as a [2, n, m] array with its last two dims swapped; b as [n], broadcast by xtensor.
      const auto at = xt::transpose(xt::adapt(a, std::vector<size_t>{2, size_t(n), size_t(m)}), {0, 2, 1});
      const xt::xarray<float> want = at - xt::adapt(b, std::vector<size_t>{size_t(n)});
      ASSERT_EQ(want.size(), y.size());
      for (int64_t i = 0; i < 2 * m * n; ++i) ASSERT_EQ(y[i], want.data()[i]) << m << "x" << n << " @" << i;
    }
  }
}

TEST(ElementwiseScalar, ScalarOperandAndZeroDim) {
  std::vector<int64_t> shape = {5};
  int32_t a[5] = {1, -2, 3, -4, 5}, b = 10;
  int64_t as = 1, bs = 0;
  int32_t y[5];
  binary_strided(1, shape.data(), a, &as, &b, &bs, y, [](int32_t x, int32_t z) { return x * z; });
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y[i], a[i] * 10);
  double s = -3.5, out = 0;
  unary_strided<double, double>(0, nullptr, &s, nullptr, &out, [](double v) { return std::fabs(v); });
  EXPECT_EQ(out, 3.5);
}

TEST(ElementwiseScalar, UnaryStridedTransposed) {
  std::vector<int64_t> shape = {3, 4}, st = {1, 3};
  std::vector<int64_t> x(12);
  for (int i = 0; i < 12; ++i) x[i] = i;
  bool y[12];
  unary_strided(2, shape.data(), x.data(), st.data(), y, [](int64_t v) { return v % 2 == 0; });
  const xt::xarray<bool> want = xt::equal(xt::transpose(xt::adapt(x, std::vector<size_t>{4, 3})) % 2, 0);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(y[i], want.data()[i]);
}

TEST(ReduceScalar, SumOuterReduceInner) {
  // x: [2, 3, 4] = arange; reduce the middle dim.
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[i] = static_cast<float>(i);
  std::vector<float> y(8);
  sum_scalar<float, double, float>(x.data(), y.data(), 2, 3, 4);
  for (int o = 0; o < 2; ++o)
    for (int i = 0; i < 4; ++i) EXPECT_EQ(y[o * 4 + i], 3.0f * (12 * o + i) + 12.0f);
  float all = 0;
  sum_scalar<float, double, float>(x.data(), &all, 1, 24, 1);
  EXPECT_EQ(all, 276.0f);
  int64_t empty_sum = 7;
  sum_scalar<int32_t, uint64_t, int64_t>(nullptr, &empty_sum, 1, 0, 1);
  EXPECT_EQ(empty_sum, 0);
  int8_t neg[3] = {-1, -2, -3};
  int64_t s = 0;
  sum_scalar<int8_t, uint64_t, int64_t>(neg, &s, 1, 3, 1);
  EXPECT_EQ(s, -6);
}

TEST(Convert, TorchSemantics) {
  EXPECT_EQ((convert_value<int32_t>(-2.7f)), -2);
  EXPECT_EQ((convert_value<bool>(0.1)), true);
  EXPECT_EQ((convert_value<bool>(int8_t(0))), false);
  EXPECT_EQ((convert_value<float>(true)), 1.0f);
  EXPECT_EQ(convert_value<int64_t>(std::nan("")), INT64_MIN);
  // float16: exact values, rounding to nearest even, overflow, subnormals.
  EXPECT_EQ(half_to_float(convert_value<Half>(1.5f)), 1.5f);
  EXPECT_EQ(half_to_float(convert_value<Half>(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(half_to_float(convert_value<Half>(70000.0f))));
  EXPECT_EQ(half_to_float(convert_value<Half>(1.0f + 1.0f / 4096)), 1.0f);  // ties to even
  EXPECT_EQ(half_to_float(convert_value<Half>(5.9604644775390625e-08f)), 5.9604644775390625e-08f);
  EXPECT_EQ(float_to_half(-2.0f).bits, 0xc000);
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(NAN))));
  EXPECT_EQ(bf16_to_float(float_to_bf16(3.140625f)), 3.140625f);
  EXPECT_EQ(float_to_bf16(1.00390625f).bits, 0x3f80);  // halfway: rounds to even
}

}  // namespace
}  // namespace fx::kernels
