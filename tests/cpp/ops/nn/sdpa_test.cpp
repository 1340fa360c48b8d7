// F.scaled_dot_product_attention on the fused float32 kernel: bit-identical on any thread count (heads
// shared out, or one head's queries when there are fewer heads than threads), the output laid out like the
// query (an encoder's [B, L, H, E] projection viewed as heads), and the same values as the composite path
// (float64, which the kernel does not take) to float32 rounding.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/parallel.h"
#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "tensor/tensor.h"

namespace fx {
namespace {

Tensor filled(const Shape& shape, float seed) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.data<float>()[i] = static_cast<float>((i * 37 + 11) % 101) / 50.0f - seed + 0.001f * static_cast<float>(i % 7);
  return t;
}

std::vector<float> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

// [B, L, H, E] viewed as [B, H, L, E] (transpose(1, 2)), as Hugging Face's attention does.
Tensor heads_view(const Tensor& t) {
  const Shape& s = t.shape();
  return Tensor(t.storage(), t.dtype(), {s[0], s[2], s[1], s[3]}, {t.strides()[0], t.strides()[2], t.strides()[1], t.strides()[3]},
                t.offset());
}

Tensor sdpa(const Tensor& q, const Tensor& k, const Tensor& v, std::vector<std::pair<std::string, Object>> kw = {}) {
  return OpRegistry::global()
      .call("torch.nn.functional.scaled_dot_product_attention", {Object(q), Object(k), Object(v)}, std::move(kw))
      .tensor();
}

TEST(Sdpa, TheSameOnAnyThreadCount) {
  if (kernels::max_threads() < 2) GTEST_SKIP() << "a build without threads";
  Tensor qp = filled({1, 128, 12, 32}, 0.5f), kp = filled({1, 128, 12, 32}, 0.3f), vp = filled({1, 128, 12, 32}, 0.1f);
  Tensor mask = Tensor::empty({1, 1, 128, 128}, DType::Bool);
  for (int64_t i = 0; i < mask.numel(); ++i) mask.data<bool>()[i] = (i % 128) < 100;
  Tensor q1 = filled({1, 2, 200, 16}, 0.2f), k1 = filled({1, 2, 200, 16}, 0.4f);  // fewer heads than threads
  Tensor qd = filled({1, 6, 1, 64}, 0.1f), kd = filled({1, 6, 512, 64}, 0.3f), vd = filled({1, 6, 512, 64}, 0.2f);
  std::vector<std::vector<float>> results[3];
  for (int threads : {1, 2, 3}) {
    kernels::set_num_threads(threads);
    auto& r = results[threads - 1];
    r.push_back(values(sdpa(heads_view(qp), heads_view(kp), heads_view(vp), {{"attn_mask", Object(mask)}})));
    r.push_back(values(sdpa(q1, k1, k1, {{"is_causal", Object(Value::boolean(true))}})));
    r.push_back(values(sdpa(qd, kd, vd)));
  }
  kernels::set_num_threads(1);
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST(Sdpa, OutputIsLaidOutLikeTheQuery) {
  Tensor qp = filled({2, 40, 3, 8}, 0.5f), kp = filled({2, 40, 3, 8}, 0.3f), vp = filled({2, 40, 3, 8}, 0.1f);
  Tensor out = sdpa(heads_view(qp), heads_view(kp), heads_view(vp));
  EXPECT_EQ(out.shape(), (Shape{2, 3, 40, 8}));
  EXPECT_EQ(out.strides(), (Shape{40 * 3 * 8, 8, 3 * 8, 1}));
}

TEST(Sdpa, FusedMatchesTheCompositePath) {
  // float64 goes through matmul + softmax; float32 through the fused kernel.
  for (bool causal : {false, true})
    for (int64_t L : {1, 3, 37, 150}) {
      Tensor q = filled({2, 3, L, 24}, 0.5f), k = filled({2, 3, 150, 24}, 0.3f), v = filled({2, 3, 150, 20}, 0.2f);
      Tensor mask = filled({1, 1, L, 150}, 0.7f);
      std::vector<std::pair<std::string, Object>> kw;
      if (causal) kw.push_back({"is_causal", Object(Value::boolean(true))});
      else kw.push_back({"attn_mask", Object(mask)});
      const std::vector<float> f32 = values(sdpa(q, k, v, kw));
      auto kw64 = kw;
      if (!causal) kw64[0].second = Object(to_dtype(mask, DType::Float64));
      Tensor r64 = sdpa(to_dtype(q, DType::Float64), to_dtype(k, DType::Float64), to_dtype(v, DType::Float64), kw64);
      const std::vector<float> f64 = values(to_dtype(r64, DType::Float32));
      ASSERT_EQ(f32.size(), f64.size());
      for (size_t i = 0; i < f32.size(); ++i)
        ASSERT_NEAR(f32[i], f64[i], 2e-5 + 2e-5 * std::fabs(f64[i])) << "L=" << L << " causal=" << causal << " at " << i;
    }
}

}  // namespace
}  // namespace fx
