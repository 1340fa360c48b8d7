#include "ops/tensor_util.h"

#include "kernels/convert.h"
#include "ops/dispatch.h"
#include "support/error.h"

namespace fx {

Tensor to_dtype(const Tensor& t, DType dtype) {
  FX_CHECK(t.defined(), "cast of an undefined tensor");
  if (t.dtype() == dtype) return t;
  Tensor src = t.contiguous();
  if (src.is_meta()) return Tensor::meta(t.shape(), dtype);
  // Known values stay known in meta mode too (a parameter cast for an op): a real result, and functions
  // returning a value, which dispatch runs in meta mode (ops/dispatch.h).
  Tensor out(std::make_shared<Storage>(static_cast<size_t>(checked_numel(t.shape())) * dtype_size(dtype)), dtype,
             t.shape(), contiguous_strides(t.shape()), 0);
  dispatch_all(src.dtype(), [&](auto s) {
    using S = decltype(s);
    return dispatch_all(dtype, [&](auto d) {
      using D = decltype(d);
      kernels::convert(src.data<S>(), out.data<D>(), src.numel());
      return true;
    });
  });
  return out;
}

Tensor scalar_tensor(Number n, DType dtype) {
  Tensor out = Tensor::empty({}, dtype);
  dispatch_all(dtype, [&](auto d) {
    using D = decltype(d);
    *out.data<D>() = n.is_float() ? kernels::convert_value<D>(n.d) : kernels::convert_value<D>(n.i);
  });
  return out;
}

Number tensor_item(const Tensor& t) {
  if (t.numel() != 1)
    throw FxError("a Tensor with " + std::to_string(t.numel()) + " elements cannot be converted to Scalar");
  if (t.dtype() == DType::Bool) return Number::boolean(*t.data<bool>());
  if (dtype_is_floating(t.dtype())) return Number::floating(*to_dtype(t, DType::Float64).data<double>());
  return Number::integer(*to_dtype(t, DType::Int64).data<int64_t>());
}

}  // namespace fx
