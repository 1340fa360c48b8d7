#include "ops/tensor_util.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "kernels/convert.h"
#include "ops/dispatch.h"
#include "support/error.h"

namespace fx {

namespace {

// Casts that involve a complex dtype, as torch makes them: a real value becomes (x, 0); a complex one becomes
// its real part (torch warns that the imaginary part is discarded), or for bool whether it is non-zero.
Tensor complex_cast(const Tensor& src, DType dtype) {
  Tensor out = Tensor::empty(src.shape(), dtype);
  const int64_t n = src.numel();
  if (dtype_is_complex(dtype) && !dtype_is_complex(src.dtype())) {
    const Tensor parts = to_dtype(src, dtype_real_part(dtype)).contiguous();
    dispatch_complex(dtype, "to", [&](auto c) {
      using C = decltype(c);
      const auto* x = parts.data<typename C::value_type>();
      C* y = out.data<C>();
      for (int64_t i = 0; i < n; ++i) y[i] = C(x[i], 0);
    });
    return out;
  }
  if (dtype_is_complex(dtype)) {  // complex to complex
    dispatch_complex(src.dtype(), "to", [&](auto s) {
      using S = decltype(s);
      dispatch_complex(dtype, "to", [&](auto d) {
        using D = decltype(d);
        const S* x = src.data<S>();
        D* y = out.data<D>();
        for (int64_t i = 0; i < n; ++i)
          y[i] = D(static_cast<typename D::value_type>(x[i].real()), static_cast<typename D::value_type>(x[i].imag()));
      });
    });
    return out;
  }
  const DType part = dtype == DType::Bool ? DType::Bool : dtype_real_part(src.dtype());
  Tensor re = Tensor::empty(src.shape(), part);
  dispatch_complex(src.dtype(), "to", [&](auto s) {
    using S = decltype(s);
    const S* x = src.data<S>();
    if (part == DType::Bool) {
      bool* y = re.data<bool>();
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] != S(0);
    } else {
      auto* y = re.data<typename S::value_type>();
      for (int64_t i = 0; i < n; ++i) y[i] = x[i].real();
    }
  });
  return to_dtype(re, dtype);
}

}  // namespace

Tensor to_dtype(const Tensor& t, DType dtype) {
  FX_CHECK(t.defined(), "cast of an undefined tensor");
  if (dtype_is_complex(t.dtype()) && !dtype_is_complex(dtype))
    throw FxError(std::string("this op does not take complex tensors (it would cast ") + dtype_name(t.dtype()) +
                  " to " + dtype_name(dtype) + "); torch.real, .abs() or an explicit .to() give a real tensor");
  return to_dtype_discarding_imag(t, dtype);
}

Tensor to_dtype_discarding_imag(const Tensor& t, DType dtype) {
  FX_CHECK(t.defined(), "cast of an undefined tensor");
  if (t.dtype() == dtype) return t;
  Tensor src = t.contiguous();
  if (src.is_meta()) return Tensor::meta(t.shape(), dtype);
  if (dtype_is_complex(dtype) || dtype_is_complex(src.dtype())) return complex_cast(src, dtype);
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
  if (dtype_is_complex(dtype)) return to_dtype(scalar_tensor(n, dtype_real_part(dtype)), dtype);
  Tensor out = Tensor::empty({}, dtype);
  dispatch_all(dtype, [&](auto d) {
    using D = decltype(d);
    *out.data<D>() = n.is_float() ? kernels::convert_value<D>(n.d) : kernels::convert_value<D>(n.i);
  });
  return out;
}

namespace {

// c10's names for the C++ types, as its overflow message spells them.
const char* c10_type_name(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Int64: return "int64_t";
    case DType::Int32: return "int";
    case DType::Int16: return "int16_t";
    case DType::Int8: return "int8_t";
    case DType::UInt8: return "uint8_t";
    case DType::Bool: return "bool";
    case DType::Complex64: return "c10::complex<float>";
    case DType::Complex128: return "c10::complex<double>";
  }
  return "?";
}

// [lowest, max] of an integer dtype, as doubles and as int64 (uint8's max is 255).
void int_range(DType dtype, int64_t* lo, int64_t* hi) {
  switch (dtype) {
    case DType::Int64: *lo = INT64_MIN, *hi = INT64_MAX; return;
    case DType::Int32: *lo = INT32_MIN, *hi = INT32_MAX; return;
    case DType::Int16: *lo = INT16_MIN, *hi = INT16_MAX; return;
    case DType::Int8: *lo = INT8_MIN, *hi = INT8_MAX; return;
    default: *lo = 0, *hi = UINT8_MAX; return;
  }
}

}  // namespace

bool number_fits(Number n, DType dtype, bool strict_unsigned) {
  if (dtype == DType::Bool || dtype == DType::Float64) return true;
  if (dtype_is_floating(dtype)) {
    const double v = n.as_double();
    if (!std::isfinite(v)) return true;
    // float16, float32: within the largest finite value; bfloat16: unless it rounds to inf, i.e. below
    // the midpoint between its largest value (2 - 2^-7) * 2^127 and 2^128 (what the reference torch does).
    if (dtype == DType::BFloat16) return std::fabs(v) < std::ldexp(2.0 - 1.0 / 256, 127);
    return std::fabs(v) <= (dtype == DType::Float16 ? 65504.0 : 3.4028234663852886e38);
  }
  int64_t lo, hi;
  int_range(dtype, &lo, &hi);
  if (n.is_float()) {  // truncation toward zero must land in range: lowest <= v < max + 1
    const double v = n.d;
    return std::isfinite(v) && v >= static_cast<double>(lo) && v < static_cast<double>(hi) + 1.0;
  }
  if (dtype == DType::UInt8 && !strict_unsigned) return n.i <= hi && n.i >= -hi;  // negatives wrap (two's complement)
  return n.i >= lo && n.i <= hi;
}

Tensor checked_scalar_tensor(Number n, DType dtype, DType check_as) {
  if (!number_fits(n, check_as))
    throw FxError(std::string("value cannot be converted to type ") + c10_type_name(check_as) + " without overflow");
  return scalar_tensor(n, dtype);
}

Tensor checked_scalar_tensor(Number n, DType dtype, bool strict_unsigned) {
  if (!number_fits(n, dtype, strict_unsigned))
    throw FxError(std::string("value cannot be converted to type ") + c10_type_name(dtype) + " without overflow");
  return scalar_tensor(n, dtype);
}

Number tensor_item(const Tensor& t) {
  if (t.numel() != 1)
    throw FxError("a Tensor with " + std::to_string(t.numel()) + " elements cannot be converted to Scalar");
  if (t.dtype() == DType::Bool) return Number::boolean(*t.data<bool>());
  if (dtype_is_floating(t.dtype())) return Number::floating(*to_dtype(t, DType::Float64).data<double>());
  return Number::integer(*to_dtype(t, DType::Int64).data<int64_t>());
}

}  // namespace fx
