// Shape ops torch defines from other ops, composed here from the registry's own: ravel, column_stack,
// hsplit/vsplit/dsplit, rot90, kron, tensordot, inner, trace, diff, cross (torch.cross, linalg.cross),
// diag, diag_embed, diagflat, diagonal_scatter, take, and the copying forms of the view ops that
// functionalization emits (view_copy, permute_copy, expand_copy, …: the view, then a copy).
#include <algorithm>
#include <string>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Object integer(int64_t i) { return Object(Value::integer(i)); }

// The values of an integer tensor (tensordot's dims given as a tensor), in order.
std::vector<int64_t> int_values(const Tensor& t) {
  if (dtype_is_floating(t.dtype()) || t.dtype() == DType::Bool)
    throw FxError("tensordot expects the dims tensor to hold integers, got " + std::string(dtype_name(t.dtype())));
  Tensor c = to_dtype(t, DType::Int64).contiguous();
  return std::vector<int64_t>(c.data<int64_t>(), c.data<int64_t>() + c.numel());
}
Object ints(const std::vector<int64_t>& v) {
  ValueList items;
  for (int64_t x : v) items.push_back(Value::integer(x));
  return Object(Value::list(std::move(items)));
}

// ravel: the values in order, as one dim
Object ravel_op(const OpCall& call) {
  static const Schema schema("ravel(input|self)");
  Args a = schema.parse(call);
  return call_op("torch.reshape", {a[0], ints({-1})});
}

// column_stack: 0-d and 1-d tensors become columns, then hstack
Object column_stack_op(const OpCall& call) {
  static const Schema schema("column_stack(tensors)");
  Args a = schema.parse(call);
  if (!a[0].is_sequence()) throw FxError("column_stack(): argument 'tensors' must be tuple of Tensors");
  std::vector<Object> cols;
  for (const Object& o : a[0].items()) {
    if (!o.is_tensor()) throw FxError("column_stack(): expected Tensor as element in argument 'tensors'");
    const Tensor& t = o.tensor();
    cols.push_back(t.dim() <= 1 ? call_op("torch.reshape", {o, ints({t.numel(), 1})}) : o);
  }
  if (cols.empty()) throw FxError("column_stack expects a non-empty TensorList");
  return call_op("torch.hstack", {Object::list(std::move(cols))});
}

// hsplit / vsplit / dsplit: tensor_split along dim 1 (0 for 1-d), 0, 2; a section count must divide the dim
template <int kWhich>
Object split_named_op(const OpCall& call) {
  static const char* names[] = {"hsplit", "vsplit", "dsplit"};
  static const Schema schema(std::string(names[kWhich]) + "(input|self, indices_or_sections)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t min_dim = kWhich == 0 ? 1 : kWhich == 1 ? 2 : 3;
  if (x.dim() < min_dim)
    throw FxError(std::string("torch.") + names[kWhich] + " requires a tensor with at least " +
                  std::to_string(min_dim) + " dimension, but got a tensor with " + std::to_string(x.dim()) +
                  " dimensions!");
  const int64_t dim = kWhich == 0 ? (x.dim() == 1 ? 0 : 1) : kWhich == 1 ? 0 : 2;
  if (is_int_object(a[1])) {
    const int64_t sections = int_of(a[1], "indices_or_sections");
    if (sections == 0 || x.shape()[dim] % sections != 0)
      throw FxError(std::string("torch.") + names[kWhich] + " attempted to split along dimension " +
                    std::to_string(dim) + ", but the size of the dimension " + std::to_string(x.shape()[dim]) +
                    " is not divisible by the split_size " + std::to_string(sections) + "!");
  }
  return call_op("torch.tensor_split", {a[0], a[1], integer(dim)});
}

// rot90(x, k, dims): k quarter turns from dims[0] towards dims[1], by flips and a transpose
Object rot90_op(const OpCall& call) {
  static const Schema schema("rot90(input|self, k=1, dims=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> dims = a.is_none(2) ? std::vector<int64_t>{0, 1} : *a.int_list(2);
  if (dims.size() != 2)
    throw FxError("expected total rotation dims == 2, but got dims = " + std::to_string(dims.size()));
  if (x.dim() < 2) throw FxError("expected total dims >= 2, but got total dims = " + std::to_string(x.dim()));
  const int64_t d0 = checked_dim(dims[0], x.dim()), d1 = checked_dim(dims[1], x.dim());
  if (d0 == d1)
    throw FxError("expected rotation dims to be different, but got dim0 = " + std::to_string(dims[0]) +
                  " and dim1 = " + std::to_string(dims[1]));
  const int64_t k = ((a.integer(1) % 4) + 4) % 4;
  if (k == 1)
    return call_op("torch.transpose", {call_op("torch.flip", {a[0], ints({d1})}), integer(d0), integer(d1)});
  if (k == 2) return call_op("torch.flip", {a[0], ints({d0, d1})});
  if (k == 3)
    return call_op("torch.transpose", {call_op("torch.flip", {a[0], ints({d0})}), integer(d0), integer(d1)});
  return Object(x.clone());
}

// kron: a's and b's dims interleaved (a_i, b_i), multiplied by broadcasting, then merged pairwise
Object kron_op(const OpCall& call) {
  static const Schema schema("kron(input|self, other)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  const int64_t n = std::max(x.dim(), y.dim());
  std::vector<int64_t> xs(n, 1), ys(n, 1), xi, yi, out;
  for (int64_t i = 0; i < x.dim(); ++i) xs[n - x.dim() + i] = x.shape()[i];
  for (int64_t i = 0; i < y.dim(); ++i) ys[n - y.dim() + i] = y.shape()[i];
  for (int64_t i = 0; i < n; ++i) {
    xi.push_back(xs[i]), xi.push_back(1);
    yi.push_back(1), yi.push_back(ys[i]);
    out.push_back(xs[i] * ys[i]);
  }
  Object p = call_op("torch.mul", {call_op("torch.reshape", {a[0], ints(xi)}), call_op("torch.reshape", {a[1], ints(yi)})});
  return call_op("torch.reshape", {p, ints(out)});
}

// tensordot(a, b, dims): a's contracted dims moved last, b's first, one matmul, then the free dims
Object tensordot_tensors(Object ao, Object bo, std::vector<int64_t> da, std::vector<int64_t> db) {
  if (da.size() != db.size())
    throw FxError("both dimension lists should have same length");
  // a contracted dim of size 1 against a longer one: torch sums the longer one first
  for (size_t i = 0; i < da.size(); ++i) {
    const int64_t i_a = checked_dim(da[i], ao.tensor().dim()), i_b = checked_dim(db[i], bo.tensor().dim());
    const int64_t sa = ao.tensor().shape()[i_a], sb = bo.tensor().shape()[i_b];
    const Object keep(Value::boolean(true));
    if (sa == 1 && sb != 1) bo = call_op("torch.sum", {bo, ints({i_b}), keep});
    if (sb == 1 && sa != 1) ao = call_op("torch.sum", {ao, ints({i_a}), keep});
  }
  const Tensor& x = ao.tensor();
  const Tensor& y = bo.tensor();
  int64_t k = 1;
  for (size_t i = 0; i < da.size(); ++i) {
    da[i] = checked_dim(da[i], x.dim()), db[i] = checked_dim(db[i], y.dim());
    if (x.shape()[da[i]] != y.shape()[db[i]])
      throw FxError("contracted dimensions need to match, but first has size " + std::to_string(x.shape()[da[i]]) +
                    " in dim " + std::to_string(da[i]) + " and second has size " + std::to_string(y.shape()[db[i]]) +
                    " in dim " + std::to_string(db[i]));
    k *= x.shape()[da[i]];
  }
  std::vector<int64_t> pa, pb, free_shape;
  int64_t m = 1, n = 1;
  for (int64_t i = 0; i < x.dim(); ++i)
    if (std::find(da.begin(), da.end(), i) == da.end()) pa.push_back(i), free_shape.push_back(x.shape()[i]), m *= x.shape()[i];
  pa.insert(pa.end(), da.begin(), da.end());
  pb = db;
  for (int64_t i = 0; i < y.dim(); ++i)
    if (std::find(db.begin(), db.end(), i) == db.end()) pb.push_back(i), free_shape.push_back(y.shape()[i]), n *= y.shape()[i];
  Object am = call_op("torch.reshape", {call_op("torch.permute", {ao, ints(pa)}), ints({m, k})});
  Object bm = call_op("torch.reshape", {call_op("torch.permute", {bo, ints(pb)}), ints({k, n})});
  return call_op("torch.reshape", {call_op("torch.mm", {am, bm}), ints(free_shape)});
}

Object tensordot_op(const OpCall& call) {
  static const Schema schema("tensordot(a, b, dims=2, out=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> da, db;
  const Object& d = a[2];
  if (d.is_tensor() && d.tensor().dim() == 0) {
    const int64_t n = int_values(d.tensor()).front();
    for (int64_t i = 0; i < n; ++i) da.push_back(x.dim() - n + i), db.push_back(i);
  } else if (is_int_object(d)) {
    const int64_t n = int_of(d, "dims");
    if (n < 0) throw FxError("tensordot expects dims >= 0, but got dims=" + std::to_string(n));
    if (n > x.dim()) throw FxError("tensordot expects dims < ndim_a or ndim_b, but got dims=" + std::to_string(n));
    for (int64_t i = 0; i < n; ++i) da.push_back(x.dim() - n + i), db.push_back(i);
  } else if (d.is_sequence() && d.items().size() == 2) {
    auto side = [](const Object& o) {
      if (o.is_tensor()) return int_values(o.tensor());
      return is_int_object(o) ? std::vector<int64_t>{int_of(o, "dims")} : ints_of(o, "dims");
    };
    da = side(d.items()[0]), db = side(d.items()[1]);
  } else if (d.is_tensor() && d.tensor().dim() == 2 && d.tensor().shape()[0] == 2) {
    std::vector<int64_t> flat = int_values(d.tensor());
    const size_t half = flat.size() / 2;
    da.assign(flat.begin(), flat.begin() + half), db.assign(flat.begin() + half, flat.end());
  } else {
    throw FxError("tensordot expects dims to be an int or a pair of dim lists, got " + d.describe());
  }
  return tensordot_tensors(a[0], a[1], da, db);
}

// inner: a 0-d operand multiplies; otherwise the sum over both last dims
Object inner_op(const OpCall& call) {
  static const Schema schema("inner(input|self, other)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  if (x.dim() == 0 || y.dim() == 0) return call_op("torch.mul", {a[0], a[1]});
  if (x.shape().back() != y.shape().back())
    throw FxError("inner() the last dimension must match on both input tensors but got shapes " +
                  shape_to_string(x.shape()) + " and " + shape_to_string(y.shape()));
  return tensordot_tensors(a[0], a[1], {-1}, {-1});
}

// trace: the sum of a matrix's main diagonal
Object trace_op(const OpCall& call) {
  static const Schema schema("trace(input|self)");
  Args a = schema.parse(call);
  if (a.tensor(0).dim() != 2) throw FxError("trace: expected a matrix, but got tensor with dim " +
                                            std::to_string(a.tensor(0).dim()));
  return call_op("torch.sum", {call_op("torch.diagonal", {a[0]})});
}

// diff: n times, x[1:] - x[:-1] along dim (logical_xor for bool), after prepending/appending
Object diff_op(const OpCall& call) {
  static const Schema schema("diff(input|self, n=1, dim=-1, prepend=None, append=None)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  if (x0.dim() == 0) throw FxError("diff expects input to be at least one-dimensional");
  const int64_t n = a.integer(1);
  if (n < 0) throw FxError("order must be non-negative but got " + std::to_string(n));
  const int64_t dim = checked_dim(a.integer(2), x0.dim());
  Object x = a[0];
  if (n == 0) return Object(x0.clone());  // (prepend and append too are left out, as torch does)
  if (!a.is_none(3) || !a.is_none(4)) {
    std::vector<Object> parts;
    auto edge = [&](size_t i) {
      const Tensor& t = a.tensor(i);
      parts.push_back(t.dim() == 0 ? call_op("torch.Tensor.expand", {a[i], ints([&] {
                        std::vector<int64_t> s = x0.shape();
                        s[dim] = 1;
                        return s;
                      }())})
                                   : a[i]);
    };
    if (!a.is_none(3)) edge(3);
    parts.push_back(x);
    if (!a.is_none(4)) edge(4);
    x = call_op("torch.cat", {Object::list(std::move(parts)), integer(dim)});
  }
  const bool is_bool = x.tensor().dtype() == DType::Bool;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = x.tensor().shape()[dim];
    if (len == 0) break;
    Object hi = call_op("torch.narrow", {x, integer(dim), integer(1), integer(len - 1)});
    Object lo = call_op("torch.narrow", {x, integer(dim), integer(0), integer(len - 1)});
    x = call_op(is_bool ? "torch.logical_xor" : "torch.sub", {hi, lo});
  }
  return x;
}

// cross product along a dim of size 3 (torch.cross: the first such dim when none is given)
Object cross_along(const Object& ao, const Object& bo, int64_t dim) {
  auto part = [&](const Object& t, int64_t i) { return call_op("torch.narrow", {t, integer(dim), integer(i), integer(1)}); };
  auto term = [&](int64_t i, int64_t j) {
    return call_op("torch.sub", {call_op("torch.mul", {part(ao, i), part(bo, j)}), call_op("torch.mul", {part(ao, j), part(bo, i)})});
  };
  return call_op("torch.cat", {Object::list({term(1, 2), term(2, 0), term(0, 1)}), integer(dim)});
}

template <bool kLinalg>
Object cross_op(const OpCall& call) {
  static const Schema schema(kLinalg ? "linalg_cross(input|self, other, *, dim=-1)" : "cross(input|self, other, dim=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  if (x.dim() != y.dim())
    throw FxError("linalg.cross: inputs must have the same number of dimensions.");
  std::vector<Object> both = call_op("torch.broadcast_tensors", {a[0], a[1]}).items();
  const Shape& s = both[0].tensor().shape();
  int64_t dim;
  if (a.is_none(2)) {
    auto it = std::find(s.begin(), s.end(), 3);
    if (it == s.end()) throw FxError("no dimension of size 3 in input");
    dim = it - s.begin();
  } else {
    dim = checked_dim(a.integer(2), x.dim());
  }
  if (x.shape()[dim] != 3 || y.shape()[dim] != 3)
    throw FxError("linalg.cross: inputs dimension " + std::to_string(dim) + " must have length 3. Got " +
                  std::to_string(x.shape()[dim]) + " and " + std::to_string(y.shape()[dim]));
  return cross_along(both[0], both[1], dim);
}

// diag_embed: the last dim written on the (offset) diagonal of the new dims dim1, dim2 of zeros
Tensor diag_embed(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t nd = x.dim() + 1;
  dim1 = checked_dim(dim1, nd), dim2 = checked_dim(dim2, nd);
  if (dim1 == dim2) throw FxError("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " + std::to_string(dim2));
  const int64_t len = x.shape().empty() ? 1 : x.shape().back();
  const int64_t side = len + (offset < 0 ? -offset : offset);
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < nd; ++d) {
    if (d == dim1 || d == dim2) out.push_back(side);
    else out.push_back(x.shape()[next++]);
  }
  Tensor y = Tensor::zeros(out, x.dtype());
  Tensor diag = call_op("torch.diagonal", {Object(y), integer(offset), integer(dim1), integer(dim2)}).tensor();
  copy_into(diag, x);
  return y;
}

Object diag_embed_op(const OpCall& call) {
  static const Schema schema("diag_embed(input|self, offset=0, dim1=-2, dim2=-1)");
  Args a = schema.parse(call);
  if (a.tensor(0).dim() == 0) throw FxError("diag_embed(): input must be at least 1-dimensional");
  return Object(diag_embed(a.tensor(0), a.integer(1), a.integer(2), a.integer(3)));
}

// diag: a vector onto a square matrix's diagonal, or a matrix's diagonal as a vector (a copy)
Object diag_op(const OpCall& call) {
  static const Schema schema("diag(input|self, diagonal=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() == 1) return Object(diag_embed(x, a.integer(1), 0, 1));
  if (x.dim() != 2) throw FxError("diag(): Supports 1D or 2D tensors. Got " + std::to_string(x.dim()) + "D");
  return Object(call_op("torch.diagonal", {a[0], a[1]}).tensor().clone());
}

Object diagflat_op(const OpCall& call) {
  static const Schema schema("diagflat(input|self, offset=0)");
  Args a = schema.parse(call);
  Tensor flat = call_op("torch.reshape", {a[0], ints({-1})}).tensor();
  return Object(diag_embed(flat, a.integer(1), 0, 1));
}

// diagonal_scatter: a copy of input with src written on its diagonal (offset, dim1, dim2)
Object diagonal_scatter_op(const OpCall& call) {
  static const Schema schema("diagonal_scatter(input|self, src, offset=0, dim1=0, dim2=1)");
  Args a = schema.parse(call);
  Tensor y = a.tensor(0).clone();
  Tensor diag = call_op("torch.diagonal", {Object(y), a[2], a[3], a[4]}).tensor();
  if (diag.shape() != a.tensor(1).shape())
    throw FxError("diagonal_scatter: src must have the shape of the diagonal, " + shape_to_string(diag.shape()) +
                  ", got " + shape_to_string(a.tensor(1).shape()));
  copy_into(diag, a.tensor(1));
  return Object(y);
}

// take: input flattened, indexed by `index` (negative indices count from the end)
Object take_op(const OpCall& call) {
  static const Schema schema("take(input|self, index)");
  Args a = schema.parse(call);
  Object flat = call_op("torch.reshape", {a[0], ints({-1})});
  Object idx = call_op("torch.reshape", {a[1], ints({-1})});
  const int64_t numel = a.tensor(0).numel();  // negative indices count from the end
  idx = call_op("torch.where", {call_op("torch.lt", {idx, integer(0)}), call_op("torch.add", {idx, integer(numel)}), idx});
  Object picked = call_op("torch.index_select", {flat, integer(0), idx});
  return call_op("torch.reshape", {picked, ints(a.tensor(1).shape())});
}

// X_copy(args…) = X(args…) copied out of the view (every tensor of a tuple result too)
Object copy_out(const Object& o) {
  if (o.is_tensor()) return Object(o.tensor().clone());
  if (o.is_sequence()) {
    std::vector<Object> items;
    for (const Object& x : o.items()) items.push_back(copy_out(x));
    return o.kind() == Object::Kind::Tuple ? Object::tuple(std::move(items)) : Object::list(std::move(items));
  }
  return o;
}

constexpr const char* kViewOf[] = {"torch.Tensor.view", "torch.permute", "torch.Tensor.expand", "torch.t",
                                   "torch.transpose", "torch.squeeze", "torch.unsqueeze", "torch.diagonal",
                                   "torch.narrow", "torch.unbind", "torch.split_with_sizes", "torch.select",
                                   "torch.detach", "torch.split", "torch.chunk", "torch.as_strided"};

template <int kView>
Object view_copy_op(const OpCall& call) {
  return copy_out(call_op(kViewOf[kView], call.args, call.kwargs));
}

const OpRow kOps[] = {
    {"torch.ravel", "torch.Tensor.ravel aten.ravel.default", "ravel", ravel_op},
    {"torch.column_stack", "aten.column_stack.default", "", column_stack_op},
    {"torch.hsplit", "torch.Tensor.hsplit", "hsplit", split_named_op<0>},
    {"torch.vsplit", "torch.Tensor.vsplit", "vsplit", split_named_op<1>},
    {"torch.dsplit", "torch.Tensor.dsplit", "dsplit", split_named_op<2>},
    {"torch.rot90", "torch.Tensor.rot90 aten.rot90.default", "rot90", rot90_op},
    {"torch.kron", "torch.Tensor.kron aten.kron.default", "kron", kron_op},
    {"torch.tensordot", "torch.functional.tensordot aten.tensordot.default", "", tensordot_op},
    {"torch.inner", "torch.Tensor.inner aten.inner.default", "inner", inner_op},
    {"torch.trace", "torch.Tensor.trace aten.trace.default", "trace", trace_op},
    {"torch.diff", "torch.Tensor.diff aten.diff.default", "diff", diff_op},
    {"torch.cross", "torch.Tensor.cross aten.cross.default", "cross", cross_op<false>},
    {"torch.linalg.cross", "torch._C._linalg.linalg_cross aten.linalg_cross.default", "", cross_op<true>},
    {"torch.diag", "torch.Tensor.diag aten.diag.default", "diag", diag_op},
    {"torch.diag_embed", "torch.Tensor.diag_embed aten.diag_embed.default", "diag_embed", diag_embed_op},
    {"torch.diagflat", "torch.Tensor.diagflat aten.diagflat.default", "diagflat", diagflat_op},
    {"torch.diagonal_scatter", "torch.Tensor.diagonal_scatter aten.diagonal_scatter.default", "diagonal_scatter",
     diagonal_scatter_op},
    {"torch.take", "torch.Tensor.take aten.take.default", "take", take_op},
    {"torch.view_copy", "aten.view_copy.default", "", view_copy_op<0>},
    {"torch.permute_copy", "aten.permute_copy.default", "", view_copy_op<1>},
    {"torch.expand_copy", "aten.expand_copy.default", "", view_copy_op<2>},
    {"torch.t_copy", "aten.t_copy.default", "", view_copy_op<3>},
    {"torch.transpose_copy", "aten.transpose_copy.int", "", view_copy_op<4>},
    {"torch.squeeze_copy", "aten.squeeze_copy.default aten.squeeze_copy.dim aten.squeeze_copy.dims", "", view_copy_op<5>},
    {"torch.unsqueeze_copy", "aten.unsqueeze_copy.default", "", view_copy_op<6>},
    {"torch.diagonal_copy", "aten.diagonal_copy.default", "", view_copy_op<7>},
    {"torch.narrow_copy", "torch.Tensor.narrow_copy aten.narrow_copy.default", "narrow_copy", view_copy_op<8>},
    {"torch.unbind_copy", "aten.unbind_copy.int", "", view_copy_op<9>},
    {"torch.split_with_sizes_copy", "aten.split_with_sizes_copy.default", "", view_copy_op<10>},
    {"torch.select_copy", "aten.select_copy.int", "", view_copy_op<11>},
    {"torch.detach_copy", "", "", view_copy_op<12>},
    {"torch.split_copy", "aten.split_copy.Tensor", "", view_copy_op<13>},
    {"torch.unsafe_split", "torch.Tensor.unsafe_split", "unsafe_split", view_copy_op<13>},
    {"torch.unsafe_chunk", "torch.Tensor.unsafe_chunk", "unsafe_chunk", view_copy_op<14>},
    {"torch.alias_copy", "", "", view_copy_op<12>},
    {"torch.as_strided_copy", "aten.as_strided_copy.default", "", view_copy_op<15>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
