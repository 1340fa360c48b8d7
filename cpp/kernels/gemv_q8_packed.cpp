#include "kernels/gemv_q8_packed.h"

#include <vector>

#include "kernels/f32x4.h"
#include "kernels/gemm_q_common.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx {
namespace {

constexpr size_t kGroup = 4;   // output channels interleaved
constexpr size_t kStep = 16;   // int8 lanes per channel and step

size_t padded_k(size_t K) { return (K + kStep - 1) / kStep * kStep; }
size_t groups_of(size_t N) { return (N + kGroup - 1) / kGroup; }

// sums[0..4) for the group whose packed bytes start at q: x is the int16 row, kp its padded length.
void group_sums(size_t kp, const int16_t* x, const int8_t* q, float* sums) {
#if defined(__wasm_simd128__)
  v128_t tot[kGroup];
  for (size_t c = 0; c < kGroup; ++c) tot[c] = wasm_f32x4_splat(0.0f);
  for (size_t k = 0; k < kp;) {
    const size_t end = std::min(kp, k + qgemm::kActChunk);
    v128_t acc[kGroup];
    for (size_t c = 0; c < kGroup; ++c) acc[c] = wasm_i32x4_splat(0);
    for (; k < end; k += kStep, q += kGroup * kStep) {
      const v128_t x0 = wasm_v128_load(x + k), x1 = wasm_v128_load(x + k + 8);
      for (size_t c = 0; c < kGroup; ++c) {
        const v128_t b = wasm_v128_load(q + c * kStep);
        acc[c] = wasm_i32x4_add(acc[c], wasm_i32x4_dot_i16x8(x0, wasm_i16x8_extend_low_i8x16(b)));
        acc[c] = wasm_i32x4_add(acc[c], wasm_i32x4_dot_i16x8(x1, wasm_i16x8_extend_high_i8x16(b)));
      }
    }
    for (size_t c = 0; c < kGroup; ++c) tot[c] = wasm_f32x4_add(tot[c], wasm_f32x4_convert_i32x4(acc[c]));
  }
  for (size_t c = 0; c < kGroup; ++c) sums[c] = kernels::f32x4::F4{tot[c]}.lane_sum();
#else
  // Portable: int32 sums per chunk (exact, as the lanes are), converted to float at each chunk's end.
  float tot[kGroup] = {};
  for (size_t k = 0; k < kp;) {
    const size_t end = std::min(kp, k + qgemm::kActChunk);
    int64_t acc[kGroup] = {};
    for (; k < end; k += kStep, q += kGroup * kStep)
      for (size_t c = 0; c < kGroup; ++c)
        for (size_t i = 0; i < kStep; ++i) acc[c] += static_cast<int32_t>(x[k + i]) * q[c * kStep + i];
    for (size_t c = 0; c < kGroup; ++c) tot[c] += static_cast<float>(acc[c]);
  }
  for (size_t c = 0; c < kGroup; ++c) sums[c] = tot[c];
#endif
}

}  // namespace

size_t q8_gemv_packed_size(size_t N, size_t K) { return groups_of(N) * kGroup * padded_k(K); }

void q8_pack_gemv(size_t N, size_t K, const int8_t* Q, size_t ldq, int8_t* packed) {
  const size_t kp = padded_k(K);
  for (size_t g = 0; g < groups_of(N); ++g)
    for (size_t k0 = 0; k0 < kp; k0 += kStep)
      for (size_t c = 0; c < kGroup; ++c) {
        const size_t n = g * kGroup + c;
        for (size_t i = 0; i < kStep; ++i)
          *packed++ = n < N && k0 + i < K ? Q[n * ldq + k0 + i] : int8_t{0};
      }
}

bool q8_gemv_packed(size_t N, size_t K, const float* a, const int8_t* packed, const float* scales, float* c,
                    const GemmParams& p) {
  if (N == 0) return true;
  const size_t kp = padded_k(K);
  std::vector<int16_t> x(kp);
  float xs = 0.0f;
  if (!qgemm::quantize_rows_i16(1, K, a, K, kp, x.data(), &xs, p.act_grid)) return false;
  auto run = [&](size_t g0, size_t g1) {
    float sums[kGroup];
    for (size_t g = g0; g < g1; ++g) {
      group_sums(kp, x.data(), packed + g * kGroup * kp, sums);
      for (size_t i = 0; i < kGroup && g * kGroup + i < N; ++i) {
        const size_t n = g * kGroup + i;
        c[n] = qgemm::epilogue(sums[i] * (xs * scales[n]), n, &c[n], p);
      }
    }
  };
  // Blocks of 4 groups: 16 channels, as the row path splits them.
  qgemm::split_channels(groups_of(N), 4, N, double(N) * double(K), double(N) * double(kp), run);
  return true;
}

}  // namespace fx
