#include "ops/nn/nn_util.h"

#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {

static const char* torch_type_name(DType t) {
  switch (t) {
    case DType::Int64: return "Long";
    case DType::Int32: return "Int";
    case DType::Int16: return "Short";
    case DType::Int8: return "Char";
    case DType::UInt8: return "Byte";
    case DType::Bool: return "Bool";
    case DType::Complex64: return "ComplexFloat";
    case DType::Complex128: return "ComplexDouble";
    default: return dtype_name(t);
  }
}

Tensor float_contiguous(const Tensor& x, const char* op) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"") + op + "\" not implemented for '" + torch_type_name(x.dtype()) + "'");
  return to_dtype(x, compute_dtype(x.dtype())).contiguous();
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  const int64_t range = ndim > 0 ? ndim : 1;
  if (dim < -range || dim >= range)
    throw FxError("Dimension out of range (expected to be in range of [" + std::to_string(-range) + ", " +
                  std::to_string(range - 1) + "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + range : dim;
}

std::vector<int64_t> expand_ints(const std::vector<int64_t>& v, size_t n, const std::string& what) {
  if (v.size() == n) return v;
  if (v.size() == 1) return std::vector<int64_t>(n, v[0]);
  throw FxError(what + " must have " + std::to_string(n) + " elements, got " + std::to_string(v.size()));
}

std::vector<int64_t> arg_ints(const Args& a, size_t i, size_t n, const std::string& what) {
  auto v = a.int_list(i);
  if (!v) throw FxError(what + " must be an int or a tuple of ints, not None");
  return expand_ints(*v, n, what);
}

Tensor view_as_shape(const Tensor& t, const Shape& shape) {
  FX_CHECK(t.is_contiguous(), "view_as_shape of a non-contiguous tensor");
  FX_CHECK(checked_numel(shape) == t.numel(), "view_as_shape: numel differs");
  return Tensor(t.storage(), t.dtype(), shape, contiguous_strides(shape), t.offset());
}

Tensor permute_view(const Tensor& t, const std::vector<int64_t>& perm) {
  Shape shape, strides;
  for (int64_t p : perm) {
    shape.push_back(t.shape()[p]);
    strides.push_back(t.strides()[p]);
  }
  return Tensor(t.storage(), t.dtype(), shape, strides, t.offset());
}

std::optional<double> opt_double(const Args& a, size_t i) {
  if (a.is_none(i)) return std::nullopt;
  return a.number(i).as_double();
}

Tensor restore_dtype(const Tensor& out, DType original) {
  return out.dtype() == original ? out : to_dtype(out, original);
}

}  // namespace fx
