// Prepared float32 Linear weights (ops/math/matmul.h PackedLinear): packed below kLinearPackMaxK columns, read
// in place from there on; both against a double-precision reference over row counts on either side of
// the in-place entry's dot-product limit, with and without bias and a fused clamp, and through
// fxwasm.fused_linear with a residual.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ops/call_op.h"
#include "ops/math/matmul.h"
#include "random_tensor.h"

namespace fx {
namespace {

// y[r, n] = clamp(Σ_k x[r, k]·w[n, k] + b[n] + residual[r, n]) in double; w given as [N, K] values.
std::vector<double> reference(const Tensor& x, const std::vector<float>& w, int64_t N, const Tensor* b,
                              const Tensor* residual, float lo, float hi) {
  const int64_t K = x.shape().back(), rows = x.numel() / K;
  std::vector<double> y(static_cast<size_t>(rows * N));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += double(x.data<float>()[r * K + k]) * w[static_cast<size_t>(n * K + k)];
      if (b) s += b->data<float>()[n];
      if (residual) s += residual->data<float>()[r * N + n];
      y[static_cast<size_t>(r * N + n)] = std::min<double>(std::max<double>(s, lo), hi);
    }
  return y;
}

void expect_close(const Tensor& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.numel(), static_cast<int64_t>(want.size())) << what;
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(got.data<float>()[i], want[i], 1e-4 * (1.0 + std::fabs(want[i]))) << what << " at " << i;
}

std::vector<float> values(const Tensor& t) {
  const Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

TEST(LinearSweep, PackedAndInPlaceWeightsMatchTheReference) {
  std::mt19937 rng(11);
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t K : {int64_t{64}, kLinearPackMaxK, int64_t{600}, int64_t{1030}}) {
    for (int64_t N : {1, 7, 33}) {
      Tensor w = random_tensor({N, K}, rng), b = random_tensor({N}, rng);
      for (bool with_bias : {false, true}) {
        const PackedLinear p = PackedLinear::pack(w, with_bias ? &b : nullptr);
        // The in-place form holds no copy of a float32 contiguous weight.
        EXPECT_EQ(p.packed.defined(), K < kLinearPackMaxK);
        EXPECT_FALSE(p.converted.defined());
        for (int64_t rows : {1, 3, 4, 5, 9, 64}) {
          Tensor x = random_tensor({rows, K}, rng);
          for (bool relu : {false, true}) {
            GemmParams gp;
            if (relu) gp.min = 0.0f;
            const std::string what = "K=" + std::to_string(K) + " N=" + std::to_string(N) + " rows=" +
                                     std::to_string(rows) + " bias=" + std::to_string(with_bias) +
                                     " relu=" + std::to_string(relu);
            expect_close(p.run(x, w, gp), reference(x, values(w), N, with_bias ? &b : nullptr, nullptr,
                                                    relu ? 0.0f : -inf, inf), what);
          }
        }
      }
    }
  }
}

TEST(LinearSweep, NonContiguousWeightIsReadFromItsFloat32Copy) {
  std::mt19937 rng(12);
  const int64_t N = 9, K = 700;
  Tensor wt = random_tensor({K, N}, rng);
  // w = wtᵀ as a strided view: [N, K] with strides {1, N}.
  Tensor w(wt.storage(), DType::Float32, Shape{N, K}, Shape{1, N}, 0);
  const PackedLinear p = PackedLinear::pack(w, nullptr);
  ASSERT_TRUE(p.converted.defined());
  Tensor x = random_tensor({2, 3, K}, rng);
  const float inf = std::numeric_limits<float>::infinity();
  Tensor y = p.run(x, w);
  EXPECT_EQ(y.shape(), (Shape{2, 3, N}));
  expect_close(y, reference(x, values(w), N, nullptr, nullptr, -inf, inf), "strided weight");
}

TEST(LinearSweep, InPlaceWeightMustBeTheOnePrepared) {
  std::mt19937 rng(13);
  Tensor w = random_tensor({4, 600}, rng);
  const PackedLinear p = PackedLinear::pack(w, nullptr);
  Tensor x = random_tensor({2, 600}, rng);
  EXPECT_THROW(p.run(x, random_tensor({5, 600}, rng)), FxError);
}

TEST(LinearSweep, FusedLinearWithResidualAndClampInPlace) {
  std::mt19937 rng(14);
  const int64_t N = 19, K = 640;
  Tensor w = random_tensor({N, K}, rng), b = random_tensor({N}, rng);
  for (int64_t rows : {1, 2, 6, 40}) {
    Tensor x = random_tensor({rows, K}, rng), r = random_tensor({rows, N}, rng);
    Object y = call_op("fxwasm.fused_linear", {Object(x), Object(w), Object(b), Object(r)},
                       {{"activation", Object(Value::str("hardtanh"))}});
    expect_close(y.tensor(), reference(x, values(w), N, &b, &r, -1.0f, 1.0f), "rows=" + std::to_string(rows));
  }
}

}  // namespace
}  // namespace fx
