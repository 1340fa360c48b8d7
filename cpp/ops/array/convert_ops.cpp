// Conversions and copies: to(dtype / device / other), type, float/double/half/long/int/bool..., type_as,
// clone, aten._to_copy, lift_fresh_copy, copy_/copy, fill_/zero_. `to` returns the input itself when
// nothing changes (as torch does, so later in-place ops alias it); the copying forms always copy.
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

bool is_dtype(const Object& o) { return o.is_value() && o.value().kind() == ValueKind::Dtype; }
bool is_device(const Object& o) {
  return o.is_value() && (o.value().kind() == ValueKind::Device || o.value().kind() == ValueKind::Str);
}

Tensor converted(const Tensor& x, DType dtype, bool copy) {
  if (x.dtype() == dtype) return copy ? x.clone() : x;
  return to_dtype_discarding_imag(x, dtype);
}

// x.to(dtype), x.to(device), x.to(device, dtype), x.to(other), with non_blocking/copy/memory_format.
Object to_op(const OpCall& call) {
  if (call.args.empty() || !call.args[0].is_tensor()) throw FxError("to(): expected a Tensor");
  const Tensor& x = call.args[0].tensor();
  std::optional<DType> dtype;
  bool copy = false;
  for (size_t i = 1; i < call.args.size(); ++i) {
    const Object& a = call.args[i];
    if (is_dtype(a)) dtype = dtype_from_name(a.value().as_str());
    else if (a.is_tensor()) dtype = a.tensor().dtype();
    else if (is_device(a) || (a.is_value() && a.value().is_none())) continue;
    else if (a.is_value() && a.value().kind() == ValueKind::Bool) {
      if (i == call.args.size() - 1 && i >= 2) copy = a.value().as_bool();  // to(dtype, non_blocking, copy)
    } else {
      throw FxError("to() received an invalid combination of arguments: " + a.describe());
    }
  }
  for (const auto& [k, v] : call.kwargs) {
    if (k == "dtype") {
      if (is_dtype(v)) dtype = dtype_from_name(v.value().as_str());
    } else if (k == "copy") {
      copy = v.is_value() && v.value().kind() == ValueKind::Bool && v.value().as_bool();
    } else if (k != "device" && k != "non_blocking" && k != "memory_format" && k != "layout" && k != "pin_memory") {
      throw FxError("to() got an unexpected keyword argument '" + k + "'");
    }
  }
  return converted(x, dtype.value_or(x.dtype()), copy);
}

// aten._to_copy(self, *, dtype=None, ...): always a new tensor.
Object to_copy_op(const OpCall& call) {
  static const Schema schema("_to_copy(input|self, *, dtype=None, layout=None, device=None, pin_memory=None, "
                             "non_blocking=False, memory_format=None)");
  Args a = schema.parse(call);
  return converted(a.tensor(0), a.dtype(1).value_or(a.tensor(0).dtype()), true);
}

const char* legacy_type_name(DType t) {
  switch (t) {
    case DType::Float32: return "torch.FloatTensor";
    case DType::Float64: return "torch.DoubleTensor";
    case DType::Float16: return "torch.HalfTensor";
    case DType::BFloat16: return "torch.BFloat16Tensor";
    case DType::Int64: return "torch.LongTensor";
    case DType::Int32: return "torch.IntTensor";
    case DType::Int16: return "torch.ShortTensor";
    case DType::Int8: return "torch.CharTensor";
    case DType::UInt8: return "torch.ByteTensor";
    case DType::Bool: return "torch.BoolTensor";
    case DType::Complex64: return "torch.ComplexFloatTensor";
    case DType::Complex128: return "torch.ComplexDoubleTensor";
  }
  return "?";
}

Object type_op(const OpCall& call) {
  static const Schema schema("type(input|self, dtype=None, non_blocking=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.is_none(1)) return Object(Value::str(legacy_type_name(x.dtype())));
  if (is_dtype(a[1])) return converted(x, *a.dtype(1), false);
  const std::string name = a.str(1);
  for (DType t : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int64, DType::Int32,
                  DType::Int16, DType::Int8, DType::UInt8, DType::Bool})
    if (name == legacy_type_name(t)) return converted(x, t, false);
  throw FxError("invalid type: '" + name + "'");
}

Object type_as_op(const OpCall& call) {
  static const Schema schema("type_as(input|self, other)");
  Args a = schema.parse(call);
  return converted(a.tensor(0), a.tensor(1).dtype(), false);
}

// x.float(), x.long(), ...: one function per target dtype.
template <DType kTo>
Object cast_op(const OpCall& call) {
  static const Schema schema("cast(input|self, memory_format=None)");
  Args a = schema.parse(call);
  return converted(a.tensor(0), kTo, false);
}

Object clone_op(const OpCall& call) {
  static const Schema schema("clone(input|self, *, memory_format=None)");
  return schema.parse(call).tensor(0).clone();
}

Object lift_fresh_op(const OpCall& call) {
  static const Schema schema("lift_fresh(input|self)");
  return schema.parse(call).tensor(0);
}

// x.copy_(src): src broadcast and converted into x's storage; returns x.
Object copy_inplace_op(const OpCall& call) {
  static const Schema schema("copy_(input|self, src, non_blocking=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  copy_into(x, a.tensor(1));
  return x;
}

// aten.copy(self, src): what copy_ would leave in self, as a new tensor.
Object copy_op(const OpCall& call) {
  static const Schema schema("copy(input|self, src, non_blocking=False)");
  Args a = schema.parse(call);
  Tensor out = Tensor::empty(a.tensor(0).shape(), a.tensor(0).dtype());
  copy_into(out, a.tensor(1));
  return out;
}

Tensor fill_value(const Object& v, DType dtype) {
  if (v.is_tensor()) {
    if (v.tensor().dim() != 0)
      throw FxError("fill_ only supports 0-dimension value tensor but got tensor with " +
                    std::to_string(v.tensor().dim()) + " dimensions.");
    return v.tensor();
  }
  return checked_scalar_tensor(to_number(v), dtype);
}

Object fill_inplace_op(const OpCall& call) {
  static const Schema schema("fill_(input|self, value)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  copy_into(x, fill_value(a[1], x.dtype()));
  return x;
}

Object fill_op(const OpCall& call) {
  static const Schema schema("fill(input|self, value)");
  Args a = schema.parse(call);
  Tensor out = Tensor::empty(a.tensor(0).shape(), a.tensor(0).dtype());
  copy_into(out, fill_value(a[1], out.dtype()));
  return out;
}

Object zero_inplace_op(const OpCall& call) {
  static const Schema schema("zero_(input|self)");
  Args a = schema.parse(call);
  copy_into(a.tensor(0), scalar_tensor(Number::integer(0), a.tensor(0).dtype()));
  return a.tensor(0);
}

const OpRow kOps[] = {
    {"torch.Tensor.to", "aten.to.dtype aten.to.device aten.to.dtype_layout aten.to.other aten.to.prim_Device", "to", to_op},
    {"aten._to_copy.default", "", "", to_copy_op},
    {"torch.Tensor.type", "", "type", type_op},
    {"torch.Tensor.type_as", "aten.type_as.default", "type_as", type_as_op},
    {"torch.Tensor.float", "", "float", cast_op<DType::Float32>},
    {"torch.Tensor.double", "", "double", cast_op<DType::Float64>},
    {"torch.Tensor.half", "", "half", cast_op<DType::Float16>},
    {"torch.Tensor.bfloat16", "", "bfloat16", cast_op<DType::BFloat16>},
    {"torch.Tensor.long", "", "long", cast_op<DType::Int64>},
    {"torch.Tensor.int", "", "int", cast_op<DType::Int32>},
    {"torch.Tensor.short", "", "short", cast_op<DType::Int16>},
    {"torch.Tensor.char", "", "char", cast_op<DType::Int8>},
    {"torch.Tensor.byte", "", "byte", cast_op<DType::UInt8>},
    {"torch.Tensor.bool", "", "bool", cast_op<DType::Bool>},
    {"torch.Tensor.cfloat", "", "cfloat", cast_op<DType::Complex64>},
    {"torch.Tensor.cdouble", "", "cdouble", cast_op<DType::Complex128>},
    {"torch.clone", "torch.Tensor.clone aten.clone.default aten.lift_fresh_copy.default aten.alias_copy.default aten.detach_copy.default", "clone", clone_op},
    {"aten.lift_fresh.default", "aten.lift.default", "", lift_fresh_op},
    {"torch.Tensor.copy_", "aten.copy_.default", "copy_", copy_inplace_op},
    {"aten.copy.default", "", "", copy_op},
    {"torch.Tensor.fill_", "aten.fill_.Scalar aten.fill_.Tensor", "fill_", fill_inplace_op},
    {"torch.fill", "aten.fill.Scalar aten.fill.Tensor", "", fill_op},
    {"torch.Tensor.zero_", "torch.zero_ aten.zero_.default", "zero_", zero_inplace_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
