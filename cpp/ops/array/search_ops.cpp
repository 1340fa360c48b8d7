// Ops that search or count values: bucketize and searchsorted (binary search in sorted boundaries, with
// torch's NaN ordering: NaN sorts after every number), isin, histc, and unique / unique_consecutive (whose
// output length depends on the values: data_dependent, run eagerly). Values are compared as doubles,
// exact for every dtype up to 2^53.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "ops/call_op.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

std::vector<double> as_doubles(const Tensor& t) {
  Tensor d = to_dtype(t, DType::Float64).contiguous();
  return std::vector<double>(d.data<double>(), d.data<double>() + d.numel());
}

Tensor index_tensor(const std::vector<int64_t>& v, const Shape& shape, bool int32) {
  Tensor out = Tensor::empty(shape, DType::Int64);
  std::copy(v.begin(), v.end(), out.data<int64_t>());
  return int32 ? to_dtype(out, DType::Int32) : out;
}

// The first position in b[0..n) (read through `order` when given) where v belongs: before the first
// element >= v (left) or > v (right). `!(x >= v)` sends a NaN v past every element, as torch.
int64_t search(const double* b, const int64_t* order, int64_t n, double v, bool right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const double x = b[order ? order[mid] : mid];
    if (right ? !(x > v) : !(x >= v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

Tensor values_tensor(const Object& o, const Tensor& like) {
  if (o.is_tensor()) return o.tensor();
  const Number n = to_number(o);
  return scalar_tensor(n, promote_types(like.dtype(), scalar_kind_dtype(n.kind)));
}

// searchsorted(sorted_sequence, values): the innermost dim of sorted_sequence is searched for each value
// of the matching row of values (all rows share a 1-d sorted_sequence).
Tensor search_sorted(const Tensor& seq, const Tensor& values, bool right, bool int32, const Tensor* sorter) {
  const int64_t n = seq.dim() == 0 ? 1 : seq.shape().back();
  if (seq.dim() > 1) {
    if (values.dim() != seq.dim() ||
        !std::equal(seq.shape().begin(), seq.shape().end() - 1, values.shape().begin()))
      throw FxError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                    "of boundaries tensor and input value tensor must match");
  }
  if (meta_mode()) return Tensor::meta(values.shape(), int32 ? DType::Int32 : DType::Int64);
  const std::vector<double> b = as_doubles(seq), v = as_doubles(values);
  std::vector<int64_t> order;
  if (sorter) {
    Tensor s = to_dtype(*sorter, DType::Int64).contiguous();
    order.assign(s.data<int64_t>(), s.data<int64_t>() + s.numel());
    for (int64_t i : order)
      if (i < 0 || i >= n) throw FxError("torch.searchsorted(): sorter index out of range");
  }
  const int64_t inner = values.dim() == 0 ? 1 : values.shape().back();
  std::vector<int64_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t row = seq.dim() > 1 && inner > 0 ? static_cast<int64_t>(i) / inner : 0;
    const int64_t* ord = order.empty() ? nullptr : order.data() + row * n;
    out[i] = search(b.data() + row * n, ord, n, v[i], right);
  }
  return index_tensor(out, values.shape(), int32);
}

Object bucketize_op(const OpCall& call) {
  static const Schema schema("bucketize(input|self, boundaries, *, out_int32=False, right=False)");
  Args a = schema.parse(call);
  const Tensor& boundaries = a.tensor(1);
  if (boundaries.dim() != 1)
    throw FxError("boundaries tensor must be 1 dimension, but got dim(" + std::to_string(boundaries.dim()) + ")");
  const Tensor values = values_tensor(a[0], boundaries);
  return search_sorted(boundaries, values, a.boolean(3), a.boolean(2), nullptr);
}

Object searchsorted_op(const OpCall& call) {
  static const Schema schema("searchsorted(sorted_sequence, input|self, *, out_int32=False, right=False, "
                             "side=None, sorter=None)");
  Args a = schema.parse(call);
  const Tensor& seq = a.tensor(0);
  bool right = a.boolean(3);
  if (!a.is_none(4)) {
    const std::string side = a.str(4);
    if (side != "left" && side != "right")
      throw FxError("torch.searchsorted(): side can only be 'left' or 'right' but got " + side);
    if (right && side == "left")
      throw FxError("torch.searchsorted(): side and right can't be set to opposites, got side of left while right "
                    "was True");
    right = side == "right";
  }
  const Tensor values = values_tensor(a[1], seq);
  const Tensor* sorter = a.is_none(5) ? nullptr : &a.tensor(5);
  if (sorter && sorter->shape() != seq.shape())
    throw FxError("torch.searchsorted(): boundary and sorter must have the same size");
  return search_sorted(seq, values, right, a.boolean(2), sorter);
}

// isin(elements, test_elements, *, assume_unique=False, invert=False)
Object isin_op(const OpCall& call) {
  static const Schema schema("isin(elements|element, test_elements|test_element, *, assume_unique=False, invert=False)");
  Args a = schema.parse(call);
  Operand e = Operand::of(a[0], "isin", "elements"), t = Operand::of(a[1], "isin", "test_elements");
  if (e.is_scalar && t.is_scalar) throw FxError("isin(): expected at least one Tensor");
  const DType dt = result_type({e, t});
  Tensor el = e.as(dt), te = t.as(dt);
  if (meta_mode()) return Tensor::meta(el.shape(), DType::Bool);
  std::vector<double> tv = as_doubles(te);
  std::sort(tv.begin(), tv.end());  // (NaNs never match; where they sort does not matter)
  const std::vector<double> ev = as_doubles(el);
  const bool invert = a.boolean(3);
  Tensor out = Tensor::empty(el.shape(), DType::Bool);
  for (size_t i = 0; i < ev.size(); ++i)
    out.data<bool>()[i] = std::binary_search(tv.begin(), tv.end(), ev[i]) != invert;
  return out;
}

// histc(input, bins=100, min=0, max=0): counts in `bins` equal bins over [min, max] (the data's range when
// min == max), computed in the input's float type as torch does so that values on a bin edge land alike.
Object histc_op(const OpCall& call) {
  static const Schema schema("histc(input|self, bins=100, min=0, max=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t bins = a.integer(1);
  if (bins <= 0) throw FxError("torch.histc: bins must be > 0, but got " + std::to_string(bins) + " for dimension 0");
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"histogram_cpu\" not implemented for '") + torch_type_name(x.dtype()) + "'");
  if (meta_mode()) return Tensor::meta({bins}, x.dtype());
  const DType kdt = compute_dtype(x.dtype());
  Tensor counts = Tensor::zeros({bins}, kdt);
  dispatch_floating(kdt, "histc", [&](auto tag) {
    using T = decltype(tag);
    Tensor xc = to_dtype(x, kdt).contiguous();
    const T* p = xc.data<T>();
    const int64_t n = xc.numel();
    T lo = static_cast<T>(a.number(2).as_double()), hi = static_cast<T>(a.number(3).as_double());
    if (lo == hi && n > 0) {
      lo = hi = p[0];
      for (int64_t i = 0; i < n; ++i) {
        if (p[i] != p[i]) { lo = hi = p[i]; break; }
        lo = std::min(lo, p[i]);
        hi = std::max(hi, p[i]);
      }
    }
    if (lo == hi) {
      lo -= 1;
      hi += 1;
    }
    if (!std::isfinite(lo) || !std::isfinite(hi))
      throw FxError("torch.histc: range of [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is not finite");
    if (lo > hi) throw FxError("torch.histc: max must be larger than min");
    T* c = counts.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      const T v = p[i];
      if (!(v >= lo && v <= hi)) continue;
      int64_t pos = static_cast<int64_t>((v - lo) * static_cast<T>(bins) / (hi - lo));
      if (pos == bins) pos -= 1;
      c[pos] += 1;
    }
  });
  return to_dtype(counts, x.dtype());
}

// Slices of x along `dim` (or its elements when dim is none) as rows of doubles.
struct Rows {
  std::vector<double> v;
  int64_t count = 0, width = 1;
  int compare(int64_t i, int64_t j) const {  // lexicographic, NaN after numbers
    for (int64_t k = 0; k < width; ++k) {
      const double a = v[i * width + k], b = v[j * width + k];
      if (a < b || (b != b && a == a)) return -1;
      if (b < a || (a != a && b == b)) return 1;
    }
    return 0;
  }
  bool equal(int64_t i, int64_t j) const {  // NaN equals nothing
    for (int64_t k = 0; k < width; ++k)
      if (!(v[i * width + k] == v[j * width + k])) return false;
    return true;
  }
};

Rows rows_of(const Tensor& x, std::optional<int64_t> dim) {
  Rows r;
  if (!dim) {
    r.v = as_doubles(x);
    r.count = x.numel();
    return r;
  }
  Tensor moved = call_op("torch.movedim", {Object(x), Object(Value::integer(*dim)), Object(Value::integer(0))}).tensor();
  r.v = as_doubles(moved);
  r.count = x.shape()[*dim];
  r.width = r.count ? static_cast<int64_t>(r.v.size()) / r.count : 0;
  return r;
}

// unique / unique_consecutive: the kept rows (first of each group), each row's group, the group sizes.
Object unique_result(const Tensor& x, std::optional<int64_t> dim, bool consecutive, bool inverse, bool counts) {
  if (x.is_meta()) throw_data_dependent();
  if (dim) *dim = checked_dim(*dim, x.dim());
  const Rows r = rows_of(x, dim);
  std::vector<int64_t> order(static_cast<size_t>(r.count));
  std::iota(order.begin(), order.end(), 0);
  if (!consecutive)
    std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return r.compare(i, j) < 0; });
  std::vector<int64_t> first, group(order.size()), sizes;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || !r.equal(order[k - 1], order[k])) {
      first.push_back(order[k]);
      sizes.push_back(0);
    }
    group[order[k]] = static_cast<int64_t>(first.size()) - 1;
    sizes.back() += 1;
  }
  Tensor idx = index_tensor(first, {static_cast<int64_t>(first.size())}, false);
  Object out = dim ? call_op("torch.index_select", {Object(x), Object(Value::integer(*dim)), Object(idx)})
                   : call_op("torch.index_select", {Object(reshape(x, {x.numel()})), Object(Value::integer(0)),
                                                    Object(idx)});
  if (!inverse && !counts) return out;
  std::vector<Object> items{out};
  if (inverse) items.emplace_back(index_tensor(group, dim ? Shape{r.count} : x.shape(), false));
  if (counts) items.emplace_back(index_tensor(sizes, {static_cast<int64_t>(sizes.size())}, false));
  return Object::tuple(std::move(items));
}

std::optional<int64_t> optional_dim(const Args& a, size_t i) {
  if (a.is_none(i)) return std::nullopt;
  return a.integer(i);
}

Object unique_op(const OpCall& call) {
  static const Schema schema("unique(input|self, sorted=True, return_inverse=False, return_counts=False, dim=None)");
  Args a = schema.parse(call);
  return unique_result(a.tensor(0), optional_dim(a, 4), false, a.boolean(2), a.boolean(3));
}

Object unique_consecutive_op(const OpCall& call) {
  static const Schema schema("unique_consecutive(input|self, return_inverse=False, return_counts=False, dim=None)");
  Args a = schema.parse(call);
  return unique_result(a.tensor(0), optional_dim(a, 3), true, a.boolean(1), a.boolean(2));
}

const OpRow kOps[] = {
    {"torch.bucketize", "aten.bucketize.Tensor aten.bucketize.Scalar", "", bucketize_op},
    {"torch.searchsorted", "aten.searchsorted.Tensor aten.searchsorted.Scalar", "", searchsorted_op},
    {"torch.isin", "aten.isin.Tensor_Tensor aten.isin.Tensor_Scalar aten.isin.Scalar_Tensor", "", isin_op},
    {"torch.histc", "torch.Tensor.histc aten.histc.default", "histc", histc_op},
    {"torch.functional.unique", "torch.unique torch.Tensor.unique", "unique", unique_op, nullptr, true},
    {"torch.functional.unique_consecutive", "torch.unique_consecutive torch.Tensor.unique_consecutive",
     "unique_consecutive", unique_consecutive_op, nullptr, true},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
