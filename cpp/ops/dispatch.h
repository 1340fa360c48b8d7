// Dtype dispatch: the one place a runtime DType becomes a C++ element type (rule: dispatch once, at the
// op layer; kernels are monomorphic). `f` is called with a value of the element type as a tag.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/half.h"
#include "support/error.h"
#include "tensor/dtype.h"
#include "tensor/meta.h"

namespace fx {

// Meta mode (tensor/meta.h): a kernel — a function returning nothing, which writes its results into
// tensors — is skipped, so an op computes only its result's shape and dtype. A function returning a
// value still runs (it reads data, and so throws DataDependent on a meta tensor).
template <typename F>
constexpr bool kIsKernel = std::is_void_v<std::invoke_result_t<F, float>>;

// The dtypes kernels compute in. float16/bfloat16 are stored, not computed: ops widen them to float32.
template <typename F>
decltype(auto) dispatch_compute(DType t, const char* op, F&& f) {
  if constexpr (kIsKernel<F>) {
    if (meta_mode() && t != DType::Float16 && t != DType::BFloat16) return;  // (those still fail below)
  }
  switch (t) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Int64: return f(int64_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int8: return f(int8_t{});
    case DType::UInt8: return f(uint8_t{});
    case DType::Bool: return f(bool{});
    default: break;
  }
  throw FxError(std::string(op) + ": no kernel for dtype " + dtype_name(t));
}

// The dtypes elementwise ops compute in: every integer dtype in int64 (torch's integer arithmetic wraps,
// and wrapping int64 arithmetic has the same low bits, so the result stored back into the narrower dtype
// is torch's), float16/bfloat16 in float32. One instantiation per op for all integers instead of five.
// Ops whose result depends on the bit width (shifts) use dispatch_compute.
template <typename F>
decltype(auto) dispatch_wide(DType t, const char* op, F&& f) {
  if constexpr (kIsKernel<F>) {
    if (meta_mode() && t != DType::Float16 && t != DType::BFloat16) return;
  }
  switch (t) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Int64: case DType::Int32: case DType::Int16: case DType::Int8: case DType::UInt8:
      return f(int64_t{});
    case DType::Bool: return f(bool{});
    default: break;
  }
  throw FxError(std::string(op) + ": no kernel for dtype " + dtype_name(t));
}

// Floating dtypes only (ops that compute in floating point whatever their input): float32 (also for
// float16/bfloat16) and float64.
template <typename F>
decltype(auto) dispatch_floating(DType t, const char* op, F&& f) {
  if constexpr (kIsKernel<F>) {
    if (meta_mode() && t != DType::Float16 && t != DType::BFloat16) return;
  }
  switch (t) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    default: break;
  }
  throw FxError(std::string(op) + ": no kernel for dtype " + dtype_name(t));
}

// Every storage dtype, including the half types (for casts and copies).
template <typename F>
decltype(auto) dispatch_all(DType t, F&& f) {
  if constexpr (kIsKernel<F>) {
    if (meta_mode()) return;
  }
  switch (t) {
    case DType::Float16: return f(Half{});
    case DType::BFloat16: return f(BFloat16{});
    default: return dispatch_compute(t, "dispatch", std::forward<F>(f));
  }
}

// The complex dtypes, for ops that take them (each op opts in: the dispatchers above reject complex).
template <typename F>
decltype(auto) dispatch_complex(DType t, const char* op, F&& f) {
  if constexpr (std::is_void_v<std::invoke_result_t<F, std::complex<float>>>) {
    if (meta_mode()) return;
  }
  switch (t) {
    case DType::Complex64: return f(std::complex<float>{});
    case DType::Complex128: return f(std::complex<double>{});
    default: break;
  }
  throw FxError(std::string(op) + ": no complex kernel for dtype " + dtype_name(t));
}

// The dtype a kernel computes `t` in: float32 for the half types, `t` otherwise.
inline DType compute_dtype(DType t) {
  return (t == DType::Float16 || t == DType::BFloat16) ? DType::Float32 : t;
}

// The dtype dispatch_wide computes `t` in: int64 for every integer dtype, else compute_dtype(t).
inline DType wide_dtype(DType t) {
  switch (t) {
    case DType::Int32: case DType::Int16: case DType::Int8: case DType::UInt8: return DType::Int64;
    default: return compute_dtype(t);
  }
}

}  // namespace fx
