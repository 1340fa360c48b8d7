// Indexing: x[index] as torch/numpy define it (ints, slices, None, Ellipsis, bool masks, index tensors
// and lists, in any combination), x[index] = v (operator.setitem, aten.index_put_), aten.index.Tensor,
// index_select. Basic indices make a view; index tensors gather into a new tensor whose broadcast index
// dims replace the indexed dims in place when those are adjacent and go first otherwise (numpy's rule).
#include <algorithm>
#include <cstring>

#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/shape_ops.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

// The result of applying the basic indices: a view, plus the index tensors and the view dims they index.
struct Indexed {
  Tensor view;
  std::vector<int64_t> dims;
  std::vector<Tensor> indices;  // int64
};

Tensor long_tensor(const std::vector<int64_t>& v) {  // known values: a real tensor, in meta mode too
  return Tensor::from_bytes({static_cast<int64_t>(v.size())}, DType::Int64, v.data(), v.size() * sizeof(int64_t));
}

// A list index ([0, 2] or [True, False]) is an index tensor.
Tensor list_index(const Object& o) {
  bool all_bool = !o.items().empty();
  for (const Object& x : o.items()) all_bool = all_bool && x.is_value() && x.value().kind() == ValueKind::Bool;
  if (all_bool) {
    std::vector<uint8_t> v;  // known values: a real tensor, in meta mode too
    for (const Object& x : o.items()) v.push_back(x.value().as_bool() ? 1 : 0);
    return Tensor::from_bytes({static_cast<int64_t>(v.size())}, DType::Bool, v.data(), v.size());
  }
  std::vector<int64_t> v;
  for (const Object& x : o.items()) v.push_back(int_of(x, "an index in a list"));
  return long_tensor(v);
}

// The indices (one per dim) of the true elements of a bool mask, as nonzero(as_tuple=True) gives them.
std::vector<Tensor> mask_indices(const Tensor& mask) {
  Tensor m = to_dtype(mask, DType::Bool).contiguous();
  const int64_t k = m.dim();
  std::vector<std::vector<int64_t>> idx(k);
  std::vector<int64_t> pos(k, 0);
  for (int64_t i = 0; i < m.numel(); ++i) {
    if (m.data<bool>()[i])
      for (int64_t d = 0; d < k; ++d) idx[d].push_back(pos[d]);
    for (int64_t d = k; d-- > 0;) {
      if (++pos[d] < m.shape()[d]) break;
      pos[d] = 0;
    }
  }
  std::vector<Tensor> out;
  for (auto& v : idx) out.push_back(long_tensor(v));
  return out;
}

Tensor unsqueeze_view(const Tensor& x, int64_t d) {
  Shape shape = x.shape(), strides = x.strides();
  shape.insert(shape.begin() + d, 1);
  strides.insert(strides.begin() + d, d < x.dim() ? x.shape()[d] * x.strides()[d] : 1);
  return make_view(x, shape, strides, x.offset());
}

Indexed apply_basic(const Tensor& x, const Object& index) {
  std::vector<Object> items;
  if (index.kind() == Object::Kind::Tuple) items = index.items();
  else items.push_back(index);
  // How many of x's dims the items consume (Ellipsis takes the rest).
  int64_t consumed = 0;
  bool ellipsis = false;
  for (const Object& it : items) {
    if (it.is_tensor()) {
      const Tensor& t = it.tensor();
      consumed += (t.dtype() == DType::Bool || t.dtype() == DType::UInt8) ? t.dim() : 1;
    } else if (it.is_sequence()) {
      consumed += 1;
    } else if (it.value().kind() == ValueKind::Ellipsis) {
      if (ellipsis) throw FxError("an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (it.value().kind() != ValueKind::None && it.value().kind() != ValueKind::Bool) {
      consumed += 1;
    }
  }
  if (consumed > x.dim())
    throw FxError("too many indices for tensor of dimension " + std::to_string(x.dim()));
  Indexed r{x, {}, {}};
  int64_t d = 0;
  for (const Object& it : items) {
    if (it.is_tensor() || it.is_sequence()) {
      Tensor t = it.is_tensor() ? it.tensor() : list_index(it);
      if (t.dtype() == DType::Bool || t.dtype() == DType::UInt8) {
        if (t.dim() == 0) {  // x[tensor(True)]: a new dim of size 1 (or 0), indexed
          r.view = unsqueeze_view(r.view, d);
          r.dims.push_back(d++);
          r.indices.push_back(long_tensor(t.dtype() == DType::Bool ? (*t.data<bool>() ? std::vector<int64_t>{0}
                                                                                      : std::vector<int64_t>{})
                                                                   : (*t.data<uint8_t>() ? std::vector<int64_t>{0}
                                                                                         : std::vector<int64_t>{})));
          continue;
        }
        for (int64_t j = 0; j < t.dim(); ++j)
          if (t.shape()[j] != r.view.shape()[d + j])
            throw FxError("The shape of the mask " + shape_to_string(t.shape()) + " at index " + std::to_string(j) +
                          " does not match the shape of the indexed tensor " + shape_to_string(r.view.shape()) +
                          " at index " + std::to_string(d + j));
        for (Tensor& idx : mask_indices(t)) {
          r.dims.push_back(d++);
          r.indices.push_back(idx);
        }
        continue;
      }
      if (dtype_is_floating(t.dtype()))
        throw FxError("tensors used as indices must be long, int, byte or bool tensors");
      r.dims.push_back(d++);
      r.indices.push_back(to_dtype(t, DType::Int64));
      continue;
    }
    const Value& v = it.value();
    switch (v.kind()) {
      case ValueKind::Int: {
        int64_t size = r.view.shape()[d], i = v.as_int();
        if (i < -size || i >= size)
          throw FxError("index " + std::to_string(i) + " is out of bounds for dimension " + std::to_string(d) +
                        " with size " + std::to_string(size));
        r.view = select_view(r.view, d, i);
        break;
      }
      case ValueKind::Slice: {
        const ValueList& p = v.items();
        auto part = [](const Value& x) -> std::optional<int64_t> {
          if (x.is_none()) return std::nullopt;
          return x.as_int();
        };
        int64_t step = p[2].is_none() ? 1 : p[2].as_int();
        if (step <= 0) throw FxError("step must be greater than zero");
        r.view = slice_view(r.view, d, part(p[0]), part(p[1]), step);
        ++d;
        break;
      }
      case ValueKind::None: r.view = unsqueeze_view(r.view, d++); break;
      case ValueKind::Bool:
        r.view = unsqueeze_view(r.view, d);
        if (!v.as_bool()) r.view = slice_view(r.view, d, 0, 0, 1);
        ++d;
        break;
      case ValueKind::Ellipsis: d += x.dim() - consumed; break;
      default: throw FxError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             "valid indices (got " + it.describe() + ")");
    }
  }
  return r;
}

// Sizes and strides of the dims of `v` not in `dims`.
void rest_dims(const Tensor& v, const std::vector<int64_t>& dims, Shape* shape, Shape* strides) {
  for (int64_t d = 0; d < v.dim(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
      shape->push_back(v.shape()[d]);
      strides->push_back(v.strides()[d]);
    }
}

bool adjacent(const std::vector<int64_t>& dims) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1) return false;
  return true;
}

// For each position of the broadcast index shape: the element offset (in view storage) it selects.
std::vector<int64_t> gather_offsets(const Indexed& r, Shape* bshape) {
  std::vector<Shape> shapes;
  for (const Tensor& t : r.indices) shapes.push_back(t.shape());
  *bshape = broadcast_shapes(shapes);
  const int64_t n = checked_numel(*bshape);
  if (meta_mode()) return {};  // shape inference: the offsets would need the index values
  std::vector<int64_t> offsets(n, r.view.offset());
  for (size_t k = 0; k < r.indices.size(); ++k) {
    Tensor idx = expand_to(r.indices[k], *bshape).contiguous();
    const int64_t size = r.view.shape()[r.dims[k]], stride = r.view.strides()[r.dims[k]];
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = idx.data<int64_t>()[i];
      if (j < -size || j >= size)
        throw FxError("index " + std::to_string(j) + " is out of bounds for dimension " + std::to_string(r.dims[k]) +
                      " with size " + std::to_string(size));
      offsets[i] += (j < 0 ? j + size : j) * stride;
    }
  }
  return offsets;
}

// The permutation taking [broadcast dims..., rest dims...] to torch's result order.
std::vector<int64_t> result_order(const Indexed& r, int64_t nb, int64_t nrest) {
  std::vector<int64_t> order;
  const int64_t lead = adjacent(r.dims) ? r.dims.front() : 0;
  for (int64_t i = 0; i < lead; ++i) order.push_back(nb + i);
  for (int64_t i = 0; i < nb; ++i) order.push_back(i);
  for (int64_t i = lead; i < nrest; ++i) order.push_back(nb + i);
  return order;
}

Tensor permuted(const Tensor& t, const std::vector<int64_t>& order) {
  Shape shape, strides;
  for (int64_t o : order) {
    shape.push_back(t.shape()[o]);
    strides.push_back(t.strides()[o]);
  }
  return make_view(t, shape, strides, t.offset());
}

// Copies between a view's element at `base` (with rest shape/strides) and a packed chunk.
void copy_chunk(const Tensor& view, int64_t base, const Shape& shape, const Shape& strides, const Tensor& other,
                int64_t other_offset, const Shape& other_strides, bool into_view, bool accumulate = false) {
  Tensor at = make_view(view, shape, strides, base);
  Tensor ot = make_view(other, shape, other_strides, other_offset);
  if (into_view && accumulate) copy_into(at, OpRegistry::global().call("operator.add", {at, ot}).tensor());
  else if (into_view) copy_into(at, ot);
  else copy_into(ot, at);
}

}  // namespace

Tensor tensor_getitem(const Tensor& x, const Object& index) {
  Indexed r = apply_basic(x, index);
  if (r.indices.empty()) return r.view.storage() == x.storage() && r.view.shape() == x.shape() &&
                                        r.view.strides() == x.strides() && r.view.offset() == x.offset()
                                    ? make_view(x, x.shape(), x.strides(), x.offset())
                                    : r.view;
  Shape bshape, rshape, rstrides;
  std::vector<int64_t> offsets = gather_offsets(r, &bshape);
  rest_dims(r.view, r.dims, &rshape, &rstrides);
  Shape full = bshape;
  full.insert(full.end(), rshape.begin(), rshape.end());
  Tensor out = Tensor::empty(full, x.dtype());
  const int64_t chunk = checked_numel(rshape);
  const Shape cstrides = contiguous_strides(rshape);
  for (size_t i = 0; i < offsets.size(); ++i)
    copy_chunk(r.view, offsets[i], rshape, rstrides, out, static_cast<int64_t>(i) * chunk, cstrides, false);
  return permuted(out, result_order(r, static_cast<int64_t>(bshape.size()), static_cast<int64_t>(rshape.size())))
      .contiguous();
}

void tensor_setitem(const Tensor& x, const Object& index, const Object& value, bool accumulate) {
  Tensor v = value.is_tensor() ? value.tensor() : checked_scalar_tensor(to_number(value), x.dtype());
  Indexed r = apply_basic(x, index);
  if (r.indices.empty()) {
    Tensor e = expand_to(v, r.view.shape());
    copy_into(r.view, accumulate ? OpRegistry::global().call("operator.add", {r.view, e}).tensor() : e);
    return;
  }
  Shape bshape, rshape, rstrides;
  std::vector<int64_t> offsets = gather_offsets(r, &bshape);
  rest_dims(r.view, r.dims, &rshape, &rstrides);
  const int64_t nb = static_cast<int64_t>(bshape.size()), nr = static_cast<int64_t>(rshape.size());
  std::vector<int64_t> order = result_order(r, nb, nr);
  // The value broadcast to the result shape, then read back in [broadcast..., rest...] order.
  Shape result_shape;
  Shape full = bshape;
  full.insert(full.end(), rshape.begin(), rshape.end());
  for (int64_t o : order) result_shape.push_back(full[o]);
  Tensor vb = expand_to(to_dtype(v, x.dtype()), result_shape);
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
  Tensor vp = permuted(vb, inverse);
  Shape vstrides(vp.strides().begin() + nb, vp.strides().end());
  // Position i of the broadcast index shape → vp's offset for it.
  Shape bstrides(vp.strides().begin(), vp.strides().begin() + nb);
  std::vector<int64_t> pos(nb, 0);
  for (size_t i = 0; i < offsets.size(); ++i) {
    int64_t off = vp.offset();
    for (int64_t d = 0; d < nb; ++d) off += pos[d] * bstrides[d];
    copy_chunk(r.view, offsets[i], rshape, rstrides, vp, off, vstrides, true, accumulate);
    for (int64_t d = nb; d-- > 0;) {
      if (++pos[d] < bshape[d]) break;
      pos[d] = 0;
    }
  }
}

namespace {

Object getitem_tensor_op(const OpCall& call) {
  static const Schema schema("index(input|self, indices)");
  Args a = schema.parse(call);
  // aten.index.Tensor: one optional tensor per leading dim; None means the whole dim.
  std::vector<Object> items;
  for (const Object& o : a[1].items())
    items.push_back(o.is_tensor() ? o : Object(Value::slice(Value(), Value(), Value())));
  return tensor_getitem(a.tensor(0), Object::tuple(std::move(items)));
}

Object index_put(const OpCall& call, bool inplace) {
  static const Schema schema("index_put(input|self, indices, values, accumulate=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  Tensor target = inplace ? x : x.clone();
  std::vector<Object> items;
  for (const Object& o : a[1].items())
    items.push_back(o.is_tensor() ? o : Object(Value::slice(Value(), Value(), Value())));
  tensor_setitem(target, Object::tuple(std::move(items)), a[2], a.boolean(3));
  return target;
}
Object index_put_op(const OpCall& call) { return index_put(call, false); }
Object index_put_inplace_op(const OpCall& call) { return index_put(call, true); }

Object index_select_op(const OpCall& call) {
  static const Schema schema("index_select(input|self, dim, index)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& idx = a.tensor(2);
  if (idx.dim() > 1) throw FxError("index_select(): Index is supposed to be a vector");
  if (idx.dtype() != DType::Int64 && idx.dtype() != DType::Int32)
    throw FxError("index_select(): Expected dtype int32 or int64 for index");
  if (x.dim() == 0) {
    checked_dim(a.integer(1), 0);
    return tensor_getitem(x.contiguous().clone(), Object(Value::ellipsis()));
  }
  int64_t d = checked_dim(a.integer(1), x.dim());
  Tensor li = to_dtype(idx, DType::Int64).contiguous();
  for (int64_t i = 0; i < li.numel() && !meta_mode(); ++i)  // (a check of values: not in shape inference)
    if (li.data<int64_t>()[i] < 0 || li.data<int64_t>()[i] >= x.shape()[d]) throw FxError("index out of range in self");
  std::vector<Object> items(d, Object(Value::slice(Value(), Value(), Value())));
  items.emplace_back(reshape(idx, {idx.numel()}));
  return tensor_getitem(x, Object::tuple(std::move(items)));
}

const OpRow kOps[] = {
    {"aten.index.Tensor", "aten._unsafe_index.Tensor", "", getitem_tensor_op},
    {"torch.index_put", "torch.Tensor.index_put aten.index_put.default aten._unsafe_index_put.default", "index_put", index_put_op},
    {"torch.index_put_", "torch.Tensor.index_put_ aten.index_put_.default", "index_put_", index_put_inplace_op},
    {"torch.index_select", "torch.Tensor.index_select aten.index_select.default", "index_select", index_select_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
