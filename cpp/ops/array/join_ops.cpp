// Ops that build a new tensor out of pieces: cat/concat, stack, hstack/vstack/dstack, repeat, roll, flip
// (fliplr/flipud) and triu/tril. Each writes whole strided blocks with copy_into (no per-element dtype
// dispatch): cat/stack copy each input into its slice of the output; flip reads through negative strides.
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
#include "tensor/checked.h"
#include "tensor/promote.h"

namespace fx {

std::vector<Tensor> tensor_list(const Object& o, const std::string& op) {
  if (!o.is_sequence()) throw FxError(op + "(): argument 'tensors' must be tuple of Tensors, not " + o.describe());
  std::vector<Tensor> out;
  for (const Object& x : o.items()) {
    if (!x.is_tensor()) throw FxError(op + "(): expected Tensor as element in argument 'tensors', got " + x.describe());
    out.push_back(x.tensor());
  }
  return out;
}

Tensor cat_tensors(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw FxError("torch.cat(): expected a non-empty list of Tensors");
  DType dtype = ts[0].dtype();
  for (const Tensor& t : ts) dtype = promote_types(dtype, t.dtype());
  // Legacy behaviour kept by torch: 1-D empty tensors are skipped whatever the other shapes.
  const Tensor* ref = nullptr;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].dim() == 0)
      throw FxError("zero-dimensional tensor (at position " + std::to_string(i) + ") cannot be concatenated");
    if (!ref && !(ts[i].dim() == 1 && ts[i].numel() == 0)) ref = &ts[i];
  }
  if (!ref) return Tensor::empty({0}, dtype);
  const int64_t d = checked_dim(dim, ref->dim());
  Shape shape = ref->shape();
  shape[d] = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i];
    if (t.dim() == 1 && t.numel() == 0) continue;
    if (t.dim() != ref->dim())
      throw FxError("Tensors must have same number of dimensions: got " + std::to_string(ref->dim()) + " and " +
                    std::to_string(t.dim()));
    for (int64_t k = 0; k < t.dim(); ++k)
      if (k != d && t.shape()[k] != ref->shape()[k])
        throw FxError("Sizes of tensors must match except in dimension " + std::to_string(d) + ". Expected size " +
                      std::to_string(ref->shape()[k]) + " but got size " + std::to_string(t.shape()[k]) +
                      " for tensor number " + std::to_string(i) + " in the list.");
    shape[d] += t.shape()[d];
  }
  Tensor out = Tensor::empty(shape, dtype);
  int64_t at = 0;
  for (const Tensor& t : ts) {
    if (t.dim() == 1 && t.numel() == 0) continue;
    copy_into(slice_view(out, d, at, at + t.shape()[d], 1), t);
    at += t.shape()[d];
  }
  return out;
}

namespace {

Object cat_op(const OpCall& call) {
  static const Schema schema("cat(tensors, dim|axis=0)");
  Args a = schema.parse(call);
  return cat_tensors(tensor_list(a[0], "cat"), a.integer(1));
}

Tensor unsqueezed(const Tensor& t, int64_t d) {
  Shape shape = t.shape(), strides = t.strides();
  shape.insert(shape.begin() + d, 1);
  strides.insert(strides.begin() + d, 1);
  return make_view(t, shape, strides, t.offset());
}

Object stack_op(const OpCall& call) {
  static const Schema schema("stack(tensors, dim=0)");
  Args a = schema.parse(call);
  std::vector<Tensor> ts = tensor_list(a[0], "stack");
  if (ts.empty()) throw FxError("stack expects a non-empty TensorList");
  const int64_t d = checked_dim(a.integer(1), ts[0].dim() + 1);
  for (size_t i = 1; i < ts.size(); ++i)
    if (ts[i].shape() != ts[0].shape())
      throw FxError("stack expects each tensor to be equal size, but got " + shape_to_string(ts[0].shape()) +
                    " at entry 0 and " + shape_to_string(ts[i].shape()) + " at entry " + std::to_string(i));
  for (Tensor& t : ts) t = unsqueezed(t, d);
  return cat_tensors(ts, d);
}

// hstack/vstack/dstack: atleast_{1,2,3}d, then cat along dim 0/1, 0, 2.
template <int kKind>  // 0 h, 1 v, 2 d
Object xstack_op(const OpCall& call) {
  static const char* names[] = {"hstack", "vstack", "dstack"};
  static const Schema schema(std::string(names[kKind]) + "(tensors)");
  Args a = schema.parse(call);
  std::vector<Tensor> ts = tensor_list(a[0], names[kKind]);
  if (ts.empty()) throw FxError(std::string(names[kKind]) + " expects a non-empty TensorList");
  for (Tensor& t : ts) {
    if (kKind == 0 && t.dim() == 0) t = reshape(t, {1});
    if (kKind >= 1 && t.dim() == 0) t = reshape(t, {1, 1});
    if (kKind >= 1 && t.dim() == 1) t = reshape(t, {1, t.shape()[0]});
    if (kKind == 2 && t.dim() == 2) t = reshape(t, {t.shape()[0], t.shape()[1], 1});
  }
  int64_t dim = kKind == 0 ? (ts[0].dim() == 1 ? 0 : 1) : kKind == 1 ? 0 : 2;
  return cat_tensors(ts, dim);
}

Object repeat_op(const OpCall& call) {
  if (call.args.empty() || !call.args[0].is_tensor()) throw FxError("repeat(): expected a Tensor");
  const Tensor& x = call.args[0].tensor();
  std::vector<int64_t> reps = vararg_ints(call, 1, "repeats", "repeat");
  if (static_cast<int64_t>(reps.size()) < x.dim())
    throw FxError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t n = reps.size(), lead = n - x.shape().size();
  Shape xs(lead, 1), xst(lead, 0), out_shape(n);
  xs.insert(xs.end(), x.shape().begin(), x.shape().end());
  xst.insert(xst.end(), x.strides().begin(), x.strides().end());
  for (size_t i = 0; i < n; ++i) out_shape[i] = checked_mul(xs[i], reps[i], "repeat(): output size");
  for (int64_t d : out_shape)
    if (d < 0)
      throw FxError("Trying to create tensor with negative dimension " + std::to_string(d) + ": " +
                    shape_to_string(out_shape));
  Tensor out = Tensor::empty(out_shape, x.dtype());
  // out viewed as [r0, s0, r1, s1, ...]; the source reads x with stride 0 along each r.
  Shape os = out.strides(), vshape, vstrides, sstrides;
  for (size_t i = 0; i < n; ++i) {
    vshape.push_back(reps[i]);
    vshape.push_back(xs[i]);
    vstrides.push_back(xs[i] * os[i]);
    vstrides.push_back(os[i]);
    sstrides.push_back(0);
    sstrides.push_back(xst[i]);
  }
  if (out.numel() > 0) copy_into(make_view(out, vshape, vstrides, 0), make_view(x, vshape, sstrides, x.offset()));
  return out;
}

Tensor roll_dim(const Tensor& x, int64_t shift, int64_t d) {
  const int64_t size = x.shape()[d];
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  if (size == 0 || out.numel() == 0) return out;
  int64_t s = ((shift % size) + size) % size;
  copy_into(slice_view(out, d, s, size, 1), slice_view(x, d, 0, size - s, 1));
  if (s) copy_into(slice_view(out, d, 0, s, 1), slice_view(x, d, size - s, size, 1));
  return out;
}

Object roll_op(const OpCall& call) {
  static const Schema schema("roll(input|self, shifts, dims=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> shifts = *a.int_list(1);
  if (a.is_none(2) || a.int_list(2)->empty()) {
    if (shifts.size() != 1) throw FxError("shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                                          ", dims:0");
    return reshape(roll_dim(reshape(x, {x.numel()}), shifts[0], 0), x.shape());
  }
  std::vector<int64_t> dims = *a.int_list(2);
  if (dims.size() != shifts.size())
    throw FxError("shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                  ", dims:" + std::to_string(dims.size()));
  Tensor out = x;
  for (size_t i = 0; i < dims.size(); ++i) out = roll_dim(out, shifts[i], checked_dim(dims[i], x.dim()));
  return out;
}

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims) {
  Shape strides = x.strides();
  int64_t offset = x.offset();
  std::vector<bool> seen(std::max<int64_t>(x.dim(), 1), false);
  for (int64_t d : dims) {
    int64_t w = checked_dim(d, x.dim());
    if (seen[w]) throw FxError("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    seen[w] = true;
    if (x.dim() == 0 || x.shape()[w] == 0) continue;
    offset += (x.shape()[w] - 1) * strides[w];
    strides[w] = -strides[w];
  }
  if (x.numel() == 0) return Tensor::empty(x.shape(), x.dtype());
  return make_view(x, x.shape(), strides, offset).clone();
}

Object flip_op(const OpCall& call) {
  if (call.args.empty() || !call.args[0].is_tensor()) throw FxError("flip(): expected a Tensor");
  return flip(call.args[0].tensor(), vararg_ints(call, 1, "dims", "flip"));
}

Object fliplr_op(const OpCall& call) {
  static const Schema schema("fliplr(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() < 2) throw FxError("Input must be >= 2-d.");
  return flip(x, {1});
}

Object flipud_op(const OpCall& call) {
  static const Schema schema("flipud(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() < 1) throw FxError("Input must be >= 1-d.");
  return flip(x, {0});
}

// triu keeps j - i >= k, tril keeps j - i <= k; the rest becomes zero (all-zero bits in every dtype).
template <bool kUpper>
Object tri_op(const OpCall& call) {
  static const Schema schema(std::string(kUpper ? "triu" : "tril") + "(input|self, diagonal=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() < 2)
    throw FxError(std::string(kUpper ? "triu" : "tril") + ": input tensor must have at least 2 dimensions");
  const int64_t k = a.integer(1);
  Tensor out = x.clone();
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  const int64_t rows = x.shape()[x.dim() - 2], cols = x.shape()[x.dim() - 1];
  const int64_t mats = rows * cols == 0 ? 0 : out.numel() / (rows * cols);
  const size_t es = dtype_size(x.dtype());
  uint8_t* base = static_cast<uint8_t*>(out.raw_data());
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        if (kUpper ? (j - i < k) : (j - i > k))
          std::memset(base + ((m * rows + i) * cols + j) * es, 0, es);
  return out;
}

const OpRow kOps[] = {
    {"torch.cat", "torch.concat torch.concatenate aten.cat.default aten.concat.default", "", cat_op},
    {"torch.stack", "aten.stack.default", "", stack_op},
    {"torch.hstack", "aten.hstack.default", "", xstack_op<0>},
    {"torch.vstack", "torch.row_stack aten.vstack.default", "", xstack_op<1>},
    {"torch.dstack", "aten.dstack.default", "", xstack_op<2>},
    {"torch.Tensor.repeat", "aten.repeat.default", "repeat", repeat_op},
    {"torch.roll", "aten.roll.default torch.Tensor.roll", "roll", roll_op},
    {"torch.flip", "aten.flip.default torch.Tensor.flip", "flip", flip_op},
    {"torch.fliplr", "torch.Tensor.fliplr", "fliplr", fliplr_op},
    {"torch.flipud", "torch.Tensor.flipud", "flipud", flipud_op},
    {"torch.triu", "aten.triu.default torch.Tensor.triu", "triu", tri_op<true>},
    {"torch.tril", "aten.tril.default torch.Tensor.tril", "tril", tri_op<false>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
