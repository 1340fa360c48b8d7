// Dtype dispatch for ops that only compare, select and copy values (sort, median, max, argmax, cummax,
// ...): they need no per-dtype arithmetic. Every value of every compute dtype is exact in int64 (integers,
// bool) or double (floats) and keeps its order there, so such an op is instantiated for those two only:
// the caller casts its input to order_dtype(t) with to_dtype and its values back to t.
#pragma once
#include <cstdint>
#include <string>

#include "ops/dispatch.h"

namespace fx {

inline DType order_dtype(DType t) { return dtype_is_floating(t) ? DType::Float64 : DType::Int64; }

template <typename F>
decltype(auto) dispatch_order(DType t, const char* op, F&& f) {
  if constexpr (kIsKernel<F>) {
    if (meta_mode()) return;
  }
  if (t == DType::Float64) return f(double{});
  if (t == DType::Int64) return f(int64_t{});
  throw FxError(std::string(op) + ": no kernel for dtype " + dtype_name(t));
}

// Ops that only move values (pad, ...): f is called with an unsigned integer type of `bytes` bytes (a
// dtype's element size), one instantiation per width instead of per dtype. A kernel: skipped in meta mode.
template <typename F>
void dispatch_width(size_t bytes, F&& f) {
  if (meta_mode()) return;
  switch (bytes) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    case 8: f(uint64_t{}); break;
    case 16: f(Bytes16{}); break;
    default: throw FxError("no element type of " + std::to_string(bytes) + " bytes");
  }
}

}  // namespace fx
