#include "kernels/gelu_f32.h"

#include <algorithm>
#include <cstring>

#include "kernels/parallel.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx::kernels {
namespace {

// Four lanes; in WebAssembly one v128. Comparisons give all-ones / zero lanes (i4).
typedef float f4 __attribute__((vector_size(16)));
typedef int32_t i4 __attribute__((vector_size(16)));
typedef uint32_t u4 __attribute__((vector_size(16)));
typedef double d2 __attribute__((vector_size(16)));
typedef int64_t l2 __attribute__((vector_size(16)));

inline f4 splat(float v) { return f4{v, v, v, v}; }
inline f4 select(i4 mask, f4 a, f4 b) { return (f4)(((i4)a & mask) | ((i4)b & ~mask)); }
inline f4 abs4(f4 v) { return (f4)((i4)v & 0x7fffffff); }

// e^-(a + c) = m · 2^n for 0 <= a <= ~110 and |c| tiny next to 1 (the low part of an argument carried
// in two floats). m in [√½, √2]: the scaling is left to the caller, so that products which end in the
// subnormals round once, at the end.
struct ExpParts {
  f4 m;
  i4 n;
};
inline ExpParts exp_neg(f4 a, f4 c) {
  const f4 magic = splat(12582912.0f);  // 1.5 · 2^23: adding it rounds to an integer
  const f4 k = a * splat(-1.44269504088896341f) + magic;
  const f4 nf = k - magic;
  // -a = nf·ln2 + r. nf·ln2_hi is exact (ln2_hi has 16 bits, |nf| < 256) and so is -a - nf·ln2_hi.
  f4 r = (splat(0.0f) - a) - nf * splat(0.693145751953125f);
  r = r - nf * splat(1.42860682030941723e-6f) - c;
  // e^r on |r| <= ln2/2: 1 + r + r²·P(r), P fitted (minimax relative error 3.1e-9).
  f4 p = splat(0.0013814540078372294f);
  p = p * r + splat(0.008368745212793271f);
  p = p * r + splat(0.04166839079297619f);
  p = p * r + splat(0.16666520398167456f);
  p = p * r + splat(0.49999993432066697f);
  return {splat(1.0f) + (r + r * r * p), (i4)k - (i4)magic};
}

// 2^n for n in [-254, 0] as two factors, so that v · 2^n may be subnormal (rounded once, at the end).
struct Pow2 {
  f4 s1, s2;
  explicit Pow2(i4 n) {
    const i4 n1 = n >> 1, n2 = n - n1;
    s1 = (f4)(((u4)(n1 + 127)) << 23), s2 = (f4)(((u4)(n2 + 127)) << 23);
  }
  f4 operator()(f4 v) const { return v * s1 * s2; }
};

// float <-> double lanes (lo: lanes 0-1, hi: lanes 2-3): SIMD128's conversions (the compiler scalarises
// __builtin_convertvector's double→float), else lane by lane.
inline void widen(f4 v, d2& lo, d2& hi) {
#if defined(__wasm_simd128__)
  lo = (d2)wasm_f64x2_promote_low_f32x4((v128_t)v);
  hi = (d2)wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle((v128_t)v, (v128_t)v, 2, 3, 0, 1));
#else
  lo = d2{v[0], v[1]}, hi = d2{v[2], v[3]};
#endif
}
inline f4 narrow(d2 lo, d2 hi) {
#if defined(__wasm_simd128__)
  return (f4)wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero((v128_t)lo), wasm_f32x4_demote_f64x2_zero((v128_t)hi),
                                0, 1, 4, 5);
#else
  return f4{static_cast<float>(lo[0]), static_cast<float>(lo[1]), static_cast<float>(hi[0]), static_cast<float>(hi[1])};
#endif
}

constexpr float kInf = __builtin_inff();

// torch's specials: +inf stays, -inf gives nan (-inf · 0).
inline f4 infinities(f4 x, f4 ax, f4 y) {
  return select(ax == splat(kInf), select(x > splat(0.0f), x, splat(__builtin_nanf(""))), y);
}

// F(a) = erfcx(a/√2) ≈ Q(t), t = 1/(1 + 0.3125a): Q of degree 10 fitted for this kernel (relative error
// 6.2e-9 on a in [0, 14.5]), evaluated in float: t's rounding and Horner's cost a few ulp (the kernel's
// bound is tests/cpp/kernels/gelu_f32_test.cpp's), half the time of the same in double lanes.
inline f4 erfcx_q(f4 a) {
  const f4 t = splat(1.0f) / (splat(1.0f) + splat(0.3125f) * a);
  f4 q = t * splat(-0.0302059315f) + splat(0.137871698f);
  q = q * t + splat(-0.189315185f);
  q = q * t + splat(-0.0140729146f);
  q = q * t + splat(0.143722862f);
  q = q * t + splat(0.0210000221f);
  q = q * t + splat(0.216642559f);
  q = q * t + splat(0.214041635f);
  q = q * t + splat(0.251133919f);
  q = q * t + splat(0.249174923f);
  q = q * t + splat(6.40905e-06f);
  return q;
}

// gelu(x) = x·Φ(x); with a = |x|, ½·erfc(a/√2) = e^(-a²/2)·F(a)/2, F(a) = erfcx(a/√2) ≈ Q(1/(1 + 0.3125a)).
// x < 0: x·½erfc. x >= 0: x - x·½erfc. Beyond |x| = 14.5 the negative side is below the smallest
// subnormal (-0) and the positive side is x.
constexpr float kErfCut = 14.5f;
// Below this |x| (every lane of a vector: the usual activations) e^(-x²/2) and the result stay normal, so
// 2^n scales in one exact multiply and no lane is big or infinite: gelu_erf4_small skips those steps and
// gives the same bits.
constexpr float kErfSmall = 9.0f;
inline f4 gelu_erf4_small(f4 x, f4 a) {
  const f4 ah = (f4)((i4)a & static_cast<int32_t>(0xfffff000u));
  const f4 al = a - ah;
  const f4 h = a * a;
  const f4 l = ((ah * ah - h) + splat(2.0f) * ah * al) + al * al;
  const ExpParts e = exp_neg(splat(0.5f) * h, splat(0.5f) * l);
  const f4 q = erfcx_q(a);
  const f4 half_erfc = splat(0.5f) * q * e.m;
  const f4 s = (f4)(((u4)(e.n + 127)) << 23);  // 2^n, n ≥ −59: normal, the products exact
  const i4 neg = x < splat(0.0f);
  f4 y = select(neg, (x * half_erfc) * s, x - x * (half_erfc * s));
  return (f4)((i4)y | ((i4)x & static_cast<int32_t>(0x80000000u)));
}
inline f4 gelu_erf4(f4 x) {
  const f4 ax = abs4(x);
  const i4 small = ax <= splat(kErfSmall);  // false for NaN
#if defined(__wasm_simd128__)
  if (wasm_i32x4_all_true((v128_t)small)) return gelu_erf4_small(x, ax);
#else
  if ((small[0] & small[1] & small[2] & small[3]) != 0) return gelu_erf4_small(x, ax);
#endif
  const i4 big = ax > splat(kErfCut);
  const f4 a = select(big, splat(kErfCut), ax);
  // a² = h + l exactly (Dekker: a split in two 12-bit halves).
  const f4 ah = (f4)((i4)a & static_cast<int32_t>(0xfffff000u));
  const f4 al = a - ah;
  const f4 h = a * a;
  const f4 l = ((ah * ah - h) + splat(2.0f) * ah * al) + al * al;
  const ExpParts e = exp_neg(splat(0.5f) * h, splat(0.5f) * l);
  const f4 q = erfcx_q(a);
  const f4 half_erfc = splat(0.5f) * q * e.m;  // · 2^n
  const i4 neg = x < splat(0.0f);
  const Pow2 scale(e.n);
  f4 y = select(neg, scale(x * half_erfc), x - x * scale(half_erfc));
  y = (f4)((i4)y | ((i4)x & static_cast<int32_t>(0x80000000u)));  // x's sign: -0 - (-0) would give +0
  y = select(neg & big, splat(-0.0f), y);
  return infinities(x, ax, y);
}

// x · sigmoid(w) where |w| = wa + wc (wc the low part) and w has x's sign: with e = e^-|w|,
// x >= 0: x / (1 + e); x < 0: x·e / (1 + e). Beyond |w| = 110 the negative side is -0.
constexpr float kSigmoidCut = 110.0f;
inline f4 times_sigmoid4(f4 x, f4 ax, f4 wa, f4 wc) {
  const i4 big = wa > splat(kSigmoidCut);
  const ExpParts e = exp_neg(select(big, splat(kSigmoidCut), wa), select(big, splat(0.0f), wc));
  const Pow2 scale(e.n);
  const f4 d = splat(1.0f) + scale(e.m);
  const i4 neg = x < splat(0.0f);
  f4 y = select(neg, scale(x * e.m / d), x / d);
  y = select(neg & big, splat(-0.0f), y);
  return infinities(x, ax, y);
}

// gelu_tanh(x) = x · sigmoid(w), w = 2√(2/π)(x + 0.044715x³), w computed in double and split in two floats.
inline f4 gelu_tanh4(f4 x) {
  const f4 ax = abs4(x);
  d2 lo, hi;
  widen(ax, lo, hi);
  lo = lo * (1.5957691216057308 + 0.071354816272655239 * (lo * lo));
  hi = hi * (1.5957691216057308 + 0.071354816272655239 * (hi * hi));
  // Split w = wa + wc: wa keeps float32's 24 bits (exact as a float), wc the rest.
  const d2 lo_a = (d2)((l2)lo & static_cast<int64_t>(0xffffffffe0000000ull));
  const d2 hi_a = (d2)((l2)hi & static_cast<int64_t>(0xffffffffe0000000ull));
  const f4 wa = narrow(lo_a, hi_a), wc = narrow(lo - lo_a, hi - hi_a);
  return times_sigmoid4(x, ax, wa, wc);
}

inline f4 silu4(f4 x) {
  const f4 ax = abs4(x);
  return times_sigmoid4(x, ax, ax, splat(0.0f));
}

// f over [0, n) four at a time; the last 1..3 elements zero-padded through the same code.
template <class F>
void map4(int64_t n, const float* x, float* y, F f) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    f4 v;
    std::memcpy(&v, x + i, sizeof v);
    v = f(v);
    std::memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    f4 v = splat(0.0f);
    const size_t bytes = static_cast<size_t>(n - i) * sizeof(float);
    std::memcpy(&v, x + i, bytes);
    v = f(v);
    std::memcpy(y + i, &v, bytes);
  }
}

// Blocks of kBlock elements over the kernel threads when the array is large enough to pay for them.
template <class F>
void run(int64_t n, const float* x, float* y, F f) {
  constexpr int64_t kBlock = 1 << 14;
  if (n < 2 * kBlock || num_threads() < 2 || !worth_parallel(40.0 * static_cast<double>(n)))
    return map4(n, x, y, f);
  parallel_blocks(n, kBlock, [&](int64_t i0, int64_t i1) { map4(i1 - i0, x + i0, y + i0, f); });
}

}  // namespace

void gelu_f32(GeluF32 form, int64_t n, const float* x, float* y) {
  if (form == GeluF32::Tanh) return run(n, x, y, gelu_tanh4);
  run(n, x, y, gelu_erf4);
}

void silu_f32(int64_t n, const float* x, float* y) { run(n, x, y, silu4); }

}  // namespace fx::kernels
