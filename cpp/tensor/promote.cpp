#include "tensor/promote.h"

#include "support/error.h"

namespace fx {
namespace {

// ATen's combine_categories: the higher tier wins unless the lower one is of a higher category.
// Categories: bool < integral < floating < complex; a floating higher tier with a complex lower one becomes
// its complex counterpart (float32 tensor * complex128 zero-dim tensor → complex64).
bool combine(bool has_hi, DType hi, bool has_lo, DType lo, DType* out) {
  if (!has_hi) {
    *out = lo;
    return has_lo;
  }
  if (!has_lo || dtype_is_complex(hi)) {
    *out = hi;
    return true;
  }
  if (dtype_is_floating(hi)) {
    *out = dtype_is_complex(lo) ? dtype_to_complex(hi) : hi;
    return true;
  }
  *out = (hi == DType::Bool || dtype_is_floating(lo) || dtype_is_complex(lo)) ? promote_types(hi, lo) : hi;
  return true;
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  if (dtype_is_complex(a) || dtype_is_complex(b)) {
    // The complex type whose parts hold both: complex64 with float64 is complex128, with an integer complex64.
    const DType ra = dtype_real_part(a), rb = dtype_real_part(b);
    const bool wide = ra == DType::Float64 || rb == DType::Float64;
    return wide ? DType::Complex128 : DType::Complex64;
  }
  const bool fa = dtype_is_floating(a), fb = dtype_is_floating(b);
  if (fa && fb) {
    // float16 and bfloat16 have no common 16-bit type; torch goes to float32.
    if (dtype_size(a) == 2 && dtype_size(b) == 2) return DType::Float32;
    return dtype_size(a) >= dtype_size(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integral. uint8 with a signed type needs a wider signed type (uint8 + int8 → int16).
  if (a == DType::UInt8 || b == DType::UInt8) {
    DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return dtype_size(a) >= dtype_size(b) ? a : b;
}

void ResultType::add_tensor(DType dtype, int64_t dim) {
  if (dim > 0) {
    dim_ = has_dim_ ? promote_types(dim_, dtype) : dtype;
    has_dim_ = true;
  } else {
    zero_ = has_zero_ ? promote_types(zero_, dtype) : dtype;
    has_zero_ = true;
  }
}

void ResultType::add_scalar(ScalarKind kind) {
  DType d = scalar_kind_dtype(kind);
  wrapped_ = has_wrapped_ ? promote_types(wrapped_, d) : d;
  has_wrapped_ = true;
}

DType ResultType::result() const {
  DType low = DType::Bool, out = DType::Bool;
  bool has_low = combine(has_zero_, zero_, has_wrapped_, wrapped_, &low);
  if (!combine(has_dim_, dim_, has_low, low, &out)) throw FxError("result_type of no operands");
  return out;
}

DType scalar_kind_dtype(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool: return DType::Bool;
    case ScalarKind::Int: return DType::Int64;
    case ScalarKind::Float: return kDefaultFloat;
  }
  return kDefaultFloat;
}

DType result_type(const Tensor& a, const Tensor& b) {
  ResultType r;
  r.add_tensor(a);
  r.add_tensor(b);
  return r.result();
}

DType result_type(const Tensor& a, ScalarKind b) {
  ResultType r;
  r.add_tensor(a);
  r.add_scalar(b);
  return r.result();
}

}  // namespace fx
