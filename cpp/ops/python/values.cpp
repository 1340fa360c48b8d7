// Python-level values in a graph: operator.getitem / setitem on tensors, tuples, lists, torch.Size and
// dicts; getattr(x, "shape"/"dtype"/"T"...); size()/dim()/numel()/item(); builtins len, int, float, bool,
// max, min; torch._assert and the assertion nodes torch.export adds; operator.not_/truth/pos/invert/
// and_/or_/xor/lshift/rshift/is_/is_not on Python numbers (tensors go to the bitwise ops).
#include <algorithm>
#include <cmath>

#include "ops/call_op.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/shape_ops.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object ints_tuple(const Shape& s) {
  std::vector<Object> items;
  for (int64_t v : s) items.emplace_back(Value::integer(v));
  return Object::tuple(std::move(items));
}

// Python's slice.indices for a sequence of length n, then the selected positions.
std::vector<int64_t> slice_positions(const Value& slice, int64_t n) {
  const ValueList& p = slice.items();
  int64_t step = p[2].is_none() ? 1 : p[2].as_int();
  if (step == 0) throw FxError("slice step cannot be zero");
  auto bound = [&](const Value& v, int64_t dflt) {
    if (v.is_none()) return dflt;
    int64_t i = v.as_int();
    if (i < 0) i = std::max<int64_t>(i + n, step < 0 ? -1 : 0);
    else i = std::min<int64_t>(i, step < 0 ? n - 1 : n);
    return i;
  };
  int64_t start = bound(p[0], step < 0 ? n - 1 : 0), stop = bound(p[1], step < 0 ? -1 : n);
  std::vector<int64_t> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(i);
  return out;
}

Object getitem_op(const OpCall& call) {
  static const Schema schema("getitem(a, b)");
  Args a = schema.parse(call);
  const Object& obj = a[0];
  const Object& idx = a[1];
  if (obj.is_tensor()) return tensor_getitem(obj.tensor(), idx);
  if (obj.is_sequence()) {
    const auto& items = obj.items();
    const int64_t n = static_cast<int64_t>(items.size());
    const char* kind = obj.kind() == Object::Kind::Tuple ? "tuple" : "list";  // for messages
    if (idx.is_value() && idx.value().kind() == ValueKind::Slice) {
      std::vector<Object> out;
      for (int64_t i : slice_positions(idx.value(), n)) out.push_back(items[i]);
      return obj.kind() == Object::Kind::Tuple ? Object::tuple(std::move(out)) : Object::list(std::move(out));
    }
    if (!is_int_object(idx) && !idx.is_tensor())
      throw FxError(std::string(kind) + " indices must be integers or slices, not " + idx.describe());
    const int64_t i = idx.is_value() && idx.value().kind() == ValueKind::Int ? idx.value().as_int()
                                                                            : int_of(idx, std::string(kind) + " index");
    if (i < -n || i >= n) throw FxError(std::string(kind) + " index out of range");
    return items[i < 0 ? i + n : i];
  }
  if (obj.kind() == Object::Kind::Dict) {
    const std::string key = idx.is_value() && idx.value().kind() == ValueKind::Str ? idx.value().as_str() : "";
    for (const auto& [k, v] : obj.dict_items())
      if (k == key) return v;
    throw FxError("KeyError: " + idx.describe());
  }
  throw FxError("'" + obj.describe() + "' object is not subscriptable");
}

Object setitem_op(const OpCall& call) {
  static const Schema schema("setitem(a, b, c)");
  Args a = schema.parse(call);
  if (!a[0].is_tensor()) throw FxError("setitem on " + a[0].describe() + " is not supported (values are immutable)");
  tensor_setitem(a.tensor(0), a[1], a[2]);
  return Object();
}

Object tensor_attr(const Tensor& x, const std::string& name, bool* found) {
  *found = true;
  if (name == "shape") return ints_tuple(x.shape());
  if (name == "dtype") return Object(Value::dtype(dtype_name(x.dtype())));
  if (name == "device") return Object(Value::device("cpu"));
  if (name == "ndim") return Object(Value::integer(x.dim()));
  if (name == "T") return tensor_T(x);
  if (name == "mT") return tensor_mT(x);
  // the conjugate transposes: conjugated (a copy) for a complex tensor, the transpose view otherwise
  auto adjoint = [](Object t) { return dtype_is_complex(t.tensor().dtype()) ? call_op("torch.conj", {t}) : t; };
  if (name == "mH") return adjoint(tensor_mT(x));
  if (name == "H") {
    if (x.dim() > 2) throw FxError("tensor.H is only supported on matrices (2-D tensors). Got " +
                                   std::to_string(x.dim()) + "-D tensor.");
    return adjoint(tensor_T(x));
  }
  if (name == "real" || name == "imag") return call_op(name == "real" ? "torch.real" : "torch.imag", {Object(x)});
  if (name == "data") return make_view(x, x.shape(), x.strides(), x.offset());
  if (name == "is_cuda" || name == "requires_grad" || name == "is_quantized" || name == "is_sparse" ||
      name == "is_meta")
    return Object(Value::boolean(false));
  if (name == "is_cpu" || name == "is_leaf") return Object(Value::boolean(true));
  if (name == "layout") return Object(Value::layout("strided"));
  if (name == "itemsize") return Object(Value::integer(static_cast<int64_t>(dtype_size(x.dtype()))));
  if (name == "nbytes") return Object(Value::integer(static_cast<int64_t>(x.nbytes())));
  if (name == "grad") return Object();
  *found = false;
  return Object();
}

Object getattr_op(const OpCall& call) {
  static const Schema schema("getattr(object, name, default=None)");
  Args a = schema.parse(call);
  const std::string name = a.str(1);
  bool found = false;
  Object r;
  if (a[0].is_tensor()) r = tensor_attr(a.tensor(0), name, &found);
  else if (a[0].is_value() && a[0].value().kind() == ValueKind::Dtype) {
    DType t = dtype_from_name(a[0].value().as_str());
    found = true;
    if (name == "is_floating_point") r = Object(Value::boolean(dtype_is_floating(t)));
    else if (name == "is_complex") r = Object(Value::boolean(dtype_is_complex(t)));
    else if (name == "itemsize") r = Object(Value::integer(static_cast<int64_t>(dtype_size(t))));
    else if (name == "is_signed") r = Object(Value::boolean(t != DType::UInt8 && t != DType::Bool));
    else found = false;
  } else if (a[0].kind() == Object::Kind::Tuple && a[0].items().size() == 2) {
    // torch.return_types pairs as plain tuples: (values, indices) of max/min/sort/topk/kthvalue/median/
    // mode/cummax/cummin, (min, max) of aminmax
    found = true;
    if (name == "values" || name == "min") r = a[0].items()[0];
    else if (name == "indices" || name == "max") r = a[0].items()[1];
    else found = false;
  }
  if (found) return r;
  if (a.given(2)) return a[2];
  throw FxError("AttributeError: '" + (a[0].is_tensor() ? std::string("Tensor") : a[0].describe()) +
                "' object has no attribute '" + name + "'");
}

Object size_op(const OpCall& call) {
  static const Schema schema("size(input|self, dim=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.is_none(1)) return ints_tuple(x.shape());
  if (x.dim() == 0) checked_dim(a.integer(1), 0);
  return Object(Value::integer(x.dim() == 0 ? 1 : x.shape()[checked_dim(a.integer(1), x.dim())]));
}

Object stride_op(const OpCall& call) {
  static const Schema schema("stride(input|self, dim=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.is_none(1)) return ints_tuple(x.strides());
  return Object(Value::integer(x.dim() == 0 ? 1 : x.strides()[checked_dim(a.integer(1), x.dim())]));
}

Object dim_op(const OpCall& call) {
  static const Schema schema("dim(input|self)");
  return Object(Value::integer(schema.parse(call).tensor(0).dim()));
}

Object numel_op(const OpCall& call) {
  static const Schema schema("numel(input|self)");
  return Object(Value::integer(schema.parse(call).tensor(0).numel()));
}

Object item_op(const OpCall& call) {
  static const Schema schema("item(input|self)");
  return tensor_item(schema.parse(call).tensor(0)).to_object();
}

Object is_floating_point_op(const OpCall& call) {
  static const Schema schema("is_floating_point(input|self)");
  return Object(Value::boolean(dtype_is_floating(schema.parse(call).tensor(0).dtype())));
}

Object is_complex_op(const OpCall& call) {
  static const Schema schema("is_complex(input|self)");
  return Object(Value::boolean(dtype_is_complex(schema.parse(call).tensor(0).dtype())));
}

Object is_contiguous_op(const OpCall& call) {
  static const Schema schema("is_contiguous(input|self, memory_format=None)");
  return Object(Value::boolean(schema.parse(call).tensor(0).is_contiguous()));
}

Object len_op(const OpCall& call) {
  static const Schema schema("len(obj)");
  Args a = schema.parse(call);
  if (a[0].is_tensor()) {
    if (a.tensor(0).dim() == 0) throw FxError("len() of a 0-d tensor");
    return Object(Value::integer(a.tensor(0).shape()[0]));
  }
  if (a[0].is_sequence()) return Object(Value::integer(static_cast<int64_t>(a[0].items().size())));
  if (a[0].kind() == Object::Kind::Dict) return Object(Value::integer(static_cast<int64_t>(a[0].dict_items().size())));
  if (a[0].is_value() && a[0].value().kind() == ValueKind::Str)
    return Object(Value::integer(static_cast<int64_t>(a[0].value().as_str().size())));
  throw FxError("object of type '" + a[0].describe() + "' has no len()");
}

// A Python number from a number or a one-element tensor (int(t), float(t), bool(t)).
Number number_of(const Object& o, const std::string& fn) {
  if (o.is_tensor()) return tensor_item(o.tensor());
  if (is_number(o)) return to_number(o);
  throw FxError(fn + "() argument must be a number or a one-element tensor, not " + o.describe());
}

Object int_op(const OpCall& call) {
  static const Schema schema("int(x=0)");
  Number n = number_of(schema.parse(call)[0], "int");
  if (!n.is_float()) return Object(Value::integer(n.i));
  if (std::isnan(n.d)) throw FxError("ValueError: cannot convert float NaN to integer");
  if (std::isinf(n.d)) throw FxError("OverflowError: cannot convert float infinity to integer");
  if (std::fabs(n.d) >= 9.2233720368547758e18) throw FxError("integer overflow (fxwasm has no big ints)");
  return Object(Value::integer(static_cast<int64_t>(n.d)));
}

Object float_op(const OpCall& call) {
  static const Schema schema("float(x=0.0)");
  return Object(Value::floating(number_of(schema.parse(call)[0], "float").as_double()));
}

bool truthy(const Object& o) {
  if (o.is_tensor()) {
    if (o.tensor().numel() != 1)
      throw FxError("Boolean value of Tensor with more than one value is ambiguous");
    Number n = tensor_item(o.tensor());
    return n.is_float() ? n.d != 0 : n.i != 0;
  }
  if (o.is_sequence()) return !o.items().empty();
  if (o.kind() == Object::Kind::Dict) return !o.dict_items().empty();
  const Value& v = o.value();
  switch (v.kind()) {
    case ValueKind::None: return false;
    case ValueKind::Bool: return v.as_bool();
    case ValueKind::Int: return v.as_int() != 0;
    case ValueKind::Float: return v.as_float() != 0;
    case ValueKind::Str: return !v.as_str().empty();
    default: return true;
  }
}

Object bool_op(const OpCall& call) {
  static const Schema schema("bool(x=False)");
  return Object(Value::boolean(truthy(schema.parse(call)[0])));
}
Object truth_op(const OpCall& call) {
  static const Schema schema("truth(a)");
  return Object(Value::boolean(truthy(schema.parse(call)[0])));
}
Object not_op(const OpCall& call) {
  static const Schema schema("not_(a)");
  return Object(Value::boolean(!truthy(schema.parse(call)[0])));
}

// max(a, b, ...) or max(iterable) over Python numbers; the first of equal extremes wins, as in Python.
Object minmax(const OpCall& call, bool is_max) {
  const char* fn = is_max ? "max" : "min";
  if (!call.kwargs.empty()) throw FxError(std::string(fn) + "() keyword arguments are not supported");
  std::vector<Object> items = call.args;
  if (items.size() == 1 && items[0].is_sequence()) items = items[0].items();
  if (items.empty()) throw FxError(std::string(fn) + "() arg is an empty sequence");
  Object best = items[0];
  for (size_t i = 1; i < items.size(); ++i) {
    if (!is_number(items[i]) || !is_number(best))
      throw FxError(std::string(fn) + "() of tensors: use torch.maximum / torch.minimum");
    Number r = py_binary(is_max ? PyBinary::Gt : PyBinary::Lt, to_number(items[i]), to_number(best));
    if (r.i) best = items[i];
  }
  return best;
}
Object max_op(const OpCall& call) { return minmax(call, true); }
Object min_op(const OpCall& call) { return minmax(call, false); }

Object assert_op(const OpCall& call) {
  static const Schema schema("_assert(condition, message=None)");
  Args a = schema.parse(call);
  if (!truthy(a[0])) {
    std::string msg = a.is_none(1) ? "Assertion failed" : a[1].is_value() ? a[1].value().as_str() : "Assertion failed";
    throw FxError("AssertionError: " + msg);
  }
  return Object();
}

// symbolic_trace's check of an argument specialised to None by concrete_args.
Object assert_is_none_op(const OpCall& call) {
  static const Schema schema("_assert_is_none(value, msg)");
  Args a = schema.parse(call);
  if (!a.is_none(0)) throw FxError("AssertionError: " + (a[1].is_value() ? a[1].value().as_str() : std::string("expected None")));
  return Object();
}

// torch.export's range/metadata assertions: nothing to check without symbolic shapes.
Object noop_op(const OpCall&) { return Object(); }

// Python int operators; tensors go to the tensor op `tensor_target`.
template <int kOp>
Object int_bitwise(const OpCall& call) {
  static const char* names[] = {"and_", "or_", "xor", "lshift", "rshift"};
  static const char* tensor_ops[] = {"torch.bitwise_and", "torch.bitwise_or", "torch.bitwise_xor",
                                     "torch.bitwise_left_shift", "torch.bitwise_right_shift"};
  static const Schema schema(std::string(names[kOp]) + "(a, b)");
  Args a = schema.parse(call);
  if (a[0].is_tensor() || a[1].is_tensor()) return OpRegistry::global().call(tensor_ops[kOp], {a[0], a[1]});
  Number x = a.number(0), y = a.number(1);
  static const char* symbols[] = {"&", "|", "^", "<<", ">>"};
  auto type = [](Number n) { return n.is_float() ? "'float'" : n.kind == ScalarKind::Bool ? "'bool'" : "'int'"; };
  if (x.is_float() || y.is_float())
    throw FxError(std::string("TypeError: unsupported operand type(s) for ") + symbols[kOp] + ": " + type(x) +
                  " and " + type(y));
  if (kOp <= 2 && x.kind == ScalarKind::Bool && y.kind == ScalarKind::Bool) {
    bool r = kOp == 0 ? (x.i && y.i) : kOp == 1 ? (x.i || y.i) : (x.i != y.i);
    return Object(Value::boolean(r));
  }
  if (kOp >= 3 && y.i < 0) throw FxError("ValueError: negative shift count");
  int64_t r = 0;
  switch (kOp) {
    case 0: r = x.i & y.i; break;
    case 1: r = x.i | y.i; break;
    case 2: r = x.i ^ y.i; break;
    case 3:
      if (y.i >= 63 || (x.i != 0 && (x.i > (INT64_MAX >> y.i) || x.i < (INT64_MIN >> y.i))))
        throw FxError("integer overflow in << (fxwasm has no big ints)");
      r = static_cast<int64_t>(static_cast<uint64_t>(x.i) << y.i);
      break;
    default: r = y.i >= 63 ? (x.i < 0 ? -1 : 0) : (x.i >> y.i); break;
  }
  return Object(Value::integer(r));
}

Object invert_op(const OpCall& call) {
  static const Schema schema("invert(a)");
  Args a = schema.parse(call);
  if (a[0].is_tensor()) return OpRegistry::global().call("torch.bitwise_not", {a[0]});
  Number x = a.number(0);
  if (x.is_float()) throw FxError("TypeError: bad operand type for unary ~: 'float'");
  return Object(Value::integer(~x.i));
}

Object pos_op(const OpCall& call) {
  static const Schema schema("positive(input|self)");
  Args a = schema.parse(call);
  if (is_number(a[0])) {
    Number n = a.number(0);
    return n.kind == ScalarKind::Bool ? Object(Value::integer(n.i)) : n.to_object();
  }
  const Tensor& x = a.tensor(0);
  if (x.dtype() == DType::Bool) throw FxError("The `+` operator, on a bool tensor is not supported.");
  return x;  // torch.positive returns its input itself
}

bool same_object(const Object& a, const Object& b) {
  if (a.kind() != b.kind()) return false;
  if (a.is_tensor())
    return a.tensor().storage() == b.tensor().storage() && a.tensor().offset() == b.tensor().offset() &&
           a.tensor().shape() == b.tensor().shape() && a.tensor().strides() == b.tensor().strides();
  if (a.is_value()) return a.value() == b.value();
  return false;
}
Object is_op(const OpCall& call) {
  static const Schema schema("is_(a, b)");
  Args a = schema.parse(call);
  return Object(Value::boolean(same_object(a[0], a[1])));
}
Object is_not_op(const OpCall& call) {
  static const Schema schema("is_not(a, b)");
  Args a = schema.parse(call);
  return Object(Value::boolean(!same_object(a[0], a[1])));
}

const OpRow kOps[] = {
    {"operator.getitem", "aten.getitem", "__getitem__", getitem_op},
    {"operator.setitem", "", "__setitem__", setitem_op},
    {"builtins.getattr", "getattr", "", getattr_op},
    {"torch.Tensor.size", "aten.sym_size.int aten.sym_size.default aten.size.int aten.size.default", "size", size_op},
    {"torch.Tensor.stride", "aten.sym_stride.int aten.stride.int", "stride", stride_op},
    {"torch.Tensor.dim", "aten.dim.default torch.Tensor.ndimension", "dim ndimension", dim_op},
    {"torch.numel", "torch.Tensor.numel torch.Tensor.nelement aten.numel.default aten.sym_numel.default", "numel nelement", numel_op},
    {"torch.Tensor.item", "aten.item.default aten._local_scalar_dense.default", "item", item_op, nullptr, true},
    {"torch.is_floating_point", "torch.Tensor.is_floating_point", "is_floating_point", is_floating_point_op},
    {"torch.is_complex", "torch.Tensor.is_complex", "is_complex", is_complex_op},
    {"torch.Tensor.is_contiguous", "aten.is_contiguous.default", "is_contiguous", is_contiguous_op},
    {"builtins.len", "len aten.len.t aten.len.Tensor", "__len__", len_op},
    {"builtins.int", "int aten.Int.Tensor aten.sym_int", "__int__", int_op},
    {"builtins.float", "float aten.Float.Tensor aten.sym_float", "__float__", float_op},
    {"builtins.bool", "bool aten.Bool.Tensor", "__bool__", bool_op},
    {"builtins.max", "max torch.sym_max", "", max_op},
    {"builtins.min", "min torch.sym_min", "", min_op},
    {"torch._assert", "torch._assert_async aten._assert_async.msg aten._assert_async.default aten._assert_scalar.default torch._check", "", assert_op},
    {"torch.fx._symbolic_trace._assert_is_none", "", "", assert_is_none_op},
    {"aten.sym_constrain_range_for_size.default", "aten.sym_constrain_range.default aten._assert_tensor_metadata.default torch._check_is_size", "", noop_op},
    {"operator.truth", "", "", truth_op},
    {"operator.not_", "", "", not_op},
    {"operator.and_", "", "__and__ __rand__", int_bitwise<0>},
    {"operator.or_", "", "__or__ __ror__", int_bitwise<1>},
    {"operator.xor", "", "__xor__ __rxor__", int_bitwise<2>},
    {"operator.lshift", "", "__lshift__", int_bitwise<3>},
    {"operator.rshift", "", "__rshift__", int_bitwise<4>},
    {"operator.invert", "operator.inv", "__invert__", invert_op},
    {"operator.pos", "torch.positive torch.Tensor.positive aten.positive.default", "positive __pos__", pos_op},
    {"operator.is_", "", "", is_op},
    {"operator.is_not", "", "", is_not_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
