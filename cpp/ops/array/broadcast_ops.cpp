// Broadcasting and tiling: broadcast_to / broadcast_tensors (views, as expand), tile, repeat_interleave,
// meshgrid, outer, atleast_1d/2d/3d, diagonal (a view), take_along_dim, select_scatter and slice_scatter.
#include <algorithm>

#include "ops/dispatch.h"
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/shape_ops.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/checked.h"
#include "tensor/meta.h"

namespace fx {
namespace {

Object ints(const std::vector<int64_t>& v) {
  std::vector<Object> items;
  for (int64_t x : v) items.push_back(Object(Value::integer(x)));
  return Object::list(std::move(items));
}

// Tensors given as varargs (f(a, b)) or as one sequence (f([a, b])).
std::vector<Tensor> tensor_args(const OpCall& call, const char* op) {
  std::vector<Object> items = call.args;
  if (items.size() == 1 && items[0].is_sequence()) items = items[0].items();
  std::vector<Tensor> out;
  for (const Object& o : items) {
    if (!o.is_tensor()) throw FxError(std::string(op) + "(): expected Tensors, got " + o.describe());
    out.push_back(o.tensor());
  }
  return out;
}

Object broadcast_to_op(const OpCall& call) {
  static const Schema schema("broadcast_to(input|self, size)");
  Args a = schema.parse(call);
  return call_op("torch.Tensor.expand", {a[0], a[1]});
}

Object broadcast_tensors_op(const OpCall& call) {
  std::vector<Tensor> ts = tensor_args(call, "broadcast_tensors");
  std::vector<Shape> shapes;
  for (const Tensor& t : ts) shapes.push_back(t.shape());
  const Shape shape = broadcast_shapes(shapes);
  std::vector<Object> out;
  for (const Tensor& t : ts) out.push_back(expand_to(t, shape));
  return Object::tuple(std::move(out));
}

Object tile_op(const OpCall& call) {
  const Tensor& x = call.args.at(0).tensor();
  std::vector<int64_t> dims = vararg_ints(call, 1, "dims", "tile");
  while (static_cast<int64_t>(dims.size()) < x.dim()) dims.insert(dims.begin(), 1);
  return call_op("torch.Tensor.repeat", {x, ints(dims)});
}

// An int64 index repeating each i in [0, reps.size()) reps[i] times; `total` its length.
Tensor repeat_index(const std::vector<int64_t>& reps, int64_t total) {
  Tensor index = Tensor::empty({total}, DType::Int64);
  dispatch_compute(DType::Int64, "repeat_interleave", [&](int64_t) {
    int64_t* p = index.data<int64_t>();
    for (size_t i = 0; i < reps.size(); ++i)
      for (int64_t k = 0; k < reps[i]; ++k) *p++ = static_cast<int64_t>(i);
  });
  return index;
}

// Repeat counts from a tensor: its values (so unknown under inference unless output_size is given).
std::vector<int64_t> repeat_counts(const Tensor& r0, const std::optional<int64_t>& output_size, int64_t n) {
  if (meta_mode() && r0.is_meta()) {
    if (!output_size) throw_data_dependent();
    std::vector<int64_t> reps(static_cast<size_t>(n), 0);  // only the total matters for the shape
    if (n > 0) reps[0] = *output_size;
    return reps;
  }
  const Tensor r = to_dtype(r0, DType::Int64).contiguous();
  std::vector<int64_t> reps(r.data<int64_t>(), r.data<int64_t>() + r.numel());
  for (int64_t v : reps)
    if (v < 0) throw FxError("repeats can not be negative");
  return reps;
}

// repeat_interleave(input, repeats, dim=None, *, output_size=None); repeat_interleave(repeats) gives
// each index i repeats[i] times.
Object repeat_interleave_op(const OpCall& call) {
  static const Schema schema("repeat_interleave(input|self, repeats=None, dim=None, *, output_size=None)");
  Args a = schema.parse(call);
  const std::optional<int64_t> output_size = a.is_none(3) ? std::nullopt : std::optional<int64_t>(a.integer(3));
  // The output length: output_size when given (torch ignores it for no repeats), else the checked sum.
  auto total_of = [&output_size](const std::vector<int64_t>& reps) {
    if (reps.empty()) return int64_t{0};
    if (output_size) return *output_size;
    int64_t t = 0;
    for (int64_t v : reps) t = checked_add(t, v, "repeat_interleave(): output size");
    return t;
  };
  if (a.is_none(1)) {  // torch.repeat_interleave(repeats)
    std::vector<int64_t> reps = repeat_counts(a.tensor(0), output_size, a.tensor(0).numel());
    return repeat_index(reps, total_of(reps));
  }
  Tensor x = a.tensor(0);
  int64_t dim = 0;
  if (a.is_none(2)) x = reshape(x.contiguous(), {x.numel()});
  else dim = checked_dim(a.integer(2), x.dim());
  const int64_t size = x.dim() == 0 ? 1 : x.shape()[dim];
  std::vector<int64_t> reps;
  if (a[1].is_tensor() && a.tensor(1).numel() != 1) {
    reps = repeat_counts(a.tensor(1), output_size, a.tensor(1).numel());
  } else {
    const int64_t r = a[1].is_tensor() ? repeat_counts(a.tensor(1), output_size, 1)[0] : a.integer(1);
    if (r < 0) throw FxError("repeats can not be negative");
    reps.assign(static_cast<size_t>(size), r);
    if (a[1].is_tensor() && meta_mode() && a.tensor(1).is_meta()) reps.assign(static_cast<size_t>(size), 0), reps[0] = *output_size;
  }
  if (static_cast<int64_t>(reps.size()) != size)
    throw FxError("repeats must have the same size as input along dim, but got repeats.size(0) = " +
                  std::to_string(reps.size()) + " and input.size(" + std::to_string(dim) + ") = " +
                  std::to_string(size));
  Tensor index = repeat_index(reps, total_of(reps));
  return call_op("torch.index_select", {x, Object(Value::integer(dim)), index});
}

Object meshgrid_op(const OpCall& call) {
  OpCall plain = call;
  std::string indexing = "ij";
  plain.kwargs.clear();
  for (const auto& kw : call.kwargs) {
    if (kw.first == "indexing") {
      if (!kw.second.value().is_none()) indexing = kw.second.value().as_str();
    } else {
      throw FxError("meshgrid() got an unexpected keyword argument '" + kw.first + "'");
    }
  }
  if (indexing != "ij" && indexing != "xy")
    throw FxError("torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " + indexing);
  std::vector<Tensor> ts = tensor_args(plain, "meshgrid");
  const bool swap = indexing == "xy" && ts.size() >= 2;
  Shape shape;
  for (const Tensor& t : ts) {
    if (t.dim() > 1) throw FxError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " +
                                   shape_to_string(t.shape()));
    shape.push_back(t.numel());
  }
  if (swap) std::swap(shape[0], shape[1]);
  std::vector<Object> out;
  for (size_t i = 0; i < ts.size(); ++i) {
    size_t at = i;
    if (swap && i < 2) at = 1 - i;
    Shape view(shape.size(), 1);
    view[at] = ts[i].numel();
    out.push_back(expand_to(reshape(ts[i], view), shape));
  }
  return Object::tuple(std::move(out));
}

Object outer_op(const OpCall& call) {
  static const Schema schema("outer(input|self, vec2)");
  Args a = schema.parse(call);
  if (a.tensor(0).dim() != 1 || a.tensor(1).dim() != 1) throw FxError("outer: expected 1-D tensors");
  Tensor col = reshape(a.tensor(0), {a.tensor(0).numel(), 1});
  return call_op("torch.mul", {col, a[1]});
}

template <int kMin>
Object atleast_op(const OpCall& call) {
  std::vector<Tensor> ts = tensor_args(call, "atleast_nd");
  std::vector<Object> out;
  for (const Tensor& t : ts) {
    Shape s = t.shape();
    if (kMin >= 1 && s.empty()) s = {1};
    if (kMin >= 2 && s.size() == 1) s = {1, s[0]};
    if (kMin >= 3 && s.size() == 2) s = {s[0], s[1], 1};
    out.push_back(reshape(t, s));
  }
  if (call.args.size() == 1 && call.args[0].is_tensor()) return out[0];
  return Object::tuple(std::move(out));
}

Object diagonal_op(const OpCall& call) {
  static const Schema schema("diagonal(input|self, offset=0, dim1=0, dim2=1)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t off = a.integer(1);
  const int64_t d1 = checked_dim(a.integer(2), x.dim()), d2 = checked_dim(a.integer(3), x.dim());
  if (d1 == d2) throw FxError("diagonal dimensions cannot be identical " + std::to_string(a.integer(2)) + ", " +
                              std::to_string(a.integer(3)));
  int64_t n = off >= 0 ? std::min(x.shape()[d1], x.shape()[d2] - off) : std::min(x.shape()[d1] + off, x.shape()[d2]);
  n = std::max<int64_t>(n, 0);
  int64_t offset = x.offset();
  if (n > 0) offset += off >= 0 ? off * x.strides()[d2] : -off * x.strides()[d1];
  Shape shape, strides;
  for (int64_t k = 0; k < x.dim(); ++k)
    if (k != d1 && k != d2) shape.push_back(x.shape()[k]), strides.push_back(x.strides()[k]);
  shape.push_back(n);
  strides.push_back(x.strides()[d1] + x.strides()[d2]);
  return Tensor(x.storage(), x.dtype(), shape, strides, offset);
}

Object take_along_dim_op(const OpCall& call) {
  static const Schema schema("take_along_dim(input|self, indices, dim=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.is_none(2))
    return call_op("torch.gather", {reshape(x.contiguous(), {x.numel()}), Object(Value::integer(0)),
                                    reshape(a.tensor(1).contiguous(), {a.tensor(1).numel()})});
  const int64_t d = checked_dim(a.integer(2), x.dim());
  Shape sx = x.shape(), si = a.tensor(1).shape();
  sx[d] = 1, si[d] = 1;
  Shape b = broadcast_shapes(sx, si);
  Shape bx = b, bi = b;
  bx[d] = x.shape()[d], bi[d] = a.tensor(1).shape()[d];
  return call_op("torch.gather", {expand_to(x, bx), Object(Value::integer(d)), expand_to(a.tensor(1), bi)});
}

Object select_scatter_op(const OpCall& call) {
  static const Schema schema("select_scatter(input|self, src, dim, index)");
  Args a = schema.parse(call);
  Tensor out = a.tensor(0).clone();
  const int64_t d = checked_dim(a.integer(2), out.dim());
  Tensor dst = select_view(out, d, a.integer(3));
  if (dst.shape() != a.tensor(1).shape())
    throw FxError("expected src to have a size equal to the slice of self. src size = " +
                  shape_to_string(a.tensor(1).shape()) + ", slice size = " + shape_to_string(dst.shape()));
  copy_into(dst, a.tensor(1));
  return out;
}

Object slice_scatter_op(const OpCall& call) {
  static const Schema schema("slice_scatter(input|self, src, dim=0, start=None, end=None, step=1)");
  Args a = schema.parse(call);
  Tensor out = a.tensor(0).clone();
  const int64_t d = checked_dim(a.integer(2), out.dim());
  auto opt = [&](size_t i) { return a.is_none(i) ? std::nullopt : std::optional<int64_t>(a.integer(i)); };
  Tensor dst = slice_view(out, d, opt(3), opt(4), a.integer(5));
  if (dst.shape() != a.tensor(1).shape())
    throw FxError("expected src to have a size equal to the slice of self. src size = " +
                  shape_to_string(a.tensor(1).shape()) + ", slice size = " + shape_to_string(dst.shape()));
  copy_into(dst, a.tensor(1));
  return out;
}

const OpRow kOps[] = {
    {"torch.broadcast_to", "aten.broadcast_to.default torch.Tensor.broadcast_to", "broadcast_to", broadcast_to_op},
    {"torch.broadcast_tensors", "torch.functional.broadcast_tensors aten.broadcast_tensors.default", "", broadcast_tensors_op},
    {"torch.tile", "aten.tile.default torch.Tensor.tile", "tile", tile_op},
    {"torch.repeat_interleave", "torch.Tensor.repeat_interleave aten.repeat_interleave.self_int aten.repeat_interleave.self_Tensor aten.repeat_interleave.Tensor", "repeat_interleave", repeat_interleave_op},
    {"torch.meshgrid", "torch.functional.meshgrid aten.meshgrid.default aten.meshgrid.indexing", "", meshgrid_op},
    {"torch.outer", "torch.Tensor.outer torch.ger torch.Tensor.ger aten.outer.default", "outer ger", outer_op},
    {"torch.atleast_1d", "torch.functional.atleast_1d aten.atleast_1d.default", "", atleast_op<1>},
    {"torch.atleast_2d", "torch.functional.atleast_2d aten.atleast_2d.default", "", atleast_op<2>},
    {"torch.atleast_3d", "torch.functional.atleast_3d aten.atleast_3d.default", "", atleast_op<3>},
    {"torch.diagonal", "aten.diagonal.default torch.Tensor.diagonal", "diagonal", diagonal_op},
    {"torch.take_along_dim", "aten.take_along_dim.default torch.Tensor.take_along_dim", "take_along_dim", take_along_dim_op},
    {"torch.select_scatter", "aten.select_scatter.default torch.Tensor.select_scatter", "select_scatter", select_scatter_op},
    {"torch.slice_scatter", "aten.slice_scatter.default torch.Tensor.slice_scatter", "slice_scatter", slice_scatter_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
