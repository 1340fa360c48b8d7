// More ops that write values at positions: index_reduce (scatter_reduce of whole slices), put (flat
// positions), masked_scatter (consecutive source values where a mask is true), as_strided_scatter, the
// masked-index pair torch's decompositions emit (_unsafe_masked_index, _unsafe_masked_index_put_accumulate),
// and _segment_reduce (reductions over consecutive runs of a dim, given by lengths or offsets).
#include <cmath>
#include <cstring>
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
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }
Object boolean(bool v) { return Object(Value::boolean(v)); }

// index_reduce(input, dim, index, source, reduce, *, include_self=True): input's slice index[i] along dim
// reduced with source's slice i; scatter_reduce with the index spread over source's shape.
Object index_reduce_op(const OpCall& call) {
  static const Schema schema("index_reduce(input|self, dim, index, source, reduce, *, include_self=True)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const Tensor& src = a.tensor(3);
  const std::string reduce = a.str(4);
  if (reduce != "prod" && reduce != "mean" && reduce != "amax" && reduce != "amin")
    throw FxError("index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got " + reduce + ".");
  if (index.dim() > 1) throw FxError("index_reduce_(): Index is supposed to be a vector");
  if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
    throw FxError("index_reduce_(): Expected dtype int32/int64 for index");
  const int64_t d = checked_dim(a.integer(1), x.dim());
  const int64_t sd = src.dim() == 0 ? 0 : d;
  if ((src.dim() == 0 ? 1 : src.shape()[sd]) != index.numel())
    throw FxError("index_reduce_(): Number of indices (" + std::to_string(index.numel()) +
                  ") should be equal to source.size(dim) (" + std::to_string(src.dim() == 0 ? 1 : src.shape()[sd]) + ")");
  Shape ishape(static_cast<size_t>(src.dim()), 1);
  if (src.dim() > 0) ishape[sd] = index.numel();
  Tensor spread = expand_to(reshape(to_dtype(index, DType::Int64).contiguous(), ishape), src.shape()).contiguous();
  return call_op("torch.scatter_reduce", {a[0], integer(d), Object(spread), a[3], a[4]}, {{"include_self", a[5]}});
}

// put(input, index, source, accumulate=False): input.flatten()[index] = source (or +=), out of place
Object put_op(const OpCall& call) {
  static const Schema schema("put(input|self, index, source, accumulate=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& index = a.tensor(1);
  const Tensor& src = a.tensor(2);
  if (index.dtype() != DType::Int64) throw FxError("put(): Expected a long tensor for index, but got " +
                                                   std::string(torch_type_name(index.dtype())));
  if (index.numel() != src.numel())
    throw FxError("put(): Expected source and index to have the same number of elements, but got source.numel() = " +
                  std::to_string(src.numel()) + ", index.numel() = " + std::to_string(index.numel()));
  if (src.dtype() != x.dtype())
    throw FxError(std::string("put(): self (") + torch_type_name(x.dtype()) + ") and source (" +
                  torch_type_name(src.dtype()) + ") must have the same scalar type");
  const int64_t n = x.numel();
  if (!meta_mode()) {
    Tensor idx = index.contiguous();
    for (int64_t i = 0; i < idx.numel(); ++i) {
      const int64_t j = idx.data<int64_t>()[i];
      if (j < -n || j >= n)
        throw FxError("out of range: tried to access index " + std::to_string(j) + " on a tensor of " +
                      std::to_string(n) + " elements.");
    }
  }
  Tensor flat = reshape(x.contiguous().clone(), {n});
  Object r = call_op("torch.index_put", {Object(flat), Object::list({Object(reshape(index.contiguous(), {-1}))}),
                                         Object(reshape(src.contiguous(), {-1})), a[3]});
  return reshape(r.tensor(), x.shape());
}

// masked_scatter(input, mask, source): the broadcast input, with source's values in order where mask is true
Object masked_scatter_op(const OpCall& call) {
  static const Schema schema("masked_scatter(input|self, mask, source)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& mask = a.tensor(1);
  const Tensor& src = a.tensor(2);
  if (mask.dtype() != DType::Bool) throw FxError("masked_scatter_: expected BoolTensor for mask");
  if (src.dtype() != x.dtype())
    throw FxError(std::string("masked_scatter_: expected self and source to have same dtypes but got ") +
                  torch_type_name(x.dtype()) + " and " + torch_type_name(src.dtype()));
  const Shape shape = broadcast_shapes(x.shape(), mask.shape());
  Tensor out = expand_to(x, shape).contiguous().clone();
  if (meta_mode()) return out;
  Tensor m = expand_to(mask, shape).contiguous(), s = src.contiguous();
  const size_t width = dtype_size(x.dtype());
  auto* o = static_cast<uint8_t*>(out.raw_data());
  const auto* sp = static_cast<const uint8_t*>(s.raw_data());
  int64_t next = 0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    if (!m.data<bool>()[i]) continue;
    if (next >= s.numel()) throw FxError("masked_scatter: expected source to have at least as many elements as ones in mask");
    std::memcpy(o + i * width, sp + next * width, width);
    ++next;
  }
  return out;
}

// as_strided_scatter(input, src, size, stride, storage_offset=None): a copy of input with src written
// through the strided view of the copy's storage
Object as_strided_scatter_op(const OpCall& call) {
  static const Schema schema("as_strided_scatter(input|self, src, size, stride, storage_offset=None)");
  Args a = schema.parse(call);
  Tensor out = a.tensor(0).contiguous().clone();
  const std::vector<int64_t> size = *a.int_list(2), stride = *a.int_list(3);
  if (size.size() != stride.size()) throw FxError("mismatch in length of strides and shape");
  const int64_t offset = a.is_none(4) ? 0 : a.integer(4);
  int64_t last = offset;
  for (size_t k = 0; k < size.size(); ++k) {
    if (size[k] < 0 || stride[k] < 0) throw FxError("as_strided_scatter: negative size or stride");
    if (size[k] == 0) last = -1;
    if (last >= 0) last += (size[k] - 1) * stride[k];
  }
  if (last >= out.numel())
    throw FxError("setStorage: sizes " + shape_to_string(Shape(size.begin(), size.end())) + ", strides " +
                  shape_to_string(Shape(stride.begin(), stride.end())) + " and storage offset " +
                  std::to_string(offset) + " are out of bounds for the input's storage");
  const Tensor& src = a.tensor(1);
  if (src.shape() != Shape(size.begin(), size.end()))
    throw FxError("expected src to have a size equal to the slice of self. src size = " + shape_to_string(src.shape()) +
                  ", slice size = " + shape_to_string(Shape(size.begin(), size.end())));
  if (!meta_mode())
    copy_into(make_view(out, Shape(size.begin(), size.end()), Shape(stride.begin(), stride.end()), offset), src);
  return out;
}

// Indices limited to [-size, size - 1] per indexed dim: a masked-out index may be anything.
std::vector<Object> clamped_indices(const Tensor& x, const Object& indices) {
  std::vector<Object> out;
  int64_t d = 0;
  for (const Object& i : indices.items()) {
    if (i.is_value() && i.value().is_none()) {
      out.push_back(i);
    } else {
      const int64_t n = x.shape()[d];
      out.push_back(call_op("torch.clamp", {i, integer(-n), integer(n - 1)}));
    }
    ++d;
  }
  return out;
}

// _unsafe_masked_index(x, mask, indices, fill): x[indices] where mask, else fill
Object unsafe_masked_index_op(const OpCall& call) {
  static const Schema schema("_unsafe_masked_index(input|self, mask, indices, fill)");
  Args a = schema.parse(call);
  Object v = call_op("aten.index.Tensor", {a[0], Object::list(clamped_indices(a.tensor(0), a[2]))});
  return call_op("torch.where", {a[1], v, a[3]});
}

// _unsafe_masked_index_put_accumulate(x, mask, indices, values): x with values added at indices where mask
Object unsafe_masked_index_put_acc_op(const OpCall& call) {
  static const Schema schema("_unsafe_masked_index_put_accumulate(input|self, mask, indices, values)");
  Args a = schema.parse(call);
  Object v = call_op("torch.where", {a[1], a[3], Object(Value::integer(0))});
  return call_op("torch.index_put", {a[0], Object::list(clamped_indices(a.tensor(0), a[2])), v, boolean(true)});
}

// _segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False,
// initial=None): reduce (max, min, mean, sum, prod) over consecutive segments of data along axis. `initial`
// starts every segment's accumulation (torch's mean then divides initial + Σ by the segment's length) and is
// an empty segment's result; without it an empty segment gives the reduction's identity (mean: NaN).
Object segment_reduce_op(const OpCall& call) {
  static const Schema schema("_segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, "
                             "unsafe=False, initial=None)");
  Args a = schema.parse(call);
  const Tensor& data = a.tensor(0);
  const std::string reduce = a.str(1);
  if (reduce != "max" && reduce != "min" && reduce != "mean" && reduce != "sum" && reduce != "prod")
    throw FxError("segment_reduce: unsupported reduction " + reduce);
  if (!a.is_none(3)) throw FxError("segment_reduce(): indices based reduction is not supported yet.");
  const bool by_offsets = !a.is_none(4);
  if (by_offsets == !a.is_none(2)) throw FxError("segment_reduce(): Either lengths or offsets must be defined");
  const Tensor& seg = a.tensor(by_offsets ? 4 : 2);
  const int64_t axis = checked_dim(a.integer(5), data.dim());
  if (seg.dim() != axis + 1) throw FxError("segment_reduce(): Expected lengths or offsets to have axis + 1 dims");
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= data.shape()[k];
  for (int64_t k = axis + 1; k < data.dim(); ++k) inner *= data.shape()[k];
  const int64_t n = data.shape()[axis], segments = seg.shape().back() - (by_offsets ? 1 : 0);
  Shape out_shape = data.shape();
  out_shape[axis] = segments;
  if (meta_mode()) return Tensor::meta(out_shape, data.dtype());
  const bool has_init = !a.is_none(7);
  const double init = has_init ? a.number(7).as_double() : 0.0;
  Tensor x = to_dtype(data, DType::Float64).contiguous(), s = to_dtype(seg, DType::Int64).contiguous();
  Tensor out = Tensor::empty(out_shape, DType::Float64);
  const double* xp = x.data<double>();
  const int64_t* sp = s.data<int64_t>();
  double* op = out.data<double>();
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t o = 0; o < outer; ++o) {
    const int64_t* row = sp + o * seg.shape().back();
    int64_t start = by_offsets ? row[0] : 0;
    for (int64_t g = 0; g < segments; ++g) {
      const int64_t len = by_offsets ? row[g + 1] - row[g] : row[g];
      if (by_offsets) start = row[g];
      if (len < 0 || start + len > n) throw FxError("segment_reduce(): lengths or offsets out of range of the data");
      for (int64_t i = 0; i < inner; ++i) {
        double acc = reduce == "max" ? -inf : reduce == "min" ? inf : reduce == "prod" ? 1.0 : 0.0;
        if (has_init) acc = init;
        for (int64_t k = 0; k < len; ++k) {
          const double v = xp[(o * n + start + k) * inner + i];
          if (reduce == "max") acc = (v != v || v > acc) ? v : acc;
          else if (reduce == "min") acc = (v != v || v < acc) ? v : acc;
          else if (reduce == "prod") acc *= v;
          else acc += v;
        }
        if (reduce == "mean" && len > 0) acc /= static_cast<double>(len);  // (initial + Σ) / len, as torch
        else if (reduce == "mean" && !has_init) acc = std::numeric_limits<double>::quiet_NaN();
        op[(o * segments + g) * inner + i] = acc;
      }
      start += len;
    }
  }
  return to_dtype(out, data.dtype());
}

const OpRow kOps[] = {
    {"torch.index_reduce", "torch.Tensor.index_reduce aten.index_reduce.default", "index_reduce", index_reduce_op},
    {"torch.put", "torch.Tensor.put aten.put.default", "put", put_op},
    {"torch.masked_scatter", "torch.Tensor.masked_scatter aten.masked_scatter.default", "masked_scatter",
     masked_scatter_op},
    {"torch.as_strided_scatter", "aten.as_strided_scatter.default", "", as_strided_scatter_op},
    {"torch._unsafe_masked_index", "aten._unsafe_masked_index.default", "", unsafe_masked_index_op},
    {"torch._unsafe_masked_index_put_accumulate", "aten._unsafe_masked_index_put_accumulate.default", "",
     unsafe_masked_index_put_acc_op},
    {"torch._segment_reduce", "aten.segment_reduce.default torch.segment_reduce", "", segment_reduce_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
