// Tensor creation: arange, zeros/ones/full/empty (and *_like, new_*), eye, linspace, torch.tensor and
// scalar_tensor, with torch's dtype inference (ints → int64, floats → the default float32, bools → bool).
// device/layout/pin_memory/requires_grad/memory_format are accepted and ignored: everything lives on
// the CPU in a strided layout here. empty* returns zeros so results never depend on stale memory.
#include <cmath>

#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/promote.h"

namespace fx {
namespace {

Number number_of(const Object& o, const std::string& what) {
  if (o.is_tensor()) return tensor_item(o.tensor());
  if (is_number(o)) return to_number(o);
  throw FxError(what + " must be a number, not " + o.describe());
}

Tensor filled(const Shape& shape, DType dtype, Number value) {
  Tensor t = Tensor::empty(shape, dtype);
  Tensor v = checked_scalar_tensor(value, dtype);  // torch checks the value even for an empty result
  if (t.numel() > 0) copy_into(t, v);
  return t;
}

// Splits a call's keyword arguments into the size keyword (if any) and the factory options.
struct Factory {
  std::optional<DType> dtype;
  std::optional<Object> size_kw;
  std::optional<Object> fill_kw;
};

Factory factory_kwargs(const OpCall& call, const std::string& op, const char* size_name = "size",
                       const char* fill_name = nullptr) {
  Factory f;
  for (const auto& [k, v] : call.kwargs) {
    if (k == "dtype") {
      if (!(v.is_value() && v.value().is_none())) {
        if (!v.is_value() || v.value().kind() != ValueKind::Dtype)
          throw FxError(op + "(): argument 'dtype' must be torch.dtype, not " + v.describe());
        f.dtype = dtype_from_name(v.value().as_str());
      }
    } else if (k == size_name) {
      f.size_kw = v;
    } else if (fill_name && k == fill_name) {
      f.fill_kw = v;
    } else if (k != "layout" && k != "device" && k != "pin_memory" && k != "requires_grad" &&
               k != "memory_format" && k != "non_blocking") {
      throw FxError(op + "() got an unexpected keyword argument '" + k + "'");
    }
  }
  return f;
}

DType dtype_of_number(Number n) { return scalar_kind_dtype(n.kind); }

// zeros/ones/empty(*size, dtype=...)
template <int kFill>  // 0 zeros, 1 ones, 2 empty
Object constant_op(const OpCall& call) {
  static const char* names[] = {"zeros", "ones", "empty"};
  Factory f = factory_kwargs(call, names[kFill]);
  OpCall c;
  c.args = call.args;
  if (f.size_kw) c.kwargs.emplace_back("size", *f.size_kw);
  Shape shape = vararg_ints(c, 0, "size", names[kFill]);
  for (int64_t d : shape)
    if (d < 0) throw FxError("Trying to create tensor with negative dimension " + std::to_string(d) + ": " +
                             shape_to_string(shape));
  return filled(shape, f.dtype.value_or(kDefaultFloat), Number::integer(kFill == 1 ? 1 : 0));
}

Object full_op(const OpCall& call) {
  Factory f = factory_kwargs(call, "full", "size", "fill_value");
  std::vector<Object> pos = call.args;
  if (f.size_kw) pos.insert(pos.begin(), *f.size_kw);
  if (f.fill_kw) pos.push_back(*f.fill_kw);
  if (pos.size() != 2) throw FxError("full() expects (size, fill_value)");
  Shape shape = ints_of(pos[0], "full(): argument 'size'");
  Number v = number_of(pos[1], "full(): argument 'fill_value'");
  return filled(shape, f.dtype.value_or(dtype_of_number(v)), v);
}

// *_like(input, [fill_value], dtype=...): input's shape, and its dtype unless given.
template <int kFill>  // 0 zeros, 1 ones, 2 empty, 3 full
Object like_op(const OpCall& call) {
  static const char* names[] = {"zeros_like", "ones_like", "empty_like", "full_like"};
  Factory f = factory_kwargs(call, names[kFill], "input", kFill == 3 ? "fill_value" : nullptr);
  std::vector<Object> pos = call.args;
  if (f.size_kw) pos.insert(pos.begin(), *f.size_kw);
  if (f.fill_kw) pos.push_back(*f.fill_kw);
  if (pos.size() != (kFill == 3 ? 2u : 1u) || !pos[0].is_tensor())
    throw FxError(std::string(names[kFill]) + "(): expected (input" + (kFill == 3 ? ", fill_value)" : ")"));
  const Tensor& x = pos[0].tensor();
  Number v = kFill == 3 ? number_of(pos[1], "fill_value") : Number::integer(kFill == 1 ? 1 : 0);
  return filled(x.shape(), f.dtype.value_or(x.dtype()), v);
}

// self.new_zeros(size, dtype=...): self's dtype unless given.
template <int kFill>
Object new_op(const OpCall& call) {
  static const char* names[] = {"new_zeros", "new_ones", "new_empty", "new_full"};
  Factory f = factory_kwargs(call, names[kFill], "size", kFill == 3 ? "fill_value" : nullptr);
  if (call.args.empty() || !call.args[0].is_tensor())
    throw FxError(std::string(names[kFill]) + "(): expected a Tensor");
  const Tensor& x = call.args[0].tensor();
  OpCall c;
  std::optional<Object> fill = f.fill_kw;
  c.args.assign(call.args.begin() + 1, call.args.end());
  if (kFill == 3 && !fill) {
    if (c.args.size() < 2) throw FxError("new_full() missing required argument 'fill_value'");
    fill = c.args.back();
    c.args.pop_back();
  }
  if (f.size_kw) c.kwargs.emplace_back("size", *f.size_kw);
  Shape shape = vararg_ints(c, 0, "size", names[kFill]);
  Number v = kFill == 3 ? number_of(*fill, "fill_value") : Number::integer(kFill == 1 ? 1 : 0);
  return filled(shape, f.dtype.value_or(x.dtype()), v);
}

Object arange_op(const OpCall& call) {
  OpCall rest;
  std::vector<Object> pos = call.args;
  for (const auto& [k, v] : call.kwargs) {
    if (k == "start") pos.insert(pos.begin(), v);
    else if (k == "step") pos.push_back(v);
    else rest.kwargs.emplace_back(k, v);
  }
  Factory f = factory_kwargs(rest, "arange", "end");
  if (f.size_kw) pos.insert(pos.begin() + (pos.empty() ? 0 : 1), *f.size_kw);
  if (pos.empty() || pos.size() > 3) throw FxError("arange() expects (end), (start, end) or (start, end, step)");
  Number start = Number::integer(0), end, step = Number::integer(1);
  if (pos.size() == 1) {
    end = number_of(pos[0], "arange(): end");
  } else {
    start = number_of(pos[0], "arange(): start");
    end = number_of(pos[1], "arange(): end");
    if (pos.size() == 3) step = number_of(pos[2], "arange(): step");
  }
  const bool any_float = start.is_float() || end.is_float() || step.is_float();
  const DType dtype = f.dtype.value_or(any_float ? kDefaultFloat : DType::Int64);
  const double s = start.as_double(), e = end.as_double(), st = step.as_double();
  if (st == 0) throw FxError("step must be nonzero");
  if (!std::isfinite(s) || !std::isfinite(e))
    throw FxError("unsupported range: " + start.to_object().value().repr() + " -> " + end.to_object().value().repr());
  if ((st > 0 && e < s) || (st < 0 && e > s))
    throw FxError("upper bound and lower bound inconsistent with step sign");
  int64_t n;
  if (!any_float) {  // in uint64: the distance and |step| of a range across all of int64 do not overflow
    const int64_t si = start.i, ei = end.i, sti = step.i;
    const uint64_t dist = sti > 0 ? static_cast<uint64_t>(ei) - static_cast<uint64_t>(si)
                                  : static_cast<uint64_t>(si) - static_cast<uint64_t>(ei);
    const uint64_t mag = sti > 0 ? static_cast<uint64_t>(sti) : 0 - static_cast<uint64_t>(sti);
    const uint64_t count = dist / mag + (dist % mag != 0);
    if (count > static_cast<uint64_t>(INT64_MAX))
      throw FxError("Storage size calculation overflowed with sizes=[" + std::to_string(count) + "]");
    n = static_cast<int64_t>(count);
  } else {
    const double count = std::ceil((e - s) / st);
    if (!(count >= 0 && count < 9.2233720368547758e18)) throw FxError("invalid size, possible overflow?");
    n = static_cast<int64_t>(count);
  }
  if (meta_mode()) return Tensor::meta({n}, dtype);  // shape inference: no values (tensor/meta.h)
  Tensor out = Tensor::empty({n}, DType::Float64);
  Tensor out_i = Tensor::empty({n}, DType::Int64);
  // An integer dtype computes in int64 from start and step truncated (torch.arange(0, 2.5, 0.5,
  // dtype=torch.int64) is all zeros); the length still comes from the exact range.
  const bool integral = !dtype_is_floating(dtype);
  const int64_t si = start.is_float() ? static_cast<int64_t>(start.d) : start.i;
  const int64_t sti = step.is_float() ? static_cast<int64_t>(step.d) : step.i;
  for (int64_t i = 0; i < n; ++i) {
    if (integral) out_i.data<int64_t>()[i] = si + i * sti;
    else out.data<double>()[i] = s + static_cast<double>(i) * st;
  }
  return to_dtype(integral ? out_i : out, dtype);
}

Object linspace_op(const OpCall& call) {
  static const Schema schema("linspace(start, end, steps, *, dtype=None, layout=None, device=None, "
                             "pin_memory=None, requires_grad=False)");
  Args a = schema.parse(call);
  const DType dtype = a.dtype(3).value_or(kDefaultFloat);
  // an integer dtype takes start and end as integers first (torch's start.to<int64_t>()): 4.3 → 4
  const bool integral = dtype_is_integral(dtype);
  double s = number_of(a[0], "start").as_double(), e = number_of(a[1], "end").as_double();
  if (integral) s = std::trunc(s), e = std::trunc(e);
  const int64_t n = a.integer(2);
  if (n < 0) throw FxError("number of steps must be non-negative");
  if (meta_mode()) return Tensor::meta({n}, dtype);  // shape inference
  Tensor out = Tensor::empty({n}, DType::Float64);
  const double step = n > 1 ? (e - s) / static_cast<double>(n - 1) : 0.0;
  const int64_t half = n == 1 ? 1 : n / 2;
  for (int64_t i = 0; i < n; ++i)  // torch fills from both ends so the last value is exactly `end`
    out.data<double>()[i] = i < half ? s + step * static_cast<double>(i) : e - step * static_cast<double>(n - 1 - i);
  return to_dtype(out, dtype);
}

Object eye_op(const OpCall& call) {
  static const Schema schema("eye(n, m=None, *, dtype=None, layout=None, device=None, pin_memory=None, "
                             "requires_grad=False)");
  Args a = schema.parse(call);
  int64_t n = a.integer(0), m = a.is_none(1) ? n : a.integer(1);
  if (n < 0) throw FxError("n must be greater or equal to 0, got " + std::to_string(n));
  if (m < 0) throw FxError("m must be greater or equal to 0, got " + std::to_string(m));
  if (meta_mode()) return Tensor::meta({n, m}, a.dtype(2).value_or(kDefaultFloat));  // shape inference
  Tensor out = Tensor::zeros({n, m}, DType::Float64);
  for (int64_t i = 0; i < std::min(n, m); ++i) out.data<double>()[i * m + i] = 1.0;
  return to_dtype(out, a.dtype(2).value_or(kDefaultFloat));
}

// torch.tensor(data): nested lists/tuples of numbers (or one number), dtype inferred over all of them.
void flatten_data(const Object& o, size_t depth, Shape* shape, std::vector<Number>* values, ScalarKind* kind) {
  if (o.is_sequence()) {
    const int64_t n = static_cast<int64_t>(o.items().size());
    if (shape->size() == depth) shape->push_back(n);
    else if ((*shape)[depth] != n)
      throw FxError("expected sequence of length " + std::to_string((*shape)[depth]) + " at dim " +
                    std::to_string(depth) + " (got " + std::to_string(n) + ")");
    for (const Object& x : o.items()) flatten_data(x, depth + 1, shape, values, kind);
    return;
  }
  if (depth != shape->size()) throw FxError("torch.tensor(): ragged nested sequence");
  Number n = number_of(o, "torch.tensor(): element");
  if (n.kind > *kind) *kind = n.kind;
  values->push_back(n);
}

Object tensor_op(const OpCall& call) {
  static const Schema schema("tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False)");
  Args a = schema.parse(call);
  if (a[0].is_tensor()) return to_dtype(a.tensor(0), a.dtype(1).value_or(a.tensor(0).dtype())).clone();
  Shape shape;
  std::vector<Number> values;
  ScalarKind kind = ScalarKind::Bool;
  flatten_data(a[0], 0, &shape, &values, &kind);
  if (values.empty()) kind = ScalarKind::Float;  // torch.tensor([]) is float32
  const DType dtype = a.dtype(1).value_or(scalar_kind_dtype(kind));
  Tensor out = Tensor::empty(shape, dtype);
  Tensor flat = make_view(out, {out.numel()}, {1}, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    // torch.tensor checks integer dtypes only (1e300 into float32 is inf), naming the dtype its own way
    if (dtype_is_integral(dtype) && !number_fits(values[i], dtype))
      throw FxError(std::string("value cannot be converted to type ") + dtype_name(dtype) + " without overflow");
    copy_into(make_view(flat, {}, {}, static_cast<int64_t>(i)), scalar_tensor(values[i], dtype));
  }
  return out;
}

Object scalar_tensor_op(const OpCall& call) {
  static const Schema schema("scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, "
                             "requires_grad=False)");
  Args a = schema.parse(call);
  const DType dtype = a.dtype(1).value_or(kDefaultFloat);  // float16 and bfloat16 checked as float32 (torch's)
  return checked_scalar_tensor(number_of(a[0], "scalar_tensor(): s"), dtype,
                               dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : dtype);
}

const OpRow kOps[] = {
    {"torch.zeros", "aten.zeros.default", "", constant_op<0>},
    {"torch.ones", "aten.ones.default", "", constant_op<1>},
    {"torch.empty", "aten.empty.memory_format aten.empty.default", "", constant_op<2>},
    {"torch.full", "aten.full.default", "", full_op},
    {"torch.zeros_like", "aten.zeros_like.default", "", like_op<0>},
    {"torch.ones_like", "aten.ones_like.default", "", like_op<1>},
    {"torch.empty_like", "aten.empty_like.default", "", like_op<2>},
    {"torch.full_like", "aten.full_like.default", "", like_op<3>},
    {"torch.Tensor.new_zeros", "aten.new_zeros.default", "new_zeros", new_op<0>},
    {"torch.Tensor.new_ones", "aten.new_ones.default", "new_ones", new_op<1>},
    {"torch.Tensor.new_empty", "aten.new_empty.default", "new_empty", new_op<2>},
    {"torch.Tensor.new_full", "aten.new_full.default", "new_full", new_op<3>},
    {"torch.arange", "aten.arange.default aten.arange.start aten.arange.start_step", "", arange_op},
    {"torch.linspace", "aten.linspace.default", "", linspace_op},
    {"torch.eye", "aten.eye.default aten.eye.m", "", eye_op},
    {"torch.tensor", "torch.as_tensor", "", tensor_op},
    {"torch.scalar_tensor", "aten.scalar_tensor.default", "", scalar_tensor_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
