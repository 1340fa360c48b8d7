// Selection and bounds: where(cond, a, b) (tensors or Python numbers, promoted as torch does),
// masked_fill / masked_fill_, clamp / clip / clamp_min / clamp_max with number or tensor bounds.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/copy_strided.h"
#include "kernels/elementwise_f32.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor where(const Tensor& cond, const Operand& a, const Operand& b, DType dtype) {
  if (cond.dtype() != DType::Bool && cond.dtype() != DType::UInt8)
    throw FxError("where expected condition to be a boolean tensor, but got a tensor with dtype " +
                  std::string(dtype_name(cond.dtype())));
  Tensor c = to_dtype(cond, DType::Bool), ta = a.as(dtype), tb = b.as(dtype);
  Shape shape = broadcast_shapes({c.shape(), ta.shape(), tb.shape()});
  Shape cs = broadcast_strides(c, shape), as = broadcast_strides(ta, shape), bs = broadcast_strides(tb, shape);
  Tensor out = Tensor::empty(shape, dtype);
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  const int nd = static_cast<int>(shape.size());
  auto run = [&](auto w) {
    using W = decltype(w);
    kernels::where_strided(nd, shape.data(), c.data<bool>(), cs.data(), ta.data<W>(), as.data(), tb.data<W>(),
                           bs.data(), out.data<W>());
  };
  switch (dtype_size(dtype)) {
    case 1: run(uint8_t{}); break;
    case 2: run(uint16_t{}); break;
    case 4: run(uint32_t{}); break;
    case 8: run(uint64_t{}); break;
    default: run(Bytes16{}); break;
  }
  return out;
}

Object where_op(const OpCall& call) {
  static const Schema schema("where(condition, input|self=None, other=None)");
  Args a = schema.parse(call);
  if (!a.given(1) && !a.given(2))
    return OpRegistry::global().call("torch.nonzero", {a[0]}, {{"as_tuple", Object(Value::boolean(true))}});
  Operand x = Operand::of(a[1], "where", "input"), y = Operand::of(a[2], "where", "other");
  const DType dtype = result_type({x, y});
  for (const Operand* o : {&x, &y})  // a number goes into the result dtype checked, as torch's where does
    if (o->is_scalar)  // (float16 and bfloat16 are checked against float32's range there, as in torch)
      checked_scalar_tensor(o->number, dtype,
                            dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype);
  return where(a.tensor(0), x, y, dtype);
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, const Object& value) {
  if (mask.dtype() != DType::Bool) throw FxError("masked_fill_ only supports boolean masks, but got mask with dtype " +
                                                 std::string(dtype_name(mask.dtype())));
  Operand v = Operand::of(value, "masked_fill", "value");
  if (!v.is_scalar && v.tensor.dim() != 0)
    throw FxError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with " +
                  std::to_string(v.tensor.dim()) + " dimension(s).");
  if (v.is_scalar) checked_scalar_tensor(v.number, x.dtype());  // torch's overflow error for 1000 into int8
  // float32 with a number and a packed mask that repeats over x's leading dims: one pass, no broadcast walk.
  // (A finite value beyond float32's range goes the generic way, which decides what torch does with it.)
  const double fill = v.is_scalar ? v.number.as_double() : 0.0;
  if (v.is_scalar && !(std::isfinite(fill) && std::fabs(fill) > 3.4028234663852886e38) &&
      x.dtype() == DType::Float32 && !meta_mode() && !x.is_meta() && x.is_contiguous() &&
      mask.is_contiguous() && mask.dim() <= x.dim() &&
      std::equal(mask.shape().begin(), mask.shape().end(), x.shape().end() - mask.dim())) {
    Tensor out = Tensor::empty(x.shape(), DType::Float32);
    const int64_t m = mask.numel();
    kernels::masked_fill_f32(m ? x.numel() / m : 0, m, x.data<float>(), mask.data<bool>(),
                             static_cast<float>(fill), out.data<float>());
    return out;
  }
  Operand self;
  self.tensor = x;
  Tensor r = where(mask, v, self, x.dtype());
  return r;
}

// Out of place, the result takes the broadcast shape of input and mask (torch expands both).
Object masked_fill_op(const OpCall& call) {
  static const Schema schema("masked_fill(input|self, mask, value)");
  Args a = schema.parse(call);
  return masked_fill(a.tensor(0), a.tensor(1), a[2]);
}

Object masked_fill_inplace_op(const OpCall& call) { return run_inplace(masked_fill_op, call); }

// clamp in the promoted dtype; nan in the input (or a nan bound) propagates as in torch.
Tensor clamp(const Tensor& x, const Object& lo, const Object& hi) {
  const bool has_lo = !(lo.is_value() && lo.value().is_none()), has_hi = !(hi.is_value() && hi.value().is_none());
  if (!has_lo && !has_hi) throw FxError("torch.clamp: At least one of 'min' or 'max' must not be None");
  std::vector<Operand> ops;
  Operand xo;
  xo.tensor = x;
  ops.push_back(xo);
  if (has_lo) ops.push_back(Operand::of(lo, "clamp", "min"));
  if (has_hi) ops.push_back(Operand::of(hi, "clamp", "max"));
  const DType dtype = result_type(ops);
  if (dtype == DType::Bool) throw FxError("\"clamp_cpu\" not implemented for 'Bool'");
  Operand cur = xo;
  for (size_t k = 1; k < ops.size(); ++k) {
    const bool lower = has_lo && k == 1;
    Tensor r = binary_map<false>(cur, ops[k], dtype, "clamp", [lower](auto tag) {
      using T = decltype(tag);
      return [lower](T v, T b) -> T {
        if constexpr (std::is_floating_point_v<T>) {
          if (v != v) return v;
          if (b != b) return b;
        }
        return lower ? (v < b ? b : v) : (v > b ? b : v);
      };
    });
    cur = Operand();
    cur.tensor = r;
  }
  return cur.tensor;
}

Object clamp_op(const OpCall& call) {
  static const Schema schema("clamp(input|self, min=None, max=None)");
  Args a = schema.parse(call);
  return clamp(a.tensor(0), a[1], a[2]);
}
Object clamp_inplace_op(const OpCall& call) { return run_inplace(clamp_op, call); }

Object clamp_min_op(const OpCall& call) {
  static const Schema schema("clamp_min(input|self, min)");
  Args a = schema.parse(call);
  return clamp(a.tensor(0), a[1], Object());
}
Object clamp_max_op(const OpCall& call) {
  static const Schema schema("clamp_max(input|self, max)");
  Args a = schema.parse(call);
  return clamp(a.tensor(0), Object(), a[1]);
}
Object clamp_min_inplace_op(const OpCall& call) { return run_inplace(clamp_min_op, call); }
Object clamp_max_inplace_op(const OpCall& call) { return run_inplace(clamp_max_op, call); }

// x.where(condition, y): the method puts self second.
Object where_method_op(const OpCall& call) {
  static const Schema schema("where(input|self, condition, other)");
  Args a = schema.parse(call);
  Operand x = Operand::of(a[0], "where", "input"), y = Operand::of(a[2], "where", "other");
  return where(a.tensor(1), x, y, result_type({x, y}));
}

const OpRow kOps[] = {
    {"torch.Tensor.where", "", "where", where_method_op},
    {"torch.where", "aten.where.self aten.where.ScalarSelf aten.where.ScalarOther aten.where.Scalar aten.where.default", "", where_op},
    {"torch.masked_fill", "torch.Tensor.masked_fill aten.masked_fill.Scalar aten.masked_fill.Tensor", "masked_fill", masked_fill_op},
    {"torch.Tensor.masked_fill_", "aten.masked_fill_.Scalar aten.masked_fill_.Tensor", "masked_fill_", masked_fill_inplace_op},
    {"torch.clamp", "torch.clip torch.Tensor.clamp torch.Tensor.clip aten.clamp.default aten.clamp.Tensor aten.clip.default aten.clip.Tensor", "clamp clip", clamp_op},
    {"torch.clamp_", "torch.clip_ torch.Tensor.clamp_ torch.Tensor.clip_ aten.clamp_.default aten.clamp_.Tensor aten.clip_.default", "clamp_ clip_", clamp_inplace_op},
    {"torch.clamp_min", "torch.Tensor.clamp_min aten.clamp_min.default aten.clamp_min.Tensor", "clamp_min", clamp_min_op},
    {"torch.clamp_max", "torch.Tensor.clamp_max aten.clamp_max.default aten.clamp_max.Tensor", "clamp_max", clamp_max_op},
    {"torch.clamp_min_", "torch.Tensor.clamp_min_ aten.clamp_min_.default", "clamp_min_", clamp_min_inplace_op},
    {"torch.clamp_max_", "torch.Tensor.clamp_max_ aten.clamp_max_.default", "clamp_max_", clamp_max_inplace_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
