// Strided copies: dst[i] = src[i] over one shape where both sides have their own element strides (0 on
// broadcast source dims). The building block of in-place writes through views, cat/stack into slices
// of the output, flip (negative strides) and the gathers of advanced indexing. W is an element-sized
// word (uint8_t..uint64_t): a copy does not care what the bits mean.
#pragma once
#include <cstdint>

#include "kernels/strided.h"

namespace fx::kernels {

template <typename W>
void copy_strided(int ndim, const int64_t* shape, const W* src, const int64_t* src_strides, W* dst,
                  const int64_t* dst_strides) {
  StridedLayout<2> L(ndim, shape, {src_strides, dst_strides});
  for_each_row(L, [&](const std::array<int64_t, 2>& off, int64_t n, const std::array<int64_t, 2>& st) {
    const W* sp = src + off[0];
    W* dp = dst + off[1];
    if (st[0] == 1 && st[1] == 1) {
      for (int64_t i = 0; i < n; ++i) dp[i] = sp[i];
    } else if (st[0] == 0) {
      const W v = *sp;
      for (int64_t i = 0; i < n; ++i) dp[i * st[1]] = v;
    } else {
      for (int64_t i = 0; i < n; ++i) dp[i * st[1]] = sp[i * st[0]];
    }
  });
}

// dst[i] = v over a strided destination (fill_, masked writes through views).
template <typename W>
void fill_strided(int ndim, const int64_t* shape, W* dst, const int64_t* dst_strides, W v) {
  StridedLayout<1> L(ndim, shape, {dst_strides});
  for_each_row(L, [&](const std::array<int64_t, 1>& off, int64_t n, const std::array<int64_t, 1>& st) {
    W* dp = dst + off[0];
    for (int64_t i = 0; i < n; ++i) dp[i * st[0]] = v;
  });
}

}  // namespace fx::kernels

namespace fx::kernels {

// out[i] = cond[i] ? a[i] : b[i] over a packed output; cond, a, b may be strided or broadcast.
template <typename W>
void where_strided(int ndim, const int64_t* shape, const bool* cond, const int64_t* c_strides, const W* a,
                   const int64_t* a_strides, const W* b, const int64_t* b_strides, W* out) {
  std::vector<int64_t> o_strides(ndim);
  int64_t s = 1;
  for (int d = ndim; d-- > 0;) {
    o_strides[d] = s;
    s *= shape[d];
  }
  StridedLayout<4> L(ndim, shape, {c_strides, a_strides, b_strides, o_strides.data()});
  for_each_row(L, [&](const std::array<int64_t, 4>& off, int64_t n, const std::array<int64_t, 4>& st) {
    const bool* cp = cond + off[0];
    const W* ap = a + off[1];
    const W* bp = b + off[2];
    W* op = out + off[3];
    for (int64_t i = 0; i < n; ++i) op[i * st[3]] = cp[i * st[0]] ? ap[i * st[1]] : bp[i * st[2]];
  });
}

}  // namespace fx::kernels
