// Scalar reference kernels for elementwise ops: y[i] = f(x[i]) and y[i] = f(a[i], b[i]), over raw
// pointers, a shape and element strides. The output is always packed row-major; inputs may be any
// strided or broadcast (stride 0) view. The functor decides the arithmetic; kernels decide the walk.
//
// One walk serves every op and element type (binary_walk / unary_walk, compiled once in
// elementwise_walk.cpp): it hands packed chunks to a per-op row function — strided or broadcast inputs
// are first gathered into small buffers — so an op instantiates one plain loop per element type instead
// of an N-d walk with a loop per layout.
#pragma once
#include <cstddef>
#include <cstdint>

namespace fx::kernels {

// row(ctx, n, a, b, y): y[0..n) = f(a[0..n), b[0..n)) over packed arrays.
using BinaryRow = void (*)(void* ctx, int64_t n, const void* a, const void* b, void* y);
using UnaryRow = void (*)(void* ctx, int64_t n, const void* x, void* y);

// Walks the packed output of `shape` and calls row on packed chunks of a and b (element sizes in bytes).
void binary_walk(int ndim, const int64_t* shape, const void* a, const int64_t* a_strides, size_t a_size,
                 const void* b, const int64_t* b_strides, size_t b_size, void* y, size_t y_size, BinaryRow row,
                 void* ctx);
void unary_walk(int ndim, const int64_t* shape, const void* x, const int64_t* x_strides, size_t x_size, void* y,
                size_t y_size, UnaryRow row, void* ctx);

template <typename In, typename Out, typename F>
void unary_contiguous(int64_t n, const In* x, Out* y, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

template <typename In, typename Out, typename F>
void unary_strided(int ndim, const int64_t* shape, const In* x, const int64_t* x_strides, Out* y, F f) {
  unary_walk(ndim, shape, x, x_strides, sizeof(In), y, sizeof(Out),
             [](void* ctx, int64_t n, const void* px, void* py) {
               unary_contiguous(n, static_cast<const In*>(px), static_cast<Out*>(py), *static_cast<F*>(ctx));
             },
             &f);
}

template <typename A, typename B, typename Out, typename F>
void binary_contiguous(int64_t n, const A* a, const B* b, Out* y, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(a[i], b[i]);
}

template <typename A, typename B, typename Out, typename F>
void binary_strided(int ndim, const int64_t* shape, const A* a, const int64_t* a_strides, const B* b,
                    const int64_t* b_strides, Out* y, F f) {
  binary_walk(ndim, shape, a, a_strides, sizeof(A), b, b_strides, sizeof(B), y, sizeof(Out),
              [](void* ctx, int64_t n, const void* pa, const void* pb, void* py) {
                binary_contiguous(n, static_cast<const A*>(pa), static_cast<const B*>(pb), static_cast<Out*>(py),
                                  *static_cast<F*>(ctx));
              },
              &f);
}

}  // namespace fx::kernels
