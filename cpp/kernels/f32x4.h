// Four float32 lanes (F4) and the exp polynomial of the float32 row kernels, shared by softmax / layer norm
// (kernels/norm_f32.cpp) and fused attention (kernels/attention_f32.cpp). Internal to cpp/kernels/.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace fx::kernels::f32x4 {

// Four float32 lanes: wasm SIMD128 when the build has it, else a plain array computing the same
// operations lane by lane (native builds and tests get the same numbers as the wasm build).
#ifdef __wasm_simd128__
struct F4 {
  v128_t v;
  static F4 load(const float* p) { return {wasm_v128_load(p)}; }
  static F4 splat(float x) { return {wasm_f32x4_splat(x)}; }
  void store(float* p) const { wasm_v128_store(p, v); }
  friend F4 operator+(F4 a, F4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
  friend F4 operator-(F4 a, F4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
  friend F4 operator*(F4 a, F4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
  // NaN in either lane gives NaN (wasm's f32x4.max), as torch's max does.
  static F4 max(F4 a, F4 b) { return {wasm_f32x4_max(a.v, b.v)}; }
  float lane_sum() const {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
  }
  float lane_max() const {
    const v128_t m = wasm_f32x4_max(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
    return wasm_f32x4_extract_lane(wasm_f32x4_max(m, wasm_i32x4_shuffle(m, m, 1, 0, 3, 2)), 0);
  }
};
#else
struct F4 {
  float v[4];
  static F4 load(const float* p) {
    F4 r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static F4 splat(float x) { return {{x, x, x, x}}; }
  void store(float* p) const { std::memcpy(p, v, sizeof v); }
  template <class Op>
  static F4 zip(F4 a, F4 b, Op op) {
    return {{op(a.v[0], b.v[0]), op(a.v[1], b.v[1]), op(a.v[2], b.v[2]), op(a.v[3], b.v[3])}};
  }
  friend F4 operator+(F4 a, F4 b) { return zip(a, b, [](float p, float q) { return p + q; }); }
  friend F4 operator-(F4 a, F4 b) { return zip(a, b, [](float p, float q) { return p - q; }); }
  friend F4 operator*(F4 a, F4 b) { return zip(a, b, [](float p, float q) { return p * q; }); }
  static F4 max(F4 a, F4 b) {
    return zip(a, b, [](float p, float q) { return std::isnan(p) || std::isnan(q) ? std::numeric_limits<float>::quiet_NaN() : p > q ? p : q; });
  }
  float lane_sum() const { return (v[0] + v[1]) + (v[2] + v[3]); }
  float lane_max() const {
    float m = v[0];
    for (int i = 1; i < 4; ++i) m = max(splat(m), splat(v[i])).v[0];
    return m;
  }
};
#endif

// exp by range reduction: x = k·ln2 + r, |r| ≤ ln2/2 (ln2 split in two so k·ln2_hi is exact), e^r by its
// Taylor series to degree 7 (truncation < 6e-9, below half a float32 ulp), times 2^k built in the exponent
// bits. Below -87.33 (float32's normal range) the result is 0; above 88.3 it is inf; NaN stays NaN.
inline constexpr float kLog2e = 1.44269504088896341f, kLn2Hi = 0.693145751953125f, kLn2Lo = 1.42860682030941723212e-6f;
inline constexpr float kExpMin = -87.33654f, kExpMax = 88.3f;
inline constexpr float kC[8] = {1.0f, 1.0f, 1.0f / 2, 1.0f / 6, 1.0f / 24, 1.0f / 120, 1.0f / 720, 1.0f / 5040};

inline float exp_scalar(float x) {
  if (std::isnan(x)) return x;
  if (x < kExpMin) return 0.0f;
  if (x > kExpMax) return std::numeric_limits<float>::infinity();
  const float k = std::nearbyint(x * kLog2e);
  const float r = (x - k * kLn2Hi) - k * kLn2Lo;
  float p = kC[7];
  for (int i = 6; i >= 0; --i) p = p * r + kC[i];
  const int32_t bits = (static_cast<int32_t>(k) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

#ifdef __wasm_simd128__
// The same on four lanes, for x ≤ 88.3 or NaN (softmax's x − max).
inline F4 exp4(F4 x) {
  const v128_t under = wasm_f32x4_lt(x.v, wasm_f32x4_splat(kExpMin));  // false for NaN
  // pmax / pmin: one instruction each on x64 where f32x4.max / min are NaN-fixing sequences; NaN passes
  // through them too (x < lo and hi < x are false), so the lanes are those of max / min.
  const v128_t xc = wasm_f32x4_pmin(wasm_f32x4_pmax(x.v, wasm_f32x4_splat(kExpMin)), wasm_f32x4_splat(kExpMax));
  // k = nearbyint(xc·log2e) by adding 1.5·2^23 (|xc·log2e| < 2^22: the sum's rounding is to the nearest
  // integer, ties to even, as nearest's), and its int32 value from the sum's bits: two instructions where
  // f32x4.nearest + i32x4.trunc_sat_f32x4 take about eight on x64. Same lanes bit for bit (NaN: NaN).
  const v128_t magic = wasm_f32x4_splat(12582912.0f);
  const v128_t t = wasm_f32x4_add(wasm_f32x4_mul(xc, wasm_f32x4_splat(kLog2e)), magic);
  const v128_t k = wasm_f32x4_sub(t, magic);
  const v128_t r = wasm_f32x4_sub(wasm_f32x4_sub(xc, wasm_f32x4_mul(k, wasm_f32x4_splat(kLn2Hi))),
                                  wasm_f32x4_mul(k, wasm_f32x4_splat(kLn2Lo)));
  v128_t p = wasm_f32x4_splat(kC[7]);
  for (int i = 6; i >= 0; --i) p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kC[i]));
  const v128_t scale = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(t, magic), wasm_i32x4_splat(127)), 23);
  return {wasm_v128_andnot(wasm_f32x4_mul(p, scale), under)};
}
#else
inline F4 exp4(F4 x) { return {{exp_scalar(x.v[0]), exp_scalar(x.v[1]), exp_scalar(x.v[2]), exp_scalar(x.v[3])}}; }
#endif

}  // namespace fx::kernels::f32x4
