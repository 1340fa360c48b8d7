// tensor/quantized.h: the format's rounding rules (docs/format.md §7), the stored layouts, and the float32
// tensor that makes its values only when read.
#include "tensor/quantized.h"

#include <cmath>

#include <gtest/gtest.h>

#include "kernels/half.h"

namespace fx {
namespace {

Tensor matrix(int64_t N, int64_t K, float (*f)(int64_t, int64_t)) {
  Tensor t = Tensor::empty({N, K}, DType::Float32);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) t.data<float>()[n * K + k] = f(n, k);
  return t;
}

TEST(Quantized, Int8IsSymmetricPerOutputChannel) {
  Tensor w = matrix(3, 5, [](int64_t n, int64_t k) { return n == 2 ? 0.0f : (k - 2.0f) * (n + 1) * 0.1f; });
  auto q = quantize_weight(w, QScheme::Int8);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->data.dtype(), DType::Int8);
  EXPECT_EQ(q->data.shape(), (Shape{3, 5}));
  EXPECT_EQ(q->scale.shape(), (Shape{3}));
  EXPECT_FLOAT_EQ(q->scale.data<float>()[0], 0.2f / 127.0f);
  EXPECT_EQ(q->scale.data<float>()[2], 1.0f);  // an all-zero row
  EXPECT_EQ(q->data.data<int8_t>()[0], -127);  // the row's largest magnitude maps to ±127
  EXPECT_EQ(q->data.data<int8_t>()[4], 127);
  EXPECT_EQ(q->data.data<int8_t>()[1], static_cast<int8_t>(std::nearbyint(-0.1f / (0.2f / 127.0f))));
  Tensor back = quantized_tensor(q);
  for (int64_t i = 0; i < 15; ++i) EXPECT_NEAR(back.data<float>()[i], w.data<float>()[i], 0.6f / 254.0f);
}

TEST(Quantized, Int4PacksQ40Blocks) {
  // K = 40: a full block and a partial one (zero-padded). Block 0 of row 0: value -k/4 at k: the largest
  // magnitude is -7.75 (k = 31), so scale = fp16(-7.75 / -8).
  Tensor w = matrix(2, 40, [](int64_t n, int64_t k) { return n == 0 ? -k / 4.0f : (k == 35 ? 3.0f : 0.0f); });
  auto q = quantize_weight(w, QScheme::Int4);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->data.shape(), (Shape{2, 32}));
  EXPECT_EQ(q->scale.dtype(), DType::Float16);
  EXPECT_EQ(q->scale.shape(), (Shape{2, 2}));
  const float s0 = q->scale_f32.data<float>()[0];
  EXPECT_EQ(s0, half_to_float(float_to_half(7.75f / 8.0f)));
  const uint8_t* d = q->data.data<uint8_t>();
  // element 0 (0.0) → nibble 8 (low of byte 0); element 16 (-4) → round(-4/s0) + 8 (high of byte 0).
  EXPECT_EQ(d[0] & 15, 8);
  EXPECT_EQ(d[0] >> 4, static_cast<int>(std::nearbyint(-4.0f / s0)) + 8);
  EXPECT_EQ(d[15] >> 4, 0);  // element 31, the block's extreme: -8
  // row 1, block 1: only k = 35 (j = 3) is non-zero: scale = 3 / -8, nibble -8 + 8 = 0; padding is 8.
  EXPECT_EQ(q->scale_f32.data<float>()[3], -0.375f);
  EXPECT_EQ(d[32 + 16 + 3] & 15, 0);
  EXPECT_EQ(d[32 + 16 + 15] >> 4, 8);
  EXPECT_EQ(q->scale_f32.data<float>()[2], 1.0f);  // an all-zero block
  Tensor back = quantized_tensor(q);
  EXPECT_EQ(back.data<float>()[40 + 35], 3.0f);
  EXPECT_EQ(back.data<float>()[31], -7.75f);
}

TEST(Quantized, RefusesWhatItCannotHold) {
  Tensor w = matrix(2, 4, [](int64_t, int64_t k) { return k == 1 ? std::nanf("") : 1.0f; });
  EXPECT_FALSE(quantize_weight(w, QScheme::Int8));
  EXPECT_FALSE(quantize_weight(w, QScheme::Int4));
  EXPECT_TRUE(quantize_weight(w, QScheme::Float16));  // NaN stays NaN in float16
  Tensor big = matrix(1, 2, [](int64_t, int64_t k) { return k ? 1e6f : 1.0f; });
  EXPECT_FALSE(quantize_weight(big, QScheme::Float16));  // overflows float16
  EXPECT_FALSE(quantize_weight(big, QScheme::Int4));     // its scale would too
  EXPECT_TRUE(quantize_weight(big, QScheme::Int8));
  EXPECT_FALSE(quantize_weight(Tensor::empty({3}, DType::Float32), QScheme::Int8));  // not 2-D
  EXPECT_FALSE(quantize_weight(Tensor::empty({2, 2}, DType::Float64), QScheme::Int8));
}

TEST(Quantized, ValuesAreMadeOnlyWhenRead) {
  Tensor w = matrix(4, 3, [](int64_t n, int64_t k) { return n * 0.5f - k; });
  Tensor t = quantized_tensor(quantize_weight(w, QScheme::Float16));
  EXPECT_FALSE(t.is_meta());
  ASSERT_NE(quantized_of(t), nullptr);
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.shape(), (Shape{4, 3}));
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(t.data<float>()[i], w.data<float>()[i]);  // exact in fp16
  // A view of part of it is not the quantized weight (kernels must not take it as one).
  Tensor row(t.storage(), DType::Float32, {3}, {1}, 3);
  EXPECT_EQ(quantized_of(row), nullptr);
  EXPECT_EQ(quantized_of(w), nullptr);
  QScheme s;
  EXPECT_TRUE(parse_qscheme("int4", &s));
  EXPECT_EQ(s, QScheme::Int4);
  EXPECT_FALSE(parse_qscheme("int2", &s));
}

}  // namespace
}  // namespace fx
