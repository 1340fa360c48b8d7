#include "kernels/elementwise_f32.h"

#include <algorithm>
#include <cmath>

#include "kernels/parallel.h"

namespace fx::kernels {
namespace {

// Three loops per op: the layouts are decided once, outside the loop, so each loop vectorises.
template <typename F>
void map2(int64_t n, const float* a, bool a_single, const float* b, bool b_single, float* y, F f) {
  float* __restrict out = y;
  if (a_single && b_single) {
    const float r = f(*a, *b);
    for (int64_t i = 0; i < n; ++i) out[i] = r;
  } else if (b_single) {
    const float bv = *b;
    const float* __restrict ap = a;
    for (int64_t i = 0; i < n; ++i) out[i] = f(ap[i], bv);
  } else if (a_single) {
    const float av = *a;
    const float* __restrict bp = b;
    for (int64_t i = 0; i < n; ++i) out[i] = f(av, bp[i]);
  } else {
    const float* __restrict ap = a;
    const float* __restrict bp = b;
    for (int64_t i = 0; i < n; ++i) out[i] = f(ap[i], bp[i]);
  }
}

template <typename F>
void map1(int64_t n, const float* x, float* y, F f) {
  const float* __restrict xp = x;
  float* __restrict out = y;
  for (int64_t i = 0; i < n; ++i) out[i] = f(xp[i]);
}

// fn(i0, i1) over [0, n): in blocks shared by the threads for large arrays, else in one call.
template <typename F>
void in_blocks(int64_t n, const F& fn) {
  constexpr int64_t kBlock = 1 << 16;
  if (n < 4 * kBlock || num_threads() < 2) return fn(int64_t{0}, n);
  parallel_blocks(n, kBlock, fn);
}

}  // namespace

void binary_f32(BinaryF32 op, int64_t n, const float* a, bool a_single, const float* b, bool b_single, float* y) {
  in_blocks(n, [&](int64_t i0, int64_t i1) {
    const int64_t m = i1 - i0;
    const float* pa = a_single ? a : a + i0;
    const float* pb = b_single ? b : b + i0;
    float* py = y + i0;
    switch (op) {
      case BinaryF32::Add: return map2(m, pa, a_single, pb, b_single, py, [](float p, float q) { return p + q; });
      case BinaryF32::Sub: return map2(m, pa, a_single, pb, b_single, py, [](float p, float q) { return p - q; });
      case BinaryF32::Mul: return map2(m, pa, a_single, pb, b_single, py, [](float p, float q) { return p * q; });
      case BinaryF32::Div: return map2(m, pa, a_single, pb, b_single, py, [](float p, float q) { return p / q; });
    }
  });
}

void unary_f32(UnaryF32 op, int64_t n, const float* x, float* y) {
  in_blocks(n, [&](int64_t i0, int64_t i1) {
    const int64_t m = i1 - i0;
    switch (op) {
      case UnaryF32::Abs: return map1(m, x + i0, y + i0, [](float v) { return std::fabs(v); });
      case UnaryF32::Neg: return map1(m, x + i0, y + i0, [](float v) { return -v; });
      case UnaryF32::Relu: return map1(m, x + i0, y + i0, [](float v) { return v > 0.0f ? v : (v != v ? v : 0.0f); });
    }
  });
}

void masked_fill_f32(int64_t blocks, int64_t m, const float* x, const bool* mask, float value, float* y) {
  for (int64_t b = 0; b < blocks; ++b) {
    const float* __restrict xb = x + b * m;
    float* __restrict yb = y + b * m;
    for (int64_t i = 0; i < m; ++i) yb[i] = mask[i] ? value : xb[i];
  }
}

}  // namespace fx::kernels
