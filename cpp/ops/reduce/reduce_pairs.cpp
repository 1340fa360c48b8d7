// Reductions that return two results: var_mean / std_mean ((var or std, mean), with torch.var's argument
// forms: dim, unbiased or correction, keepdim) and aminmax ((min, max) over one dim or all).
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

bool is_bool(const Object& o) { return o.is_value() && o.value().kind() == ValueKind::Bool; }

// The spread op's own parsing; the mean takes the same dim and keepdim.
template <bool kStd>
Object spread_mean_op(const OpCall& call) {
  Object spread = call_op(kStd ? "torch.std" : "torch.var", call.args, call.kwargs);
  Object dim, keepdim(Value::boolean(false));
  // positional forms: (input, unbiased) or (input, dim, unbiased, keepdim) / (input, dim, keepdim) with
  // correction by keyword
  if (call.args.size() >= 2 && !is_bool(call.args[1])) dim = call.args[1];
  if (call.args.size() >= 4) keepdim = call.args[3];
  for (const auto& kw : call.kwargs) {
    if (kw.first == "dim") dim = kw.second;
    if (kw.first == "keepdim") keepdim = kw.second;
  }
  const Object& x = call.args.at(0);
  const bool all = dim.is_value() && dim.value().is_none();
  const bool keep = is_bool(keepdim) && keepdim.value().as_bool();
  Object mean = all && !keep ? call_op("torch.mean", {x}) : call_op("torch.mean", {x, dim, keepdim});
  return Object::tuple({spread, mean});
}

Object aminmax_op(const OpCall& call) {
  static const Schema schema("aminmax(input|self, *, dim=None, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.numel() == 0 && a.is_none(1))
    throw FxError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  if (a.is_none(1)) {
    Object lo = call_op("torch.amin", {a[0]}), hi = call_op("torch.amax", {a[0]});
    if (a.boolean(2)) {  // keepdim over every dim: all ones
      std::vector<Object> ones(static_cast<size_t>(x.dim()), Object(Value::integer(1)));
      lo = call_op("torch.reshape", {lo, Object::tuple(ones)});
      hi = call_op("torch.reshape", {hi, Object::tuple(ones)});
    }
    return Object::tuple({lo, hi});
  }
  return Object::tuple({call_op("torch.amin", {a[0], a[1], a[2]}), call_op("torch.amax", {a[0], a[1], a[2]})});
}

const OpRow kOps[] = {
    {"torch.var_mean", "aten.var_mean.default aten.var_mean.dim aten.var_mean.correction", "", spread_mean_op<false>},
    {"torch.std_mean", "aten.std_mean.default aten.std_mean.dim aten.std_mean.correction", "", spread_mean_op<true>},
    {"torch.aminmax", "torch.Tensor.aminmax aten.aminmax.default", "aminmax", aminmax_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
