// Views that share their input's storage, as torch makes them: view/reshape (a view whenever the strides
// allow), flatten/unflatten, permute/transpose/t/movedim, expand, squeeze/unsqueeze, alias/detach,
// as_strided, contiguous. None of these copies data except reshape/flatten/contiguous when they must.
#include <algorithm>

#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/shape_ops.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

const Tensor& self_of(const OpCall& call, const std::string& op) {
  if (call.args.empty() || !call.args[0].is_tensor())
    throw FxError(op + "(): expected a Tensor as its first argument");
  return call.args[0].tensor();
}

Tensor view_tensor(const Tensor& x, const Shape& size) {
  Shape s = infer_size(size, x.numel());
  auto st = view_strides(x, s);
  if (!st)
    throw FxError("view size is not compatible with input tensor's size and stride (at least one dimension spans "
                  "across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(x, s, *st, x.offset());
}

// x.view(2, 3), x.view((2, 3)), aten.view.default(x, [2, 3]), torch.Tensor.view(x, 2, 3).
// x.view(dtype): the same bytes read as another dtype (torch's rules for differing element sizes: the last
// dim is contiguous and rescaled, the other strides and the offset rescale exactly).
Tensor view_dtype(const Tensor& x, DType dt) {
  const int64_t from = static_cast<int64_t>(dtype_size(x.dtype())), to = static_cast<int64_t>(dtype_size(dt));
  if (from == to) return Tensor(x.storage(), dt, x.shape(), x.strides(), x.offset());
  const std::string what = std::string(" to view ") + torch_type_name(x.dtype()) + " as " + torch_type_name(dt) +
                           " (different element sizes)";
  if (x.dim() == 0) throw FxError("self.dim() cannot be 0" + what);
  if (x.strides().back() != 1)
    throw FxError("self.stride(-1) must be 1" + what + ", but got " + std::to_string(x.strides().back()));
  Shape shape = x.shape(), strides = x.strides();
  const int64_t last = x.dim() - 1;
  if (to > from) {
    const int64_t r = to / from;
    if (shape[last] % r != 0)
      throw FxError("self.size(-1) must be divisible by " + std::to_string(r) + what + ", but got " +
                    std::to_string(shape[last]));
    if (x.offset() % r != 0)
      throw FxError("self.storage_offset() must be divisible by " + std::to_string(r) + what + ", but got " +
                    std::to_string(x.offset()));
    for (int64_t k = 0; k < last; ++k) {
      if (strides[k] % r != 0)
        throw FxError("self.stride(" + std::to_string(k) + ") must be divisible by " + std::to_string(r) + what +
                      ", but got " + std::to_string(strides[k]));
      strides[k] /= r;
    }
    shape[last] /= r;
    return Tensor(x.storage(), dt, shape, strides, x.offset() / r);
  }
  const int64_t r = from / to;
  for (int64_t k = 0; k < last; ++k) strides[k] *= r;
  shape[last] *= r;
  return Tensor(x.storage(), dt, shape, strides, x.offset() * r);
}

Object view_op(const OpCall& call) {
  const Tensor& x = self_of(call, "view");
  const Object* dt = nullptr;
  if (call.args.size() == 2 && call.args[1].is_value() && call.args[1].value().kind() == ValueKind::Dtype)
    dt = &call.args[1];
  for (const auto& kw : call.kwargs)
    if (kw.first == "dtype" && call.args.size() == 1) dt = &kw.second;
  if (dt) return view_dtype(x, dtype_from_name(dt->value().as_str()));
  return view_tensor(x, vararg_ints(call, 1, "size", "view"));
}

Object reshape_op(const OpCall& call) {
  return reshape(self_of(call, "reshape"), vararg_ints(call, 1, "shape", "reshape"));
}

Object view_as_op(const OpCall& call) {
  static const Schema schema("view_as(input|self, other)");
  Args a = schema.parse(call);
  return view_tensor(a.tensor(0), a.tensor(1).shape());
}

Object reshape_as_op(const OpCall& call) {
  static const Schema schema("reshape_as(input|self, other)");
  Args a = schema.parse(call);
  return reshape(a.tensor(0), a.tensor(1).shape());
}

// aten._reshape_alias(self, size, stride): a view with exactly these strides.
Object as_strided_op(const OpCall& call) {
  static const Schema schema("as_strided(input|self, size, stride, storage_offset=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  Shape size = *a.int_list(1), stride = *a.int_list(2);
  if (size.size() != stride.size())
    throw FxError("mismatch in length of strides and shape");
  int64_t offset = a.is_none(3) ? x.offset() : a.integer(3);
  return make_view(x, size, stride, offset);
}

Object flatten_op(const OpCall& call) {
  static const Schema schema("flatten(input|self, start_dim=0, end_dim=-1)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() == 0) return reshape(x, {1});
  int64_t s = checked_dim(a.integer(1), x.dim()), e = checked_dim(a.integer(2), x.dim());
  if (s > e) throw FxError("flatten() has invalid args: start_dim cannot come after end_dim");
  if (s == e) return x;
  Shape shape(x.shape().begin(), x.shape().begin() + s);
  int64_t n = 1;
  for (int64_t d = s; d <= e; ++d) n *= x.shape()[d];
  shape.push_back(n);
  shape.insert(shape.end(), x.shape().begin() + e + 1, x.shape().end());
  return reshape(x, shape);
}

Object unflatten_op(const OpCall& call) {
  static const Schema schema("unflatten(input|self, dim, sizes)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  int64_t d = checked_dim(a.integer(1), x.dim());
  Shape sizes = ints_of(a[2], "unflatten(): argument 'sizes'");
  if (sizes.empty()) throw FxError("unflatten: sizes must be non-empty");
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (infer >= 0) throw FxError("only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else {
      known = static_cast<int64_t>(static_cast<uint64_t>(known) * static_cast<uint64_t>(sizes[i]));  // wraps, as torch's
    }
  }
  const Shape given = sizes;
  if (infer >= 0 && known != 0) sizes[infer] = x.shape()[d] / known;
  int64_t prod = 1;
  for (int64_t s : sizes) prod = static_cast<int64_t>(static_cast<uint64_t>(prod) * static_cast<uint64_t>(s));
  if (prod != x.shape()[d])
    throw FxError("unflatten: Provided sizes " + shape_to_string(given) + " don't multiply up to the size of dim " +
                  std::to_string(d) + " (" + std::to_string(x.shape()[d]) + ") in the input tensor");
  Shape shape(x.shape().begin(), x.shape().begin() + d);
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  shape.insert(shape.end(), x.shape().begin() + d + 1, x.shape().end());
  return view_tensor(x, shape);
}

Tensor permute(const Tensor& x, const std::vector<int64_t>& dims) {
  if (static_cast<int64_t>(dims.size()) != x.dim())
    throw FxError("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                  "desired ordering of dimensions i.e. input.dim() = " + std::to_string(x.dim()) +
                  " is not equal to len(dims) = " + std::to_string(dims.size()));
  Shape shape(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = checked_dim(dims[i], x.dim());
    if (seen[d]) throw FxError("permute(): duplicate dims are not allowed.");
    seen[d] = true;
    shape[i] = x.shape()[d];
    strides[i] = x.strides()[d];
  }
  return make_view(x, shape, strides, x.offset());
}

Object permute_op(const OpCall& call) { return permute(self_of(call, "permute"), vararg_ints(call, 1, "dims", "permute")); }

Tensor transpose(const Tensor& x, int64_t d0, int64_t d1) {
  if (x.dim() == 0) {
    checked_dim(d0, 0);
    checked_dim(d1, 0);
    return make_view(x, {}, {}, x.offset());
  }
  d0 = checked_dim(d0, x.dim());
  d1 = checked_dim(d1, x.dim());
  Shape shape = x.shape(), strides = x.strides();
  std::swap(shape[d0], shape[d1]);
  std::swap(strides[d0], strides[d1]);
  return make_view(x, shape, strides, x.offset());
}

Object transpose_op(const OpCall& call) {
  static const Schema schema("transpose(input|self, dim0|axis0, dim1|axis1)");
  Args a = schema.parse(call);
  return transpose(a.tensor(0), a.integer(1), a.integer(2));
}

Object t_op(const OpCall& call) {
  static const Schema schema("t(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() > 2)
    throw FxError("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(x.dim()) + "D");
  return x.dim() < 2 ? make_view(x, x.shape(), x.strides(), x.offset()) : transpose(x, 0, 1);
}

Object movedim_op(const OpCall& call) {
  static const Schema schema("movedim(input|self, source, destination)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> src = *a.int_list(1), dst = *a.int_list(2);
  if (src.size() != dst.size())
    throw FxError("movedim: Invalid source or destination dims: source (" + shape_to_string(src) +
                  " dims) should contain the same number of dims as destination (" + shape_to_string(dst) + " dims)");
  const int64_t n = x.dim();
  std::vector<int64_t> order(n, -1);
  std::vector<bool> used(n, false);
  for (size_t i = 0; i < src.size(); ++i) {
    int64_t s = checked_dim(src[i], n), d = checked_dim(dst[i], n);
    if (order[d] != -1 || used[s]) throw FxError("movedim: repeated dim in `source` or `destination`");
    order[d] = s;
    used[s] = true;
  }
  int64_t next = 0;
  for (int64_t d = 0; d < n; ++d) {
    if (order[d] != -1) continue;
    while (used[next]) ++next;
    order[d] = next;
    used[next] = true;
  }
  return permute(x, order);
}

// expand: -1 keeps a dim; new leading dims may be added (stride 0).
Tensor expand(const Tensor& x, Shape size) {
  if (static_cast<int64_t>(size.size()) < x.dim())
    throw FxError("expand(torch.FloatTensor{" + shape_to_string(x.shape()) + "}, size=" + shape_to_string(size) +
                  "): the number of sizes provided (" + std::to_string(size.size()) +
                  ") must be greater or equal to the number of dimensions in the tensor (" + std::to_string(x.dim()) + ")");
  const size_t lead = size.size() - x.shape().size();
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] != -1) continue;
    if (i < lead)
      throw FxError("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension " +
                    std::to_string(i));
    size[i] = x.shape()[i - lead];
  }
  return expand_to(x, size);
}

Object expand_op(const OpCall& call) {
  std::vector<std::pair<std::string, Object>> kw;
  OpCall c = call;
  c.kwargs.clear();
  for (const auto& [k, v] : call.kwargs)
    if (k != "implicit") c.kwargs.emplace_back(k, v);  // aten.expand's implicit= changes nothing here
  if (c.args.size() == 3 && c.args[1].is_sequence() && c.args[2].is_value() &&
      c.args[2].value().kind() == ValueKind::Bool)
    c.args.pop_back();  // aten.expand.default(self, size, implicit)
  return expand(self_of(c, "expand"), vararg_ints(c, 1, "size", "expand"));
}

Object expand_as_op(const OpCall& call) {
  static const Schema schema("expand_as(input|self, other)");
  Args a = schema.parse(call);
  return expand(a.tensor(0), a.tensor(1).shape());
}

Object squeeze_op(const OpCall& call) {
  static const Schema schema("squeeze(input|self, dim=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<bool> drop(x.dim(), false);
  if (a.is_none(1)) {
    for (int64_t d = 0; d < x.dim(); ++d) drop[d] = x.shape()[d] == 1;
  } else {
    const std::vector<int64_t> dims = *a.int_list(1);
    for (int64_t d : dims) {
      int64_t w = checked_dim(d, x.dim());
      if (x.dim() > 0 && x.shape()[w] == 1) drop[w] = true;
    }
  }
  Shape shape, strides;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (!drop[d]) {
      shape.push_back(x.shape()[d]);
      strides.push_back(x.strides()[d]);
    }
  return make_view(x, shape, strides, x.offset());
}

Object unsqueeze_op(const OpCall& call) {
  static const Schema schema("unsqueeze(input|self, dim)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  int64_t d = checked_dim(a.integer(1), x.dim() + 1);
  Shape shape = x.shape(), strides = x.strides();
  int64_t st = d < x.dim() ? x.shape()[d] * x.strides()[d] : 1;
  shape.insert(shape.begin() + d, 1);
  strides.insert(strides.begin() + d, st);
  return make_view(x, shape, strides, x.offset());
}

// alias/detach/view_as_self: a new handle on the same storage (autograd does not exist here).
Object alias_op(const OpCall& call) {
  static const Schema schema("alias(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  return make_view(x, x.shape(), x.strides(), x.offset());
}

Object contiguous_op(const OpCall& call) {
  static const Schema schema("contiguous(input|self, memory_format=None)");
  Args a = schema.parse(call);
  return a.tensor(0).contiguous();
}

const OpRow kOps[] = {
    {"torch.Tensor.view", "aten.view.default aten._unsafe_view.default aten.view.dtype", "view", view_op},
    {"torch.reshape", "aten.reshape.default torch.Tensor.reshape", "reshape", reshape_op},
    {"torch.Tensor.view_as", "", "view_as", view_as_op},
    {"torch.Tensor.reshape_as", "", "reshape_as", reshape_as_op},
    {"torch.as_strided", "aten.as_strided.default aten._reshape_alias.default torch.Tensor.as_strided", "as_strided", as_strided_op},
    {"torch.flatten", "aten.flatten.using_ints torch.Tensor.flatten", "flatten", flatten_op},
    {"torch.unflatten", "aten.unflatten.int torch.Tensor.unflatten", "unflatten", unflatten_op},
    {"torch.permute", "aten.permute.default torch.Tensor.permute", "permute", permute_op},
    {"torch.transpose", "aten.transpose.int torch.swapaxes torch.swapdims torch.Tensor.swapaxes torch.Tensor.swapdims aten.swapaxes.default aten.swapdims.default torch.Tensor.transpose", "swapaxes swapdims transpose", transpose_op},
    {"torch.t", "aten.t.default aten.numpy_T.default torch.Tensor.t", "t", t_op},
    {"torch.movedim", "torch.moveaxis torch.Tensor.moveaxis aten.movedim.int aten.movedim.intlist aten.moveaxis.int torch.Tensor.movedim", "moveaxis movedim", movedim_op},
    {"torch.Tensor.expand", "aten.expand.default", "expand", expand_op},
    {"torch.Tensor.expand_as", "aten.expand_as.default", "expand_as", expand_as_op},
    {"torch.squeeze", "aten.squeeze.dim aten.squeeze.dims aten.squeeze.default torch.Tensor.squeeze", "squeeze", squeeze_op},
    {"torch.unsqueeze", "aten.unsqueeze.default torch.Tensor.unsqueeze", "unsqueeze", unsqueeze_op},
    {"torch.detach", "torch.Tensor.detach aten.detach.default aten.alias.default torch.Tensor.detach_ aten.detach_.default", "detach detach_", alias_op},
    {"torch.Tensor.contiguous", "aten.contiguous.default", "contiguous", contiguous_op},
};
const OpTable reg_kOps{kOps};

}  // namespace

// For getattr(x, "T") / "mT" in python_values.cpp.
Tensor tensor_T(const Tensor& x) {
  std::vector<int64_t> dims(x.dim());
  for (int64_t d = 0; d < x.dim(); ++d) dims[d] = x.dim() - 1 - d;
  return permute(x, dims);
}
Tensor tensor_mT(const Tensor& x) {
  if (x.dim() < 2) throw FxError("tensor.mT is only supported on matrices or batches of matrices. Got " +
                                 std::to_string(x.dim()) + "-D tensor.");
  return transpose(x, -2, -1);
}

}  // namespace fx
