#include "kernels/elementwise_f32.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/parallel.h"

namespace fx::kernels {
namespace {

bool same_bits(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

float apply(BinaryF32 op, float p, float q) {
  switch (op) {
    case BinaryF32::Add: return p + q;
    case BinaryF32::Sub: return p - q;
    case BinaryF32::Mul: return p * q;
    default: return p / q;
  }
}

std::vector<float> values(int64_t n, float seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = std::sin(seed + 0.37f * static_cast<float>(i)) * 3.0f;
  if (n > 3) {
    v[1] = 0.0f;
    v[2] = -0.0f;
    v[3] = std::numeric_limits<float>::quiet_NaN();
  }
  return v;
}

// Every op, every layout (both packed, either one a single value), sizes around the vector width and
// one large enough to split over threads: bit-equal to the plain float arithmetic.
TEST(ElementwiseF32, BinaryMatchesScalarArithmetic) {
  const int saved = num_threads();
  set_num_threads(max_threads() > 1 ? 2 : 1);
  for (int64_t n : {0, 1, 3, 4, 5, 17, 300001}) {
    std::vector<float> a = values(n, 0.5f), b = values(n, 1.5f), y(static_cast<size_t>(n));
    const float one = -1.25f;
    for (BinaryF32 op : {BinaryF32::Add, BinaryF32::Sub, BinaryF32::Mul, BinaryF32::Div}) {
      for (int layout = 0; layout < 3; ++layout) {
        const bool a1 = layout == 1, b1 = layout == 2;
        binary_f32(op, n, a1 ? &one : a.data(), a1, b1 ? &one : b.data(), b1, y.data());
        for (int64_t i = 0; i < n; ++i) {
          const float want = apply(op, a1 ? one : a[i], b1 ? one : b[i]);
          ASSERT_TRUE(same_bits(y[i], want) || (std::isnan(y[i]) && std::isnan(want)))
              << "op " << static_cast<int>(op) << " layout " << layout << " n " << n << " i " << i;
        }
      }
    }
  }
  set_num_threads(saved);
}

TEST(ElementwiseF32, UnaryAbsNegRelu) {
  const int64_t n = 300001;
  std::vector<float> x = values(n, 0.25f), y(static_cast<size_t>(n));
  unary_f32(UnaryF32::Abs, n, x.data(), y.data());
  for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(same_bits(y[i], std::fabs(x[i])) || std::isnan(x[i])) << i;
  unary_f32(UnaryF32::Neg, n, x.data(), y.data());
  EXPECT_TRUE(same_bits(y[1], -0.0f));  // torch: neg(0.0) is -0.0
  for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(same_bits(y[i], -x[i]) || std::isnan(x[i])) << i;
  unary_f32(UnaryF32::Relu, n, x.data(), y.data());
  EXPECT_TRUE(std::isnan(y[3]));  // nan passes through relu
  for (int64_t i = 4; i < n; ++i) ASSERT_EQ(y[i], x[i] > 0 ? x[i] : 0.0f) << i;
}

}  // namespace
}  // namespace fx::kernels

namespace fx::kernels {
namespace {

// masked_fill_f32: each block of m values takes the value where the (repeating) mask is set; every
// length around the vector width, 0 to 3 blocks.
TEST(ElementwiseF32, MaskedFillRepeatsTheMaskOverBlocks) {
  for (int64_t m = 0; m <= 19; ++m)
    for (int64_t blocks = 0; blocks <= 3; ++blocks) {
      std::vector<float> x = values(blocks * m, 0.5f), y(x.size(), 7.0f);
      std::vector<char> mask(static_cast<size_t>(m) + 1);
      for (int64_t i = 0; i < m; ++i) mask[i] = (i * 7 + m) % 3 == 0;
      masked_fill_f32(blocks, m, x.data(), reinterpret_cast<const bool*>(mask.data()),
                      -std::numeric_limits<float>::infinity(), y.data());
      for (int64_t b = 0; b < blocks; ++b)
        for (int64_t i = 0; i < m; ++i) {
          const float want = mask[i] ? -std::numeric_limits<float>::infinity() : x[b * m + i];
          EXPECT_TRUE(same_bits(y[b * m + i], want)) << "m=" << m << " b=" << b << " i=" << i;
        }
    }
}

}  // namespace
}  // namespace fx::kernels
