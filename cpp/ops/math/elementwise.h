// The shared shape of elementwise ops: operands are tensors or Python numbers; the result dtype follows
// torch's promotion; inputs are cast to the compute dtype, broadcast as views (no copies) and handed to
// the scalar kernels. An op supplies a "maker": called once with a tag of the compute type T, it returns
// the per-element function (so per-call constants such as `alpha` are converted to T once).
// Integers compute in int64 (ops/dispatch.h dispatch_wide): T is float, double, int64_t or bool, unless
// the op asks for its exact integer type (Compute::Exact: results that depend on the bit width), or
// computes in floating point only (Compute::Float: T is float or double). Compute::Complex: T is
// std::complex<float> or std::complex<double>, for the ops that take complex operands.
#pragma once
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/elementwise_f32.h"
#include "kernels/elementwise_scalar.h"
#include "ops/dispatch.h"
#include "ops/number.h"
#include "ops/tensor_util.h"
#include "tensor/broadcast.h"
#include "tensor/layout.h"
#include "tensor/promote.h"

namespace fx {

enum class Compute { Wide, Exact, Float, Complex };

template <Compute kMode, typename F>
void dispatch_elementwise(DType t, const char* op, F&& f) {
  if constexpr (kMode == Compute::Wide) dispatch_wide(t, op, f);
  else if constexpr (kMode == Compute::Exact) dispatch_compute(t, op, f);
  else if constexpr (kMode == Compute::Float) dispatch_floating(t, op, f);
  else dispatch_complex(t, op, f);
}

struct Operand {
  bool is_scalar = false;  // a Python number
  Number number;   // when is_scalar
  Tensor tensor;   // otherwise

  static Operand of(const Object& o, const std::string& op, const std::string& arg);
  DType dtype() const { return is_scalar ? scalar_kind_dtype(number.kind) : tensor.dtype(); }
  // As a tensor of `dtype` (a zero-dim tensor for a number).
  Tensor as(DType dtype) const { return is_scalar ? scalar_tensor(number, dtype) : to_dtype(tensor, dtype); }
};

DType result_type(const std::vector<Operand>& operands);

// out = f(a, b) over the broadcast shape, computed in `compute`. kBoolOut: the function returns bool
// (comparisons), else the output has dtype `compute` (float16/bfloat16 computed in float32, rounded once).
template <bool kBoolOut, Compute kMode = Compute::Wide, typename Maker>
Tensor binary_map(const Operand& a, const Operand& b, DType compute, const char* op, Maker&& make) {
  const DType kdt = kMode == Compute::Exact ? compute_dtype(compute) : wide_dtype(compute);
  // Numbers become `compute` first (a float16 op rounds its scalar to float16, as torch does).
  Tensor ta = to_dtype(a.as(compute), kdt), tb = to_dtype(b.as(compute), kdt);
  Shape shape = broadcast_shapes(ta.shape(), tb.shape());
  Shape sa = broadcast_strides(ta, shape), sb = broadcast_strides(tb, shape);
  // The result laid out as torch lays it out (tensor/layout.h): computed in that order, then viewed back.
  const std::vector<int64_t> order = elementwise_order(shape, {&sa, &sb});
  if (!order.empty()) {
    shape = permuted(shape, order);
    sa = permuted(sa, order);
    sb = permuted(sb, order);
  }
  Tensor out = Tensor::empty(shape, kBoolOut ? DType::Bool : kdt);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    using R = std::conditional_t<kBoolOut, bool, T>;
    auto fn = make(tag);
    kernels::binary_strided(static_cast<int>(shape.size()), shape.data(), ta.data<T>(), sa.data(),
                            tb.data<T>(), sb.data(), out.data<R>(),
                            [&](T x, T y) { return static_cast<R>(fn(x, y)); });
  };
  dispatch_elementwise<kMode>(kdt, op, run);
  if (!order.empty()) out = unpermuted_view(out, order);
  return (kBoolOut || kdt == compute) ? out : to_dtype(out, compute);
}

// out = f(x) elementwise, computed in `compute`; the output has dtype `compute` (or bool for kBoolOut).
template <bool kBoolOut, Compute kMode = Compute::Wide, typename Maker>
Tensor unary_map(const Tensor& x, DType compute, const char* op, Maker&& make) {
  const DType kdt = kMode == Compute::Exact ? compute_dtype(compute) : wide_dtype(compute);
  Tensor tx = to_dtype(x, kdt);
  Shape shape = tx.shape(), strides = tx.strides();
  const std::vector<int64_t> order = elementwise_order(shape, {&strides});  // as binary_map
  if (!order.empty()) {
    shape = permuted(shape, order);
    strides = permuted(strides, order);
  }
  Tensor out = Tensor::empty(shape, kBoolOut ? DType::Bool : kdt);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    using R = std::conditional_t<kBoolOut, bool, T>;
    auto fn = make(tag);
    kernels::unary_strided(static_cast<int>(shape.size()), shape.data(), tx.data<T>(), strides.data(),
                           out.data<R>(), [&](T v) { return static_cast<R>(fn(v)); });
  };
  dispatch_elementwise<kMode>(kdt, op, run);
  if (!order.empty()) out = unpermuted_view(out, order);
  return (kBoolOut || kdt == compute) ? out : to_dtype(out, compute);
}

// The float32 fast paths (kernels/elementwise_f32.h): when a and b are float32 tensors (or numbers) to
// be computed in float32, packed, and of the result's shape or single values, writes a op b into `out`
// and returns true; else returns false (the caller takes binary_map). Same for unary ops on a packed
// float32 tensor.
bool binary_f32_fast(const Operand& a, const Operand& b, DType compute, kernels::BinaryF32 op, Tensor& out);
bool unary_f32_fast(const Tensor& x, kernels::UnaryF32 op, Tensor& out);

// Wrapping integer arithmetic (torch wraps on overflow; signed overflow is undefined in C++).
template <typename T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) >= 4)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  else return static_cast<T>(a + b);
}
template <typename T>
inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) >= 4)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) - static_cast<std::make_unsigned_t<T>>(b));
  else return static_cast<T>(a - b);
}
template <typename T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a && b;
  else if constexpr (std::is_integral_v<T> && sizeof(T) >= 4)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) * static_cast<std::make_unsigned_t<T>>(b));
  else return static_cast<T>(a * b);
}

// A Number converted to the compute type T (alpha, exponents).
template <typename T>
inline T number_as(Number n) {
  if constexpr (std::is_same_v<T, bool>) return n.is_float() ? n.d != 0 : n.i != 0;
  else return n.is_float() ? static_cast<T>(n.d) : static_cast<T>(n.i);
}

}  // namespace fx
