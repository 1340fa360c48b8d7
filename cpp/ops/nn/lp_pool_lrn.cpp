// Functional pooling and normalisation written in torch.nn.functional's Python, composed here in the
// same order: lp_pool1d/2d/3d (avg_pool of x^p, sign(out)·relu(|out|)·window, ^(1/p)),
// local_response_norm (x / (k + alpha·avg of x² over `size` channels)^beta) and rms_norm
// (x·rsqrt(mean(x²) + eps)·weight, eps defaulting to the computing dtype's epsilon).
#include <limits>

#include "ops/nn/nn_util.h"
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"
#include "tensor/checked.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }
Object floating(double v) { return Object(Value::floating(v)); }
Object ints(const std::vector<int64_t>& v) {
  std::vector<Object> items;
  for (int64_t x : v) items.push_back(integer(x));
  return Object::tuple(std::move(items));
}

template <int kSp>
Object lp_pool_op(const OpCall& call) {
  static const Schema schema("lp_pool" + std::to_string(kSp) +
                             "d(input, norm_type, kernel_size, stride=None, ceil_mode=False)");
  Args a = schema.parse(call);
  const std::vector<int64_t> k = arg_ints(a, 2, kSp, "kernel_size");
  static const char* const pools[] = {"", "torch.nn.functional.avg_pool1d", "torch.nn.functional.avg_pool2d",
                                      "torch.nn.functional.avg_pool3d"};
  Object powered = call_op("torch.pow", {a[0], a[1]});
  Object out = call_op(pools[kSp], {powered, ints(k)},
                       {{"stride", a.is_none(3) ? Object() : a[3]}, {"padding", integer(0)}, {"ceil_mode", a[4]}});
  Object mag = call_op("torch.mul", {call_op("torch.sign", {out}), call_op("torch.relu", {call_op("torch.abs", {out})})});
  // after the pool, which refuses a kernel larger than the input as torch does: the window then fits
  int64_t window = 1;
  for (int64_t v : k) window = checked_mul(window, v, "lp_pool kernel_size");
  mag = call_op("torch.mul", {mag, integer(window)});
  return call_op("torch.pow", {mag, floating(1.0 / a.number(1).as_double())});
}

Object local_response_norm_op(const OpCall& call) {
  static const Schema schema("local_response_norm(input, size, alpha=0.0001, beta=0.75, k=1.0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() < 3)
    throw FxError("Expected 3D or higher dimensionality input (got " + std::to_string(x.dim()) + " dimensions)");
  if (x.numel() == 0) return a[0];
  const int64_t size = a.integer(1);
  Object div = call_op("torch.mul", {a[0], a[0]});
  if (x.dim() == 3) {
    div = call_op("torch.unsqueeze", {div, integer(1)});
    div = call_op("torch.nn.functional.pad", {div, ints({0, 0, size / 2, (size - 1) / 2})});
    div = call_op("torch.nn.functional.avg_pool2d", {div, ints({size, 1})}, {{"stride", integer(1)}});
    div = call_op("torch.squeeze", {div, integer(1)});
  } else {
    const Shape& s = x.shape();
    div = call_op("torch.reshape", {div, ints({s[0], 1, s[1], s[2], -1})});
    div = call_op("torch.nn.functional.pad", {div, ints({0, 0, 0, 0, size / 2, (size - 1) / 2})});
    div = call_op("torch.nn.functional.avg_pool3d", {div, ints({size, 1, 1})}, {{"stride", integer(1)}});
    div = call_op("torch.squeeze", {div, integer(1)});
    div = call_op("torch.reshape", {div, ints(s)});
  }
  div = call_op("torch.pow", {call_op("torch.add", {call_op("torch.mul", {div, a[2]}), a[4]}), a[3]});
  return call_op("torch.div", {a[0], div});
}

Object rms_norm_op(const OpCall& call) {
  static const Schema schema("rms_norm(input, normalized_shape, weight=None, eps=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const std::vector<int64_t> shape = *a.int_list(1);
  const int64_t n = static_cast<int64_t>(shape.size());
  if (n > x.dim()) throw FxError("rms_norm: normalized_shape has more dims than the input");
  for (int64_t i = 0; i < n; ++i)
    if (x.shape()[x.dim() - n + i] != shape[i])
      throw FxError("rms_norm: normalized_shape " + shape_to_string(shape) +
                    " does not match the last dims of the input " + shape_to_string(x.shape()));
  if (!dtype_is_floating(x.dtype())) throw FxError("rms_norm: expected a floating point input");
  const DType kdt = compute_dtype(x.dtype());
  const double eps = !a.is_none(3) ? a.number(3).as_double()
                     : kdt == DType::Float64 ? std::numeric_limits<double>::epsilon()
                                             : static_cast<double>(std::numeric_limits<float>::epsilon());
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < n; ++i) dims.push_back(-1 - i);
  Object up = call_op("torch.Tensor.to", {a[0], Object(Value::dtype(dtype_name(kdt)))});
  Object ms = call_op("torch.mean", {call_op("torch.pow", {up, integer(2)}), ints(dims)}, {{"keepdim", Object(Value::boolean(true))}});
  Object r = call_op("torch.rsqrt", {call_op("torch.add", {ms, floating(eps)})});
  Object out = call_op("torch.Tensor.to", {call_op("torch.mul", {up, r}), Object(Value::dtype(dtype_name(x.dtype())))});
  if (!a.is_none(2)) out = call_op("torch.mul", {out, a[2]});
  return out;
}

const OpRow kOps[] = {
    {"torch.nn.functional.lp_pool1d", "", "", lp_pool_op<1>},
    {"torch.nn.functional.lp_pool2d", "", "", lp_pool_op<2>},
    {"torch.nn.functional.lp_pool3d", "", "", lp_pool_op<3>},
    {"torch.nn.functional.local_response_norm", "", "", local_response_norm_op},
    {"torch.nn.functional.rms_norm", "torch.rms_norm aten.rms_norm.default", "", rms_norm_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
