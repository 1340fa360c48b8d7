// Views along one dim: select, narrow, slice (aten.slice.Tensor and Python's x[a:b:c]) and the ops that
// return several such views: unbind, split / split_with_sizes, chunk, tensor_split. All share storage.
#include <algorithm>

#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/shape_ops.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {

Tensor select_view(const Tensor& x, int64_t dim, int64_t index) {
  if (x.dim() == 0) throw FxError("select() cannot be applied to a 0-dim tensor.");
  int64_t d = checked_dim(dim, x.dim());
  int64_t size = x.shape()[d];
  if (index < -size || index >= size)
    throw FxError("select(): index " + std::to_string(index) + " out of range for tensor of size " +
                  shape_to_string(x.shape()) + " at dimension " + std::to_string(d));
  if (index < 0) index += size;
  Shape shape = x.shape(), strides = x.strides();
  shape.erase(shape.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(x, shape, strides, x.offset() + index * x.strides()[d]);
}

Tensor slice_view(const Tensor& x, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
                  int64_t step) {
  if (x.dim() == 0) throw FxError("slice() cannot be applied to a 0-dim tensor.");
  if (step <= 0) throw FxError("slice step must be positive");
  int64_t d = checked_dim(dim, x.dim());
  const int64_t size = x.shape()[d];
  int64_t s = start.value_or(0), e = stop.value_or(size);
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = std::clamp<int64_t>(s, 0, size);
  e = std::clamp<int64_t>(e, s, size);
  Shape shape = x.shape(), strides = x.strides();
  shape[d] = e == s ? 0 : (e - s - 1) / step + 1;  // (e - s + step - 1) / step overflows for a huge step
  int64_t stepped;  // a huge step leaves at most one element, whose stride does not matter
  if (!__builtin_mul_overflow(strides[d], step, &stepped)) strides[d] = stepped;
  else if (shape[d] > 1) throw FxError("slice(): step " + std::to_string(step) + " overflows the stride");
  return make_view(x, shape, strides, x.offset() + s * x.strides()[d]);
}

namespace {

std::optional<int64_t> opt_int(const Args& a, size_t i) {
  if (a.is_none(i)) return std::nullopt;
  return int_of(a[i], "slice(): argument");
}

Object select_op(const OpCall& call) {
  static const Schema schema("select(input|self, dim, index)");
  Args a = schema.parse(call);
  return select_view(a.tensor(0), a.integer(1), int_of(a[2], "select(): argument 'index'"));
}

Object slice_op(const OpCall& call) {
  static const Schema schema("slice(input|self, dim=0, start=None, end=None, step=1)");
  Args a = schema.parse(call);
  return slice_view(a.tensor(0), a.integer(1), opt_int(a, 2), opt_int(a, 3), a.integer(4));
}

Object narrow_op(const OpCall& call) {
  static const Schema schema("narrow(input|self, dim, start, length)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() == 0) throw FxError("narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = checked_dim(a.integer(1), x.dim());
  int64_t size = x.shape()[d], start = int_of(a[2], "narrow(): argument 'start'"), length = a.integer(3);
  if (length < 0) throw FxError("narrow(): length must be non-negative.");
  if (start < -size || start > size)
    throw FxError("start out of range (expected to be in range of [" + std::to_string(-size) + ", " +
                  std::to_string(size) + "], but got " + std::to_string(start) + ")");
  if (start < 0) start += size;
  if (length > size - start)  // (start + length > size overflows for a huge length)
    throw FxError("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                  ") exceeds dimension size (" + std::to_string(size) + ").");
  return slice_view(x, d, start, start + length, 1);
}

Object unbind_op(const OpCall& call) {
  static const Schema schema("unbind(input|self, dim=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() == 0) throw FxError("Dimension specified as 0 but tensor has no dimensions");
  int64_t d = checked_dim(a.integer(1), x.dim());
  std::vector<Object> out;
  for (int64_t i = 0; i < x.shape()[d]; ++i) out.emplace_back(select_view(x, d, i));
  return Object::tuple(std::move(out));
}

Object split_sizes(const Tensor& x, int64_t d, const std::vector<int64_t>& sizes) {
  std::vector<Object> out;
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.emplace_back(slice_view(x, d, start, start + s, 1));
    start += s;
  }
  return Object::tuple(std::move(out));
}

Object split_with_sizes(const Tensor& x, int64_t dim, const std::vector<int64_t>& sizes) {
  if (x.dim() == 0) throw FxError("split expects at least a 1-dimensional tensor");
  int64_t d = checked_dim(dim, x.dim()), sum = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      throw FxError("split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=" +
                    shape_to_string(sizes));
    if (__builtin_add_overflow(sum, s, &sum)) sum = -1;  // no sum of sizes can match then
  }
  if (sum != x.shape()[d])
    throw FxError("split_with_sizes expects split_sizes to sum exactly to " + std::to_string(x.shape()[d]) +
                  " (input tensor's size at dimension " + std::to_string(d) + "), but got split_sizes=" +
                  shape_to_string(sizes));
  return split_sizes(x, d, sizes);
}

Object split_even(const Tensor& x, int64_t dim, int64_t split) {
  if (x.dim() == 0) throw FxError("split expects at least a 1-dimensional tensor");
  int64_t d = checked_dim(dim, x.dim()), size = x.shape()[d];
  if (split < 0) throw FxError("split expects split_size be non-negative, but got split_size=" + std::to_string(split));
  if (split == 0 && size != 0)
    throw FxError("split_size can only be 0 if dimension size is 0, but got dimension size of " + std::to_string(size));
  int64_t n = split == 0 || size == 0 ? 1 : (size - 1) / split + 1;  // ceil(size / split), without overflow
  std::vector<int64_t> sizes(n, split);
  sizes.back() = split - (split * n - size);
  return split_sizes(x, d, sizes);
}

// torch.split(t, 2) and torch.split(t, [1, 2]); aten.split.Tensor takes an int, split_with_sizes a list.
Object split_op(const OpCall& call) {
  static const Schema schema("split(input|self|tensor, split_size_or_sections|split_size|split_sizes, dim=0)");
  Args a = schema.parse(call);
  if (a[1].is_sequence()) return split_with_sizes(a.tensor(0), a.integer(2), ints_of(a[1], "split_sizes"));
  return split_even(a.tensor(0), a.integer(2), int_of(a[1], "split(): argument 'split_size'"));
}

Object chunk_op(const OpCall& call) {
  static const Schema schema("chunk(input|self, chunks, dim=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  int64_t chunks = a.integer(1);
  if (x.dim() == 0) throw FxError("chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0) throw FxError("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
  int64_t d = checked_dim(a.integer(2), x.dim()), size = x.shape()[d];
  // torch's ceil division, which wraps for a huge `chunks` (then split_even names the negative size)
  int64_t split = static_cast<int64_t>(static_cast<uint64_t>(size) + static_cast<uint64_t>(chunks) - 1) / chunks;
  if (split == 0 && size == 0) return split_sizes(x, d, std::vector<int64_t>(chunks, 0));
  return split_even(x, d, split);
}

Object tensor_split_op(const OpCall& call) {
  static const Schema schema("tensor_split(input|self, indices_or_sections|sections|indices|tensor_indices_or_sections, dim=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() == 0)
    throw FxError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  int64_t d = checked_dim(a.integer(2), x.dim()), size = x.shape()[d];
  const Object& spec = a[1];
  bool sections = !spec.is_sequence();
  std::vector<int64_t> values;
  if (spec.is_tensor()) {
    const Tensor& t = spec.tensor();
    if (dtype_is_floating(t.dtype()) || t.dtype() == DType::Bool)
      throw FxError("tensor_split expected tensor_indices_or_sections to have integer dtype, but got " +
                    std::string(dtype_name(t.dtype())));
    if (t.dim() > 1)
      throw FxError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                    "tensor, but got a tensor with " + std::to_string(t.dim()) + " dims");
    sections = t.dim() == 0;
    Tensor l = to_dtype(t, DType::Int64).contiguous();
    values.assign(l.data<int64_t>(), l.data<int64_t>() + l.numel());
  } else {
    values = ints_of(spec, "tensor_split(): argument 'indices_or_sections'");
  }
  std::vector<Object> out;
  if (sections) {
    int64_t n = values.at(0);
    if (n <= 0) throw FxError("number of sections must be larger than 0, got " + std::to_string(n));
    int64_t base = size / n, extra = size % n, start = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t len = base + (i < extra ? 1 : 0);
      out.emplace_back(slice_view(x, d, start, start + len, 1));
      start += len;
    }
  } else {
    int64_t start = 0;
    for (int64_t idx : values) {
      out.emplace_back(slice_view(x, d, start, idx, 1));
      start = idx;
    }
    out.emplace_back(slice_view(x, d, start, std::nullopt, 1));
  }
  return Object::tuple(std::move(out));
}

// aten's split/unbind/chunk return a list where torch's Python API returns a tuple.
template <OpFn F>
Object as_list(const OpCall& call) {
  return Object::list(F(call).items());
}

const OpRow kOps1[] = {
    {"torch.select", "aten.select.int torch.Tensor.select", "select", select_op},
    {"aten.slice.Tensor", "", "", slice_op},
    {"torch.narrow", "aten.narrow.default torch.Tensor.narrow", "narrow", narrow_op},
    {"torch.unbind", "torch.Tensor.unbind", "unbind", unbind_op},
    {"aten.unbind.int", "", "", as_list<unbind_op>},
    {"torch.split", "torch.functional.split torch.split_with_sizes torch.Tensor.split_with_sizes torch.Tensor.split", "split_with_sizes split", split_op},
};
const OpTable reg_kOps1{kOps1};
// unsafe_split* differ from split only in autograd's view tracking, which an inference runtime has not.
const OpRow kOps2[] = {
    {"aten.split.Tensor", "aten.split_with_sizes.default aten.split.sizes aten.unsafe_split.Tensor aten.unsafe_split_with_sizes.default", "", as_list<split_op>},
    {"torch.chunk", "torch.Tensor.chunk", "chunk", chunk_op},
    {"aten.chunk.default", "aten.unsafe_chunk.default", "", as_list<chunk_op>},
    {"torch.tensor_split", "torch.Tensor.tensor_split", "tensor_split", tensor_split_op},
    {"aten.tensor_split.sections", "aten.tensor_split.indices aten.tensor_split.tensor_indices_or_sections", "", as_list<tensor_split_op>},
};
const OpTable reg_kOps2{kOps2};

}  // namespace
}  // namespace fx
