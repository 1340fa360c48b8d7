// Typed xtensor views over a Tensor's memory, for ops that are clearest written as xtensor expressions.
// Adaptors never own or copy: the Tensor must outlive them.
#pragma once
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

// Row-major adaptor over a contiguous tensor (FxError otherwise: call contiguous() first).
template <typename T>
auto xview(Tensor& t) {
  check_xview_dtype<T>(t);
  FX_CHECK(t.is_contiguous(), "xtensor view needs a contiguous tensor");
  std::vector<size_t> shape(t.shape().begin(), t.shape().end());
  return xt::adapt(t.data<T>(), static_cast<size_t>(t.numel()), xt::no_ownership(), shape);
}

template <typename T>
auto xview(const Tensor& t) {
  check_xview_dtype<T>(t);
  FX_CHECK(t.is_contiguous(), "xtensor view needs a contiguous tensor");
  std::vector<size_t> shape(t.shape().begin(), t.shape().end());
  return xt::adapt(t.data<T>(), static_cast<size_t>(t.numel()), xt::no_ownership(), shape);
}

}  // namespace fx
