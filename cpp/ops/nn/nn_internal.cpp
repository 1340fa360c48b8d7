// aten's internal nn ops that appear in exported graphs (autograd's formulas, decompositions), composed
// from the public ops as torch defines them: _softmax_backward_data, _safe_softmax, native_dropout_backward,
// max_pool2d_with_indices_backward, and F.linear_cross_entropy (linear then cross_entropy; its options
// choose only how the work is chunked, not the result).
#include <limits>
#include <string>
#include <vector>

#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }

// grad_input = output * (grad_output - Σ_dim grad_output * output), in input_dtype
Object softmax_backward_data_op(const OpCall& call) {
  static const Schema schema("_softmax_backward_data(grad_output, output, dim, input_dtype)");
  Args a = schema.parse(call);
  Object prod = call_op("torch.mul", {a[0], a[1]});
  Object sum = call_op("torch.sum", {prod, a[2]}, {{"keepdim", Object(Value::boolean(true))}});
  Object g = call_op("torch.mul", {a[1], call_op("torch.sub", {a[0], sum})});
  return to_dtype(g.tensor(), a.dtype(3).value_or(a.tensor(0).dtype()));
}

// softmax, with 0 (not NaN) for a slice that is -inf throughout
Object safe_softmax_op(const OpCall& call) {
  static const Schema schema("_safe_softmax(input|self, dim, dtype=None)");
  Args a = schema.parse(call);
  Object sm = call_op("torch.softmax", {a[0], a[1]}, {{"dtype", a[2]}});
  Object masked = call_op("torch.eq", {a[0], Object(Value::floating(-std::numeric_limits<double>::infinity()))});
  Object all = call_op("torch.all", {masked, a[1]}, {{"keepdim", Object(Value::boolean(true))}});
  return call_op("torch.where", {all, Object(Value::floating(0.0)), sm});
}

// grad_output * mask * scale
Object native_dropout_backward_op(const OpCall& call) {
  static const Schema schema("native_dropout_backward(grad_output, mask, scale)");
  Args a = schema.parse(call);
  Object m = call_op("torch.mul", {a[0], Object(to_dtype(a.tensor(1), a.tensor(0).dtype()))});
  return call_op("torch.mul", {m, a[2]});
}

// Each output gradient added to the input position its index names (indices flatten H and W).
Object max_pool2d_backward_op(const OpCall& call) {
  static const Schema schema("max_pool2d_with_indices_backward(grad_output, input|self, kernel_size, stride, padding, "
                             "dilation, ceil_mode, indices)");
  Args a = schema.parse(call);
  const Tensor& grad = a.tensor(0);
  const Tensor& x = a.tensor(1);
  const Tensor& idx = a.tensor(7);
  if (x.dim() != 3 && x.dim() != 4) throw FxError("max_pool2d_with_indices_backward: expected a 3-d or 4-d input");
  if (grad.shape() != idx.shape())
    throw FxError("max_pool2d_with_indices_backward: grad_output and indices must have the same shape");
  const int64_t planes = x.dim() == 4 ? x.shape()[0] * x.shape()[1] : x.shape()[0];
  const int64_t hw = x.shape()[x.dim() - 2] * x.shape()[x.dim() - 1];
  Tensor gi = Tensor::zeros({planes, hw}, grad.dtype());
  const int64_t per = planes ? grad.numel() / planes : 0;
  Object r = call_op("torch.scatter_add", {Object(gi), integer(1), Object(reshape(idx.contiguous(), {planes, per})),
                                           Object(reshape(grad.contiguous(), {planes, per}))});
  return reshape(r.tensor(), x.shape());
}

// LinearCrossEntropyOptions(...): kept as a dict of its fields (they choose chunking and accumulation only)
Object linear_cross_entropy_options_op(const OpCall& call) {
  if (!call.args.empty()) throw FxError("LinearCrossEntropyOptions() takes keyword arguments only");
  return Object::dict(call.kwargs);
}

// linear_cross_entropy(input, linear_weight, target, *, linear_bias, weight, reduction, ignore_index,
// label_smoothing, options): cross_entropy(linear(input, W.reshape(-1, in)).reshape(*input[:-1], C, *out), …)
Object linear_cross_entropy_op(const OpCall& call) {
  static const Schema schema("linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, "
                             "reduction='mean', ignore_index=None, label_smoothing=0.0, options=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& w = a.tensor(1);
  if (w.dim() < 2) throw FxError("linear_cross_entropy: linear_weight must have at least 2 dims");
  const int64_t in_features = w.shape().back();
  Object bias = a.is_none(3) ? Object() : Object(reshape(a.tensor(3).contiguous(), {a.tensor(3).numel()}));
  Object logits = call_op("torch.nn.functional.linear", {a[0], Object(reshape(w.contiguous(), {-1, in_features})), bias});
  Shape shape(x.shape().begin(), x.shape().end() - (x.dim() ? 1 : 0));
  shape.insert(shape.end(), w.shape().begin(), w.shape().end() - 1);
  logits = Object(reshape(logits.tensor(), shape));
  return call_op("torch.nn.functional.cross_entropy", {logits, a[2]},
                 {{"weight", a[4]}, {"reduction", a[5]},
                  {"ignore_index", a.is_none(6) ? integer(-100) : a[6]}, {"label_smoothing", a[7]}});
}

const OpRow kOps[] = {
    {"aten._softmax_backward_data.default", "aten._softmax_backward_data torch._softmax_backward_data", "",
     softmax_backward_data_op},
    {"aten._safe_softmax.default", "aten._safe_softmax torch._safe_softmax", "", safe_softmax_op},
    {"aten.native_dropout_backward.default", "aten.native_dropout_backward torch.native_dropout_backward", "",
     native_dropout_backward_op},
    {"aten.max_pool2d_with_indices_backward.default",
     "aten.max_pool2d_with_indices_backward torch.max_pool2d_with_indices_backward", "", max_pool2d_backward_op},
    {"torch.nn.modules.linear_cross_entropy_options.LinearCrossEntropyOptions",
     "torch.nn.LinearCrossEntropyOptions", "", linear_cross_entropy_options_op},
    {"torch.nn.functional.linear_cross_entropy", "", "", linear_cross_entropy_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
