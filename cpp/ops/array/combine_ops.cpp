// Ops that combine or regroup tensors: block_diag, cartesian_prod, combinations, _chunk_cat, unfold
// (a view: windows of `size` every `step` along a dim, as a new last dim) and unfold_copy, sum_to_size,
// and logspace (a factory, here beside linspace's other uses).
#include <cmath>
#include <string>
#include <vector>

#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"
#include "tensor/promote.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }

// The tensors of a varargs op: f(a, b, c) or f([a, b, c]).
std::vector<Tensor> tensor_args(const OpCall& call) {
  std::vector<Tensor> ts;
  if (call.args.size() == 1 && call.args[0].is_sequence())
    for (const Object& o : call.args[0].items()) ts.push_back(o.tensor());
  else
    for (const Object& o : call.args) ts.push_back(o.tensor());
  return ts;
}

Object block_diag_op(const OpCall& call) {
  const std::vector<Tensor> ts = tensor_args(call);
  DType dt = ts.empty() ? kDefaultFloat : ts[0].dtype();
  int64_t rows = 0, cols = 0;
  for (const Tensor& t : ts) {
    if (t.dim() > 2)
      throw FxError("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input " +
                    std::to_string(&t - ts.data()) + " has " + std::to_string(t.dim()) + " dimensions");
    dt = promote_types(dt, t.dtype());
    rows += t.dim() == 2 ? t.shape()[0] : 1;
    cols += t.dim() == 0 ? 1 : t.shape().back();
  }
  Tensor out = Tensor::zeros({rows, cols}, dt);
  if (meta_mode()) return out;
  int64_t r = 0, c = 0;
  for (const Tensor& t : ts) {
    const int64_t h = t.dim() == 2 ? t.shape()[0] : 1, w = t.dim() == 0 ? 1 : t.shape().back();
    Tensor block = make_view(out, {h, w}, out.strides(), out.offset() + r * cols + c);
    copy_into(block, reshape(to_dtype(t, dt), {h, w}));
    r += h;
    c += w;
  }
  return out;
}

// The rows of the meshgrid (indexing 'ij') of 1-d tensors; one tensor is returned as it is.
Object cartesian_prod_op(const OpCall& call) {
  const std::vector<Tensor> ts = tensor_args(call);
  for (const Tensor& t : ts)
    if (t.dim() != 1) throw FxError("Expect a 1D vector, but got shape " + shape_to_string(t.shape()));
  if (ts.size() == 1) return ts[0];
  std::vector<Object> args(ts.begin(), ts.end());
  Object grids = call_op("torch.meshgrid", args, {{"indexing", Object(Value::str("ij"))}});
  std::vector<Object> cols;
  for (const Object& g : grids.items()) cols.push_back(Object(reshape(g.tensor().contiguous(), {g.tensor().numel()})));
  return call_op("torch.stack", {Object::list(cols), integer(1)});
}

// combinations(input, r=2, with_replacement=False): the r-tuples of elements in index order, as
// itertools.combinations (or combinations_with_replacement).
Object combinations_op(const OpCall& call) {
  static const Schema schema("combinations(input|self, r=2, with_replacement=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t r = a.integer(1);
  const bool repl = a.boolean(2);
  if (x.dim() != 1) throw FxError("Expect a 1D vector, but got shape " + shape_to_string(x.shape()));
  if (r < 0) throw FxError("Expect a non-negative number, but got " + std::to_string(r));
  if (r == 0) return Tensor::empty({0}, x.dtype());
  const int64_t n = x.shape()[0];
  std::vector<int64_t> picks;  // rows of r indices
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  if (!repl)
    for (int64_t i = 0; i < r; ++i) idx[i] = i;
  const bool any = repl ? n > 0 : r <= n;
  while (any) {
    picks.insert(picks.end(), idx.begin(), idx.end());
    int64_t i = r - 1;  // the rightmost index that can still grow
    while (i >= 0 && idx[i] == (repl ? n - 1 : n - r + i)) --i;
    if (i < 0) break;
    ++idx[i];
    for (int64_t j = i + 1; j < r; ++j) idx[j] = repl ? idx[i] : idx[j - 1] + 1;
  }
  const int64_t rows = static_cast<int64_t>(picks.size()) / r;
  Tensor index = Tensor::empty({rows * r}, DType::Int64);
  std::copy(picks.begin(), picks.end(), index.data<int64_t>());
  Object flat = call_op("torch.index_select", {a[0], integer(0), Object(index)});
  return reshape(flat.tensor(), {rows, r});
}

// _chunk_cat(tensors, dim, num_chunks): each tensor is padded with zeros along `dim` to a multiple of
// num_chunks and cut there into num_chunks chunks, each flattened; chunk k of every tensor, concatenated,
// is row k (the dims before `dim` are kept).
Object chunk_cat_op(const OpCall& call) {
  static const Schema schema("_chunk_cat(tensors, dim, num_chunks)");
  Args a = schema.parse(call);
  const int64_t chunks = a.integer(2);
  if (chunks < 1) throw FxError("_chunk_cat expects a positive num_chunks");
  std::vector<Object> parts;
  Shape prefix;
  for (const Object& o : a[0].items()) {
    const Tensor& t = o.tensor();
    const int64_t d = checked_dim(a.integer(1), t.dim());
    Shape pre(t.shape().begin(), t.shape().begin() + d);
    if (parts.empty()) prefix = pre;
    else if (pre != prefix)
      throw FxError("_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all tensors");
    const int64_t n = t.shape()[d], per = (n + chunks - 1) / chunks;
    Tensor padded = t.contiguous();
    if (per * chunks != n) {
      Shape shape = t.shape();
      shape[d] = per * chunks;
      padded = Tensor::zeros(shape, t.dtype());
      Shape sub = t.shape();
      if (!meta_mode()) copy_into(make_view(padded, sub, padded.strides(), padded.offset()), t);
    }
    int64_t trailing = 1;
    for (int64_t k = d + 1; k < t.dim(); ++k) trailing *= t.shape()[k];
    Shape split = pre;
    split.push_back(chunks);
    split.push_back(per * trailing);
    parts.push_back(Object(reshape(padded, split)));
  }
  if (parts.empty()) throw FxError("_chunk_cat expects a non-empty input tensor list");
  return call_op("torch.cat", {Object::list(parts), integer(-1)});
}

Tensor unfold_view(const Tensor& x, int64_t dim, int64_t size, int64_t step) {
  const int64_t d = checked_dim(dim, x.dim());
  const int64_t n = x.dim() == 0 ? 1 : x.shape()[d], st = x.dim() == 0 ? 1 : x.strides()[d];
  if (size > n) throw FxError("maximum size for tensor at dimension " + std::to_string(d) + " is " +
                              std::to_string(n) + " but size is " + std::to_string(size));
  if (step <= 0) throw FxError("step is " + std::to_string(step) + " but must be > 0");
  if (size < 0) throw FxError("size is " + std::to_string(size) + " but must be >= 0");
  Shape shape = x.shape(), strides = x.strides();
  if (x.dim() == 0) {
    shape = {size};
    strides = {1};
    return make_view(x, shape, strides, x.offset());
  }
  shape[d] = (n - size) / step + 1;
  strides[d] = st * step;
  shape.push_back(size);
  strides.push_back(st);
  return make_view(x, shape, strides, x.offset());
}

Object unfold_op(const OpCall& call) {
  static const Schema schema("unfold(input|self, dimension, size, step)");
  Args a = schema.parse(call);
  return unfold_view(a.tensor(0), a.integer(1), a.integer(2), a.integer(3));
}

Object unfold_copy_op(const OpCall& call) {
  static const Schema schema("unfold_copy(input|self, dimension, size, step)");
  Args a = schema.parse(call);
  return unfold_view(a.tensor(0), a.integer(1), a.integer(2), a.integer(3)).contiguous().clone();
}

// x.sum_to_size(*size): sums the dims broadcasting expanded (leading ones, and 1s of size)
Object sum_to_size_op(const OpCall& call) {
  if (call.args.empty() || !call.args[0].is_tensor()) throw FxError("sum_to_size: expected a tensor");
  const Tensor& x = call.args[0].tensor();
  const std::vector<int64_t> size = vararg_ints(call, 1, "size", "sum_to_size");
  const int64_t lead = x.dim() - static_cast<int64_t>(size.size());
  bool ok = lead >= 0;
  std::vector<Object> dims;
  for (int64_t i = 0; ok && i < x.dim(); ++i) {
    if (i < lead) dims.push_back(integer(i));
    else if (size[i - lead] == 1 && x.shape()[i] != 1) dims.push_back(integer(i));
    else if (size[i - lead] != x.shape()[i]) ok = false;
  }
  if (!ok) throw FxError("size {" + shape_to_string(size) + "} is not expandable to size {" +
                         shape_to_string(x.shape()) + "}.");
  if (size.empty()) return call_op("torch.sum", {Object(x)});  // ATen's sum_to: to () is a full sum (bool → int64)
  if (dims.empty()) return x;
  Object s = call_op("torch.sum", {Object(x), Object::list(dims)}, {{"keepdim", Object(Value::boolean(true))}});
  return reshape(s.tensor(), Shape(size.begin(), size.end()));
}

// logspace(start, end, steps, base=10.0): base ** (the linspace of start..end), filled from both ends as
// torch.linspace; computed in double and rounded to the dtype once. start/end may be 0-d tensors.
Object logspace_op(const OpCall& call) {
  static const Schema schema("logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, "
                             "pin_memory=None, requires_grad=False)");
  Args a = schema.parse(call);
  auto value = [&](size_t i) {
    if (a[i].is_tensor()) {
      if (a.tensor(i).dim() != 0)
        throw FxError(std::string("logspace only supports 0-dimensional start and end tensors, but got ") +
                      (i == 0 ? "start" : "end") + " with " + std::to_string(a.tensor(i).dim()) + " dimension(s).");
      return tensor_item(a.tensor(i)).as_double();
    }
    return a.number(i).as_double();
  };
  const DType dtype = a.dtype(4).value_or(kDefaultFloat);
  // an integer dtype takes start and end as integers first, as torch.linspace: logspace(0, 1.2, 2) is [1, 10]
  const bool integral = dtype_is_integral(dtype);
  const double s = integral ? std::trunc(value(0)) : value(0), e = integral ? std::trunc(value(1)) : value(1);
  const double base = a.number(3).as_double();
  const int64_t n = a.integer(2);
  if (n < 0) throw FxError("number of steps must be non-negative");
  if (meta_mode()) return Tensor::meta({n}, dtype);
  Tensor out = Tensor::empty({n}, DType::Float64);
  const double step = n > 1 ? (e - s) / static_cast<double>(n - 1) : 0.0;
  const int64_t half = n == 1 ? 1 : n / 2;
  for (int64_t i = 0; i < n; ++i)
    out.data<double>()[i] = std::pow(base, i < half ? s + step * static_cast<double>(i)
                                                    : e - step * static_cast<double>(n - 1 - i));
  return to_dtype(out, dtype);
}

const OpRow kOps[] = {
    {"torch.functional.block_diag", "torch.block_diag aten.block_diag.default", "", block_diag_op},
    {"torch.functional.cartesian_prod", "torch.cartesian_prod", "", cartesian_prod_op},
    {"torch.combinations", "aten.combinations.default", "", combinations_op},
    {"torch._chunk_cat", "aten._chunk_cat.default", "", chunk_cat_op},
    {"torch.Tensor.unfold", "aten.unfold.default", "unfold", unfold_op},
    {"torch.unfold_copy", "aten.unfold_copy.default", "", unfold_copy_op},
    {"torch.Tensor.sum_to_size", "", "sum_to_size", sum_to_size_op},
    {"torch.logspace", "aten.logspace.default aten.logspace.Tensor_Tensor aten.logspace.Tensor_Scalar "
                       "aten.logspace.Scalar_Tensor", "", logspace_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
