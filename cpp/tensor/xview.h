// Typed xtensor views over a Tensor's memory, for code that is clearest written as xtensor expressions
// (and for test references independent of the hand-written N-d walks). Adaptors never own or copy: the
// Tensor's storage must outlive them.
//
// xview() adapts any layout with non-negative strides — transposed, sliced and broadcast (0) views. A
// flipped view (negative strides) cannot be adapted in place: xtensor's buffer adaptors index with
// unsigned offsets, so a step backwards from the first element overflows (undefined behaviour, found by
// UBSan). xarray_of() takes every layout: it adapts a flipped axis forwards from its lowest address and
// flips it back with xt::flip, into a copy.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include "support/error.h"
#include "tensor/tensor.h"

namespace fx {

template <typename T>
void check_xview_dtype(const Tensor& t) {
  FX_CHECK(t.defined(), "xtensor view of an undefined tensor");
  FX_CHECK(dtype_size(t.dtype()) == sizeof(T), std::string("xtensor view: element type does not match ") +
                                                   dtype_name(t.dtype()));
}

// Element [i, j, …] of the view is the element at data + Σ index·stride (data: element [0, …, 0]).
template <typename T>
auto xview_over(const Tensor& t, T* data, const std::vector<std::ptrdiff_t>& strides) {
  std::vector<size_t> shape(t.shape().begin(), t.shape().end());
  return xt::adapt(data, static_cast<size_t>(t.numel()), xt::no_ownership(), shape, strides);
}

inline std::vector<std::ptrdiff_t> xview_strides(const Tensor& t) {
  std::vector<std::ptrdiff_t> strides(t.strides().begin(), t.strides().end());
  for (std::ptrdiff_t s : strides)
    FX_CHECK(s >= 0, "xtensor view of a flipped tensor (negative stride): use xarray_of");
  return strides;
}

// Writes through the view go to the tensor's storage.
template <typename T>
auto xview(Tensor& t) {
  check_xview_dtype<T>(t);
  return xview_over(t, t.data<T>(), xview_strides(t));
}

template <typename T>
auto xview(const Tensor& t) {
  check_xview_dtype<T>(t);
  return xview_over(t, t.data<T>(), xview_strides(t));
}

// The tensor's elements in a new xt::xarray, whatever its strides.
template <typename T>
xt::xarray<T> xarray_of(const Tensor& t) {
  check_xview_dtype<T>(t);
  std::vector<std::ptrdiff_t> strides(t.strides().begin(), t.strides().end());
  const T* base = t.data<T>();
  std::vector<size_t> flipped;
  for (size_t d = 0; d < strides.size(); ++d) {
    if (strides[d] >= 0) continue;
    if (t.shape()[d] > 0) base += strides[d] * (t.shape()[d] - 1);  // the axis' lowest address
    strides[d] = -strides[d];
    flipped.push_back(d);
  }
  xt::xarray<T> out = xview_over(t, base, strides);
  for (size_t d : flipped) out = xt::flip(out, d);
  return out;
}

}  // namespace fx
