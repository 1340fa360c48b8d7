// Typed xtensor views over a Tensor's memory, for code that is clearest written as xtensor expressions
// (and for test references independent of the hand-written N-d walks). Any layout: the adaptor takes
// the tensor's shape and element strides — transposed, sliced, flipped (negative) and broadcast (0)
// views included. Adaptors never own or copy: the Tensor's storage must outlive them.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xadapt.hpp>

#include "support/error.h"
#include "tensor/tensor.h"

namespace fx {

template <typename T>
void check_xview_dtype(const Tensor& t) {
  FX_CHECK(t.defined(), "xtensor view of an undefined tensor");
  FX_CHECK(dtype_size(t.dtype()) == sizeof(T), std::string("xtensor view: element type does not match ") +
                                                   dtype_name(t.dtype()));
}

// Element [i, j, …] of the view is the tensor's element [i, j, …] (data: element [0, …, 0]).
template <typename T>
auto xview_over(const Tensor& t, T* data) {
  std::vector<size_t> shape(t.shape().begin(), t.shape().end());
  std::vector<std::ptrdiff_t> strides(t.strides().begin(), t.strides().end());
  return xt::adapt(data, static_cast<size_t>(t.numel()), xt::no_ownership(), shape, strides);
}

// Writes through the view go to the tensor's storage.
template <typename T>
auto xview(Tensor& t) {
  check_xview_dtype<T>(t);
  return xview_over(t, t.data<T>());
}

template <typename T>
auto xview(const Tensor& t) {
  check_xview_dtype<T>(t);
  return xview_over(t, t.data<T>());
}

}  // namespace fx
