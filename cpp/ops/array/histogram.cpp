// histogram and histogramdd: counts (or weight sums) of points in bins, with the bin edges. Bins are a count
// (equal bins over `range`, or the data's range widened by ±0.5 when empty, edges made as torch.linspace
// makes them in the input's type) or the edges themselves. A point lands by linear interpolation corrected
// against the neighbouring edges (count bins) or by binary search (given edges), the last edge inclusive,
// as torch's histogram kernel; points outside the edges (or NaN) are left out. density divides by the
// total and the bin volumes. Computed in the input's float type, as torch, so edge cases land alike.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/dispatch.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

// points: [P, D] (contiguous); bins: per dim a count (edges empty) or edges. Returns hist and the edges.
template <typename T>
std::pair<Tensor, std::vector<Tensor>> histogram_dd(const Tensor& points, const std::vector<int64_t>& counts,
                                                    std::vector<std::vector<T>> edges,
                                                    const std::vector<double>* range, const Tensor* weight,
                                                    bool density, DType dtype) {
  const int64_t P = points.shape()[0], D = points.shape()[1];
  const T* p = points.data<T>();
  std::vector<bool> interpolate(static_cast<size_t>(D));
  for (int64_t d = 0; d < D; ++d) {
    interpolate[d] = edges[d].empty();
    if (!interpolate[d]) continue;
    double lo = 0, hi = 1;
    if (range) {
      lo = (*range)[2 * d], hi = (*range)[2 * d + 1];
    } else if (P > 0) {
      lo = hi = static_cast<double>(p[d]);
      for (int64_t i = 0; i < P; ++i) {
        const double v = static_cast<double>(p[i * D + d]);
        lo = std::min(lo, v), hi = std::max(hi, v);
        if (v != v) lo = hi = v;
      }
    }
    if (lo == hi) lo -= 0.5, hi += 0.5;
    if (!std::isfinite(lo) || !std::isfinite(hi))
      throw FxError("torch.histogramdd: range of [" + std::to_string(lo) + ", " + std::to_string(hi) +
                    "] is not finite");
    if (lo > hi) throw FxError("torch.histogramdd: min should not exceed max");
    // torch.linspace(lo, hi, counts + 1) in T: from both ends
    const int64_t n = counts[d] + 1;
    const T s = static_cast<T>(lo), e = static_cast<T>(hi), step = (e - s) / static_cast<T>(n - 1);
    const int64_t half = n / 2;
    edges[d].resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      edges[d][i] = i < half ? s + step * static_cast<T>(i) : e - step * static_cast<T>(n - 1 - i);
  }
  Shape hist_shape;
  for (int64_t d = 0; d < D; ++d) hist_shape.push_back(static_cast<int64_t>(edges[d].size()) - 1);
  int64_t cells = 1;
  for (int64_t n : hist_shape) cells *= n;
  std::vector<double> hist(static_cast<size_t>(cells), 0.0);
  std::vector<int64_t> strides(static_cast<size_t>(D), 1);
  for (int64_t d = D - 2; d >= 0; --d) strides[d] = strides[d + 1] * hist_shape[d + 1];
  Tensor w = weight ? to_dtype(*weight, DType::Float64).contiguous() : Tensor();
  for (int64_t i = 0; i < P; ++i) {
    int64_t at = 0;
    bool inside = true;
    for (int64_t d = 0; d < D && inside; ++d) {
      const std::vector<T>& ed = edges[d];
      const int64_t ne = static_cast<int64_t>(ed.size());
      const T v = p[i * D + d], left = ed.front(), right = ed.back();
      if (!(v >= left && v <= right)) { inside = false; break; }
      int64_t pos;
      if (interpolate[d]) {
        pos = static_cast<int64_t>((v - left) * static_cast<T>(ne - 1) / (right - left));
        const int64_t lo = std::max<int64_t>(0, pos - 1), hi = std::min<int64_t>(pos + 2, ne);
        pos = std::upper_bound(ed.begin() + lo, ed.begin() + hi, v) - ed.begin() - 1;
      } else {
        pos = std::upper_bound(ed.begin(), ed.end(), v) - ed.begin() - 1;
      }
      if (pos == ne - 1) pos -= 1;
      at += strides[d] * pos;
    }
    if (inside) hist[at] += w.defined() ? w.data<double>()[i] : 1.0;
  }
  Tensor h = Tensor::empty(hist_shape, DType::Float64);
  std::copy(hist.begin(), hist.end(), h.data<double>());
  h = to_dtype(h, dtype);
  std::vector<Tensor> edge_tensors;
  for (int64_t d = 0; d < D; ++d) {
    Tensor t = Tensor::empty({static_cast<int64_t>(edges[d].size())}, points.dtype());
    std::copy(edges[d].begin(), edges[d].end(), t.data<T>());
    edge_tensors.push_back(to_dtype(t, dtype));
  }
  if (density) {  // hist / Σ hist / the bin lengths, dim by dim, in the result's dtype as torch
    Object r = call_op("torch.div", {Object(h), call_op("torch.sum", {Object(h)})});
    for (int64_t d = 0; d < D; ++d) {
      Shape shape(static_cast<size_t>(D), 1);
      shape[d] = hist_shape[d];
      Object len = call_op("torch.diff", {Object(edge_tensors[d])});
      r = call_op("torch.div", {r, Object(reshape(len.tensor(), shape))});
    }
    h = r.tensor();
  }
  return {h, edge_tensors};
}

struct HistArgs {
  std::vector<int64_t> counts;
  std::vector<Tensor> edges;  // per dim, or undefined for a count
};

std::pair<Tensor, std::vector<Tensor>> run(const Tensor& input, int64_t D, const HistArgs& bins, const Args& a,
                                           const char* name) {
  if (!dtype_is_floating(input.dtype()))
    throw FxError(std::string("torch.") + name + ": input tensor and bins tensors should have the same dtype, and "
                  "be of a floating point type");
  std::vector<double> range;
  if (!a.is_none(2)) {
    for (const Object& o : a[2].items()) range.push_back(to_number(o).as_double());
    if (static_cast<int64_t>(range.size()) != 2 * D)
      throw FxError(std::string("torch.") + name + ": for a " + std::to_string(D) +
                    "-dimensional histogram, range should have " + std::to_string(2 * D) + " elements, but got " +
                    std::to_string(range.size()));
  }
  const Tensor* weight = a.is_none(3) ? nullptr : &a.tensor(3);
  const DType kdt = compute_dtype(input.dtype());
  Tensor points = reshape(to_dtype(input, kdt).contiguous(), {-1, D});
  if (weight && weight->numel() != points.shape()[0])
    throw FxError(std::string("torch.") + name + ": if weight tensor is provided it should have the same shape as "
                  "the input tensor excluding its innermost dimension");
  std::pair<Tensor, std::vector<Tensor>> result;
  if (meta_mode()) {  // shapes only: bins per dim, or one fewer than the edges given
    Shape hist_shape;
    for (int64_t d = 0; d < D; ++d) {
      const int64_t n = bins.edges[d].defined() ? bins.edges[d].numel() - 1 : bins.counts[d];
      hist_shape.push_back(n);
      result.second.push_back(Tensor::meta({n + 1}, input.dtype()));
    }
    result.first = Tensor::meta(hist_shape, input.dtype());
    return result;
  }
  dispatch_floating(kdt, name, [&](auto tag) -> void {
    using T = decltype(tag);
    std::vector<std::vector<T>> edges(static_cast<size_t>(D));
    std::vector<int64_t> counts(static_cast<size_t>(D), 0);
    for (int64_t d = 0; d < D; ++d) {
      if (bins.edges[d].defined()) {
        Tensor e = to_dtype(bins.edges[d], kdt).contiguous();
        if (e.dim() != 1 || e.numel() < 1)
          throw FxError(std::string("torch.") + name + ": bins tensor should have one dimension and at least 1 "
                        "element");
        edges[d].assign(e.data<T>(), e.data<T>() + e.numel());
      } else {
        counts[d] = bins.counts[d];
        if (counts[d] <= 0) throw FxError(std::string("torch.") + name + "(): bins must be > 0");
      }
    }
    result = histogram_dd<T>(points, counts, edges, range.empty() ? nullptr : &range, weight, a.boolean(4),
                             input.dtype());
  });
  return result;
}

// histogram(input, bins, *, range=None, weight=None, density=False): the input's values, flattened
Object histogram_op(const OpCall& call) {
  static const Schema schema("histogram(input|self, bins=100, *, range=None, weight=None, density=False)");
  Args a = schema.parse(call);
  HistArgs bins;
  bins.edges.resize(1);
  if (a[1].is_tensor()) bins.edges[0] = a.tensor(1);
  else bins.counts = {a.integer(1)};
  auto [h, edges] = run(a.tensor(0), 1, bins, a, "histogram");
  return Object::tuple({Object(h), Object(edges[0])});
}

// histogramdd(input, bins, *, range=None, weight=None, density=False): points along input's last dim
Object histogramdd_op(const OpCall& call) {
  static const Schema schema("histogramdd(input|self, bins, *, range=None, weight=None, density=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() < 1) throw FxError("torch.histogramdd: input tensor should have at least 1 dimension");
  const int64_t D = x.shape().back();
  HistArgs bins;
  bins.edges.resize(static_cast<size_t>(D));
  if (a[1].is_sequence()) {
    const std::vector<Object>& items = a[1].items();
    if (static_cast<int64_t>(items.size()) != D)
      throw FxError("torch.histogramdd: expected " + std::to_string(D) + " sequences of bin edges for each of the " +
                    std::to_string(D) + " dimensions of the histogram but got " + std::to_string(items.size()));
    bins.counts.assign(static_cast<size_t>(D), 0);
    for (int64_t d = 0; d < D; ++d) {
      if (items[d].is_tensor()) bins.edges[d] = items[d].tensor();
      else bins.counts[d] = int_of(items[d], "bins");
    }
  } else {
    bins.counts.assign(static_cast<size_t>(D), a.integer(1));
  }
  auto [h, edges] = run(x, D, bins, a, "histogramdd");
  std::vector<Object> e(edges.begin(), edges.end());
  return Object::tuple({Object(h), Object::tuple(std::move(e))});
}

const OpRow kOps[] = {
    {"torch.histogram", "torch.Tensor.histogram aten.histogram.bins_tensor aten.histogram.bin_ct", "histogram",
     histogram_op},
    {"torch.histogramdd", "torch.functional.histogramdd aten.histogramdd.default", "", histogramdd_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
