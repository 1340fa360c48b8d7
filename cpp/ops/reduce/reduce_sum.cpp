// sum over all or some dims (torch.sum / Tensor.sum / aten.sum.*), with keepdim and dtype. Integer and
// bool inputs sum to int64 as torch does; floats accumulate in double and round once; complex ones sum their
// real and imaginary parts.
#include <algorithm>

#include "kernels/reduce_scalar.h"
#include "ops/dispatch.h"
#include "ops/math/complex_math.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

// Which dims to reduce, as a mask over x's dims, with torch's wrapping and duplicate checks.
std::vector<bool> reduced_dims(const std::optional<std::vector<int64_t>>& dims, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), !dims || dims->empty());
  if (!dims) return mask;
  const int64_t range = std::max<int64_t>(ndim, 1);  // a 0-dim tensor accepts dim 0 and -1
  for (int64_t d : *dims) {
    if (d < -range || d >= range)
      throw FxError("Dimension out of range (expected to be in range of [" + std::to_string(-range) + ", " +
                    std::to_string(range - 1) + "], but got " + std::to_string(d) + ")");
    int64_t w = d < 0 ? d + range : d;
    if (ndim == 0) continue;
    if (mask[w]) throw FxError("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    mask[w] = true;
  }
  return mask;
}

Tensor sum_tensor(const Tensor& input, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
                  std::optional<DType> dtype) {
  Tensor x = dtype ? to_dtype(input, *dtype) : input;
  if (dtype_is_complex(x.dtype())) {
    // each part of the (real, imaginary) view sums on its own over the same dims
    if (x.dim() == 0) return x.clone();
    std::vector<int64_t> real_dims;
    const std::vector<bool> mask = reduced_dims(dims, x.dim());
    for (int64_t d = 0; d < x.dim(); ++d)
      if (mask[d]) real_dims.push_back(d);
    return view_as_complex(sum_tensor(view_as_real(x), real_dims, keepdim, std::nullopt).contiguous());
  }
  const DType out_dtype = dtype ? *dtype : (dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64);
  const std::vector<bool> mask = reduced_dims(dims, x.dim());
  Shape out_shape;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!mask[d]) out_shape.push_back(x.shape()[d]);
    else if (keepdim) out_shape.push_back(1);
  }
  // The kernel wants [outer, reduce, inner] with the reduced dims one block. If they already are (the
  // usual case: all dims, a last dims, one dim) a packed input suffices; else move them last first.
  // Integers widen to int64 first (sums of int64 and of the narrower dtype wrap alike): one integer
  // instantiation of the kernel instead of five, as dispatch_wide does for element-wise ops.
  x = to_dtype(x, wide_dtype(x.dtype())).contiguous();
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (mask[d]) {
      if (first < 0) first = d;
      last = d;
    }
  bool block = true;
  for (int64_t d = first; d >= 0 && d <= last; ++d) block = block && mask[d];
  int64_t outer = 1, reduce = 1, inner = 1;
  if (block) {
    for (int64_t d = 0; d < x.dim(); ++d)
      (first < 0 || d < first ? outer : d > last ? inner : reduce) *= x.shape()[d];
  } else {
    Shape shape, strides;
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t d = 0; d < x.dim(); ++d)
        if (mask[d] == (pass == 1)) {
          shape.push_back(x.shape()[d]);
          strides.push_back(x.strides()[d]);
          (pass ? reduce : outer) *= x.shape()[d];
        }
    x = Tensor(x.storage(), x.dtype(), shape, strides, x.offset()).contiguous();
  }
  // Floats reduce in their (widened) dtype, integers into int64; the cast to out_dtype comes last.
  Tensor out = Tensor::empty(out_shape, dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64);
  dispatch_wide(x.dtype(), "sum", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      kernels::sum_scalar<T, double, T>(x.data<T>(), out.data<T>(), outer, reduce, inner);
    } else {
      kernels::sum_scalar<T, uint64_t, int64_t>(x.data<T>(), out.data<int64_t>(), outer, reduce, inner);
    }
  });
  return to_dtype(out, out_dtype);
}

Object sum_op(const OpCall& call) {
  static const Schema schema("sum(input|self, dim=None, keepdim=False, *, dtype=None)");
  Args a = schema.parse(call);
  return sum_tensor(a.tensor(0), a.int_list(1), a.boolean(2), a.dtype(3));
}

const OpRegistrar reg_sum{OpDef{"torch.sum",
                                {"torch.Tensor.sum", "aten.sum.default", "aten.sum.dim_IntList"},
                                {"sum"},
                                sum_op}};

}  // namespace
}  // namespace fx
