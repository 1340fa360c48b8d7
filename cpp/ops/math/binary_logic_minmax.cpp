// More elementwise binary ops: logical_and/or/xor (bool results), bitwise_and/or/xor and shifts (ints
// and bools), maximum/minimum (nan propagates) and fmax/fmin (nan ignored), fmod, atan2, hypot,
// copysign, lerp. Operands are tensors or Python numbers, promoted as torch does.
#include <cmath>
#include <type_traits>

#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

enum BFn { LAnd, LOr, LXor, BAnd, BOr, BXor, LShift, RShift, Max, Min, FMax, FMin, FMod, Atan2, Hypot, Copysign };
const char* const kNames[] = {"logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
                              "bitwise_left_shift", "bitwise_right_shift", "maximum", "minimum", "fmax", "fmin",
                              "fmod", "atan2", "hypot", "copysign"};

template <int kFn>
Object binary_op(const OpCall& call) {
  static const Schema schema(std::string(kNames[kFn]) + "(input|self, other)");
  Args args = schema.parse(call);
  Operand a = Operand::of(args[0], kNames[kFn], "input"), b = Operand::of(args[1], kNames[kFn], "other");
  if (a.is_scalar && b.is_scalar) throw FxError(std::string(kNames[kFn]) + "(): expected at least one Tensor");
  DType dt = result_type({a, b});
  if constexpr (kFn <= LXor) {
    return binary_map<true>(a, b, dt, kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T x, T y) -> bool {
        const bool p = x != T(0), q = y != T(0);
        return kFn == LAnd ? (p && q) : kFn == LOr ? (p || q) : (p != q);
      };
    });
  } else if constexpr (kFn <= RShift) {
    if (dtype_is_floating(dt))
      throw FxError(std::string("\"") + kNames[kFn] + "_cpu\" not implemented for '" + torch_type_name(dt) + "'");
    // Shifts depend on the bit width: computed in the exact integer type.
    return binary_map<false, kFn < LShift ? Compute::Wide : Compute::Exact>(a, b, dt, kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T x, T y) -> T {
        if constexpr (std::is_same_v<T, bool>) {
          // bool shifts compute as ints and convert back: x << y is x when y is 0, else x != 0 still.
          return kFn == BAnd ? (x && y) : kFn == BOr ? (x || y) : kFn == BXor ? (x != y) : kFn == LShift ? x : (x && !y);
        } else if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          if (kFn == BAnd) return static_cast<T>(x & y);
          if (kFn == BOr) return static_cast<T>(x | y);
          if (kFn == BXor) return static_cast<T>(x ^ y);
          // torch: shifting by >= the bit width (or a negative amount) gives 0 (or -1 for >> of negatives).
          const int bits = static_cast<int>(sizeof(T) * 8);
          if (kFn == LShift) return (y < 0 || y >= bits) ? T(0) : static_cast<T>(static_cast<U>(x) << y);
          if (y < 0 || y >= bits) return x < 0 ? T(-1) : T(0);
          return static_cast<T>(x >> y);
        } else {
          return x;
        }
      };
    });
  } else if constexpr (kFn <= FMin) {
    if (a.is_scalar || b.is_scalar) throw FxError(std::string(kNames[kFn]) + "(): argument 'other' must be Tensor");
    return binary_map<false>(a, b, dt, kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T x, T y) -> T {
        if constexpr (std::is_floating_point_v<T>) {
          if (kFn == Max || kFn == Min) {
            if (x != x) return x;
            if (y != y) return y;
          } else {
            if (x != x) return y;
            if (y != y) return x;
          }
        }
        return (kFn == Max || kFn == FMax) ? (x > y ? x : y) : (x < y ? x : y);
      };
    });
  } else if constexpr (kFn == FMod) {
    if (dt == DType::Bool) throw FxError("\"fmod_cpu\" not implemented for 'Bool'");
    return binary_map<false>(a, b, dt, "fmod", [](auto tag) {
      using T = decltype(tag);
      return [](T x, T y) -> T {
        if constexpr (std::is_floating_point_v<T>) return std::fmod(x, y);
        else {
          if (y == 0) throw FxError("ZeroDivisionError");
          if constexpr (std::is_signed_v<T>) if (y == T(-1)) return T(0);
          return static_cast<T>(x % y);
        }
      };
    });
  } else {
    if (kFn == Hypot && !dtype_is_floating(dt))
      throw FxError(std::string("\"hypot_cpu\" not implemented for '") + torch_type_name(dt) + "'");
    const DType out = dtype_is_floating(dt) ? dt : kDefaultFloat;
    return binary_map<false, Compute::Float>(a, b, out, kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T x, T y) -> T {
        if constexpr (std::is_floating_point_v<T>) {
          if (kFn == Atan2) return std::atan2(x, y);
          if (kFn == Hypot) return std::hypot(x, y);
          return std::copysign(x, y);
        } else {
          return x;
        }
      };
    });
  }
}

// lerp(input, end, weight): input + weight * (end - input), in the form torch uses for |weight| >= 0.5.
Object lerp_op(const OpCall& call) {
  static const Schema schema("lerp(input|self, end, weight)");
  Args args = schema.parse(call);
  const Tensor& x = args.tensor(0);
  const Tensor& e = args.tensor(1);
  if (x.dtype() != e.dtype())
    throw FxError(std::string("expected dtype ") + dtype_name(x.dtype()) + " for `end` but got dtype " +
                  dtype_name(e.dtype()));
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"lerp_kernel_scalar\" not implemented for '") + torch_type_name(x.dtype()) + "'");
  Operand w = Operand::of(args[2], "lerp", "weight");
  Tensor wt = w.is_scalar ? scalar_tensor(w.number, x.dtype()) : w.tensor;
  Shape shape = broadcast_shapes({x.shape(), e.shape(), wt.shape()});
  const DType kdt = compute_dtype(x.dtype());
  Tensor xe = to_dtype(expand_to(x, shape).contiguous(), kdt), ee = to_dtype(expand_to(e, shape).contiguous(), kdt);
  Tensor we = to_dtype(expand_to(to_dtype(wt, x.dtype()), shape).contiguous(), kdt);
  Tensor out = Tensor::empty(shape, kdt);
  dispatch_compute(kdt, "lerp", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      for (int64_t i = 0; i < out.numel(); ++i) {
        T s = xe.data<T>()[i], t = ee.data<T>()[i], wv = we.data<T>()[i];
        out.data<T>()[i] = std::fabs(wv) < T(0.5) ? s + wv * (t - s) : t - (t - s) * (T(1) - wv);
      }
    }
  });
  return to_dtype(out, x.dtype());
}

const OpRow kOps[] = {
    {"torch.logical_and", "torch.Tensor.logical_and aten.logical_and.default aten.logical_and.Tensor aten.logical_and.Scalar", "logical_and", binary_op<LAnd>},
    {"torch.logical_or", "torch.Tensor.logical_or aten.logical_or.default aten.logical_or.Tensor aten.logical_or.Scalar", "logical_or", binary_op<LOr>},
    {"torch.logical_xor", "torch.Tensor.logical_xor aten.logical_xor.default aten.logical_xor.Tensor aten.logical_xor.Scalar", "logical_xor", binary_op<LXor>},
    {"torch.bitwise_and", "torch.Tensor.bitwise_and aten.bitwise_and.default aten.bitwise_and.Tensor aten.bitwise_and.Scalar", "bitwise_and", binary_op<BAnd>},
    {"torch.bitwise_or", "torch.Tensor.bitwise_or aten.bitwise_or.default aten.bitwise_or.Tensor aten.bitwise_or.Scalar", "bitwise_or", binary_op<BOr>},
    {"torch.bitwise_xor", "torch.Tensor.bitwise_xor aten.bitwise_xor.default aten.bitwise_xor.Tensor aten.bitwise_xor.Scalar", "bitwise_xor", binary_op<BXor>},
    {"torch.bitwise_left_shift", "torch.Tensor.bitwise_left_shift aten.bitwise_left_shift.default aten.bitwise_left_shift.Tensor aten.bitwise_left_shift.Scalar aten.__lshift__.Tensor aten.__lshift__.Scalar", "bitwise_left_shift", binary_op<LShift>},
    {"torch.bitwise_right_shift", "torch.Tensor.bitwise_right_shift aten.bitwise_right_shift.default aten.bitwise_right_shift.Tensor aten.bitwise_right_shift.Scalar aten.__rshift__.Tensor aten.__rshift__.Scalar", "bitwise_right_shift", binary_op<RShift>},
    {"torch.maximum", "torch.Tensor.maximum aten.maximum.default aten.maximum.Tensor aten.maximum.Scalar", "maximum", binary_op<Max>},
    {"torch.minimum", "torch.Tensor.minimum aten.minimum.default aten.minimum.Tensor aten.minimum.Scalar", "minimum", binary_op<Min>},
    {"torch.fmax", "torch.Tensor.fmax aten.fmax.default aten.fmax.Tensor aten.fmax.Scalar", "fmax", binary_op<FMax>},
    {"torch.fmin", "torch.Tensor.fmin aten.fmin.default aten.fmin.Tensor aten.fmin.Scalar", "fmin", binary_op<FMin>},
    {"torch.fmod", "torch.Tensor.fmod aten.fmod.default aten.fmod.Tensor aten.fmod.Scalar", "fmod", binary_op<FMod>},
    {"torch.atan2", "torch.Tensor.atan2 aten.atan2.default aten.atan2.Tensor aten.atan2.Scalar torch.arctan2 torch.Tensor.arctan2", "atan2 arctan2", binary_op<Atan2>},
    {"torch.hypot", "torch.Tensor.hypot aten.hypot.default aten.hypot.Tensor aten.hypot.Scalar", "hypot", binary_op<Hypot>},
    {"torch.copysign", "torch.Tensor.copysign aten.copysign.default aten.copysign.Tensor aten.copysign.Scalar", "copysign", binary_op<Copysign>},
    {"torch.lerp", "torch.Tensor.lerp aten.lerp.default aten.lerp.Tensor aten.lerp.Scalar", "lerp", lerp_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
