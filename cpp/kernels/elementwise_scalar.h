// Scalar reference kernels for elementwise ops: y[i] = f(x[i]) and y[i] = f(a[i], b[i]), over raw
// pointers, a shape and element strides. The output is always packed row-major; inputs may be any
// strided or broadcast (stride 0) view. The functor decides the arithmetic; kernels decide the walk.
#pragma once
#include <cstdint>

#include "kernels/strided.h"

namespace fx::kernels {

template <typename In, typename Out, typename F>
void unary_contiguous(int64_t n, const In* x, Out* y, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

template <typename In, typename Out, typename F>
void unary_strided(int ndim, const int64_t* shape, const In* x, const int64_t* x_strides, Out* y, F f) {
  std::vector<int64_t> y_strides(ndim);
  int64_t s = 1;
  for (int d = ndim; d-- > 0;) {
    y_strides[d] = s;
    s *= shape[d];
  }
  StridedLayout<2> L(ndim, shape, {x_strides, y_strides.data()});
  for_each_row(L, [&](const std::array<int64_t, 2>& off, int64_t n, const std::array<int64_t, 2>& st) {
    const In* xp = x + off[0];
    Out* yp = y + off[1];
    if (st[0] == 1) {
      unary_contiguous(n, xp, yp, f);
    } else {
      for (int64_t i = 0; i < n; ++i) yp[i] = f(xp[i * st[0]]);
    }
  });
}

template <typename A, typename B, typename Out, typename F>
void binary_contiguous(int64_t n, const A* a, const B* b, Out* y, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(a[i], b[i]);
}

template <typename A, typename B, typename Out, typename F>
void binary_strided(int ndim, const int64_t* shape, const A* a, const int64_t* a_strides, const B* b,
                    const int64_t* b_strides, Out* y, F f) {
  std::vector<int64_t> y_strides(ndim);
  int64_t s = 1;
  for (int d = ndim; d-- > 0;) {
    y_strides[d] = s;
    s *= shape[d];
  }
  StridedLayout<3> L(ndim, shape, {a_strides, b_strides, y_strides.data()});
  for_each_row(L, [&](const std::array<int64_t, 3>& off, int64_t n, const std::array<int64_t, 3>& st) {
    const A* ap = a + off[0];
    const B* bp = b + off[1];
    Out* yp = y + off[2];
    if (st[0] == 1 && st[1] == 1) {
      binary_contiguous(n, ap, bp, yp, f);
    } else if (st[0] == 1 && st[1] == 0) {  // tensor op scalar (or a broadcast row)
      const B bv = *bp;
      for (int64_t i = 0; i < n; ++i) yp[i] = f(ap[i], bv);
    } else if (st[0] == 0 && st[1] == 1) {
      const A av = *ap;
      for (int64_t i = 0; i < n; ++i) yp[i] = f(av, bp[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) yp[i] = f(ap[i * st[0]], bp[i * st[1]]);
    }
  });
}

}  // namespace fx::kernels
