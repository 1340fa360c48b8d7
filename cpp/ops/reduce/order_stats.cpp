// Order statistics along a dim or over the whole tensor, as torch's CPU kernels (ATen/native/Sorting.cpp)
// choose among ties: median/nanmedian (the lower median; the (value, index)-smallest of equal values, so
// deterministic), kthvalue (torch's Sedgewick quickselect, ported step for step so ties pick the same
// index), mode (the most frequent value, smallest on equal counts; its index as torch's std::sort leaves
// it), quantile/nanquantile (sorted lanes, ranks q·(n-1), the five interpolation modes).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>

#include "ops/dispatch.h"
#include "ops/dispatch_order.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

// x packed as outer × n × inner lanes along d; the reduced shape (d dropped, or 1 with keepdim).
struct Lanes {
  Tensor x;
  int64_t outer = 1, n = 1, inner = 1;
  Shape out_shape;
};

Lanes lanes(const Tensor& x0, int64_t d, bool keepdim, const char* op, bool bool_ok = false) {
  Lanes l;
  const DType t = compute_dtype(x0.dtype());
  if (t == DType::Bool && !bool_ok) throw FxError(std::string("\"") + op + "\" not implemented for 'Bool'");
  l.x = to_dtype(x0, t).contiguous();
  for (int64_t i = 0; i < x0.dim(); ++i) {
    (i < d ? l.outer : i == d ? l.n : l.inner) *= x0.shape()[i];
    if (i != d) l.out_shape.push_back(x0.shape()[i]);
    else if (keepdim) l.out_shape.push_back(1);
  }
  return l;
}

// Runs pick(lane, n, &value, &index) for every lane; (values, indices) in the input's dtype and int64.
template <typename Pick>
Object per_lane(const Tensor& x0, int64_t d, bool keepdim, const char* op, Pick pick, bool bool_ok = false) {
  Lanes l = lanes(x0, d, keepdim, op, bool_ok);
  // Picks only compare and copy values: every dtype runs as int64 or double (ops/dispatch.h).
  const DType wt = order_dtype(l.x.dtype());
  l.x = to_dtype(l.x, wt);
  Tensor values = Tensor::empty(l.out_shape, wt), indices = Tensor::empty(l.out_shape, DType::Int64);
  dispatch_order(wt, op, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> lane(static_cast<size_t>(l.n));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        for (int64_t k = 0; k < l.n; ++k) lane[k] = l.x.data<T>()[(o * l.n + k) * l.inner + i];
        pick(lane, &values.data<T>()[o * l.inner + i], &indices.data<int64_t>()[o * l.inner + i]);
      }
  });
  return Object::tuple({restore_dtype(values, x0.dtype()), indices});
}

// The median of a lane: NaN (the first) for median when there is one; nanmedian skips NaNs.
template <typename T>
void lane_median(const std::vector<T>& v, bool ignore_nan, T* value, int64_t* index) {
  const int64_t n = static_cast<int64_t>(v.size());
  if (!ignore_nan)
    for (int64_t i = 0; i < n; ++i)
      if (is_nan(v[i])) {
        *value = v[i], *index = i;
        return;
      }
  int64_t nans = 0;
  for (const T& x : v) nans += is_nan(x);
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  auto nth = idx.begin() + (n - nans - 1 < 0 ? 0 : (n - nans - 1) / 2);
  std::nth_element(idx.begin(), nth, idx.end(), [&](int64_t i, int64_t j) {
    return v[i] < v[j] || (v[i] == v[j] && i < j) || (is_nan(v[j]) && !is_nan(v[i]));
  });
  *value = v[*nth], *index = *nth;
}

template <bool kIgnoreNan>
Object median_op(const OpCall& call) {
  const char* name = kIgnoreNan ? "nanmedian" : "median";
  static const Schema schema(std::string(name) + "(input|self, dim=None, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.is_none(1)) {  // the whole tensor: a 0-dim value
    if (x.numel() == 0 && dtype_is_floating(x.dtype()))  // torch gives NaN
      return scalar_tensor(Number::floating(std::numeric_limits<double>::quiet_NaN()), x.dtype());
    if (x.numel() == 0) {  // torch's NaN cast to the integer type on x86: INT_MIN's low bits
      const int64_t v = x.dtype() == DType::Int64 ? INT64_MIN : x.dtype() == DType::Int32 ? INT32_MIN : 0;
      return scalar_tensor(x.dtype() == DType::Bool ? Number::boolean(true) : Number::integer(v), x.dtype());
    }
    Tensor flat = view_as_shape(x.contiguous(), {x.numel()});
    Object r = per_lane(flat, 0, false, "median_cpu", [](const auto& v, auto* value, int64_t* index) {
      lane_median(v, kIgnoreNan, value, index);
    });
    return r.items()[0];
  }
  const int64_t d = wrap_dim(a.integer(1), x.dim());
  if (x.dim() > 0 && x.shape()[d] == 0)
    throw FxError("median(): Expected reduction dim " + std::to_string(d) + " to have non-zero size.");
  return per_lane(x, d, a.boolean(2), "median_cpu",
                  [](const auto& v, auto* value, int64_t* index) { lane_median(v, kIgnoreNan, value, index); });
}

// torch's quick_select_template (Sedgewick 1978, Program 2): partitions around the (k)th smallest,
// NaN largest, swapping values and their indices together.
template <typename T>
void quick_select(std::vector<T>& arr, std::vector<int64_t>& ind, int64_t k) {
  auto gt = [](T x, T y) { return (is_nan(x) && !is_nan(y)) || x > y; };
  auto swap = [&](int64_t i, int64_t j) {
    const T t = arr[i];  // (not std::swap: T may be bool, whose vector hands out proxies)
    arr[i] = arr[j], arr[j] = t;
    std::swap(ind[i], ind[j]);
  };
  int64_t L = 0, R = static_cast<int64_t>(arr.size()) - 1;
  while (true) {
    if (R <= L) return;
    if (R == L + 1) {
      if (gt(arr[L], arr[R])) swap(L, R);
      return;
    }
    const int64_t P = (L + R) >> 1;
    swap(P, L + 1);
    if (gt(arr[L + 1], arr[R])) swap(L + 1, R);
    if (gt(arr[L], arr[R])) swap(L, R);
    if (gt(arr[L + 1], arr[L])) swap(L + 1, L);
    int64_t i = L + 1, j = R;
    const T piv = arr[L];
    while (true) {
      do ++i; while (gt(piv, arr[i]));
      do --j; while (gt(arr[j], piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

Object kthvalue_op(const OpCall& call) {
  static const Schema schema("kthvalue(input|self, k, dim=-1, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t k = a.integer(1);
  const int64_t d = wrap_dim(a.integer(2), x.dim());
  if (k <= 0 || k > (x.dim() > 0 ? x.shape()[d] : 1))
    throw FxError("kthvalue(): selected number k out of range for dimension " + std::to_string(d));
  return per_lane(x, d, a.boolean(3), "kthvalue_cpu", [k](const auto& v, auto* value, int64_t* index) {
    auto arr = v;
    std::vector<int64_t> ind(arr.size());
    std::iota(ind.begin(), ind.end(), 0);
    quick_select(arr, ind, k - 1);
    *value = arr[k - 1], *index = ind[k - 1];
  });
}

Object mode_op(const OpCall& call) {
  static const Schema schema("mode(input|self, dim=-1, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t d = wrap_dim(a.integer(1), x.dim());
  if (x.dim() > 0 && x.shape()[d] == 0)
    throw FxError("mode(): Expected reduction dim " + std::to_string(d) + " to have non-zero size.");
  return per_lane(x, d, a.boolean(2), "mode_cpu", [](const auto& v, auto* value, int64_t* index) {
    using T = std::decay_t<decltype(*value)>;
    std::vector<std::pair<T, int64_t>> e(v.size());
    for (size_t i = 0; i < v.size(); ++i) e[i] = {v[i], static_cast<int64_t>(i)};
    // The same unstable sort torch runs, so equal values end in the same order.
    std::sort(e.begin(), e.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
    int64_t best = 0, run = 0;
    for (size_t i = 0; i < e.size(); ++i) {
      ++run;
      if (i + 1 == e.size() || e[i].first != e[i + 1].first) {
        if (run > best) *value = e[i].first, *index = e[i].second, best = run;
        run = 0;
      }
    }
  }, /*bool_ok=*/true);
}

enum class Interp { Linear, Lower, Higher, Midpoint, Nearest };

Interp interpolation(const std::string& s) {
  if (s == "linear") return Interp::Linear;
  if (s == "lower") return Interp::Lower;
  if (s == "higher") return Interp::Higher;
  if (s == "midpoint") return Interp::Midpoint;
  if (s == "nearest") return Interp::Nearest;
  throw FxError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got " + s);
}

// quantile and nanquantile (one copy of the code: ignore_nan is an argument, not a template parameter).
Object quantile(const OpCall& call, const Schema& schema, bool ignore_nan) {
  const char* name = ignore_nan ? "nanquantile" : "quantile";
  Args a = schema.parse(call);
  if (!a.is_none(5)) throw FxError(std::string(name) + "(): out= is not supported");
  const Tensor& x = a.tensor(0);
  const Interp mode = interpolation(a.str(4));
  Tensor q;
  if (a[1].is_tensor()) {
    q = a.tensor(1);
  } else {
    const double qv = a.number(1).as_double();
    if (!(qv >= 0 && qv <= 1))
      throw FxError("quantile() q must be in the range [0, 1] but got " + Value::floating(qv).repr());
    q = scalar_tensor(Number::floating(qv), x.dtype());
  }
  if (x.numel() == 0) throw FxError("quantile() input tensor must be non-empty");
  if (q.dim() > 1) throw FxError("quantile() q must be a scalar or 1D tensor");
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
    throw FxError("quantile() input tensor must be either float or double dtype");
  if (q.dtype() != x.dtype()) throw FxError("quantile() q tensor must be same dtype as the input tensor");
  const bool has_dim = !a.is_none(2);
  const bool keepdim = a.boolean(3);
  const int64_t d = has_dim ? wrap_dim(a.integer(2), x.dim()) : 0;
  Shape out_shape;
  if (has_dim && x.dim() > 0) {
    for (int64_t i = 0; i < x.dim(); ++i)
      if (i != d) out_shape.push_back(x.shape()[i]);
      else if (keepdim) out_shape.push_back(1);
  } else if (keepdim) {
    out_shape.assign(static_cast<size_t>(x.dim()), 1);
  }
  const int64_t nq = q.numel();
  if (q.dim() > 0) out_shape.insert(out_shape.begin(), nq);
  Lanes l = has_dim ? lanes(x, d, false, name) : lanes(view_as_shape(x.contiguous(), {x.numel()}), 0, false, name);
  const int64_t lanes_n = l.outer * l.inner;
  Tensor out = Tensor::empty(out_shape, x.dtype());
  Tensor qc = q.contiguous();
  dispatch_float(x.dtype(), name, [&](auto tag) {
    using T = decltype(tag);
    const T* qs = qc.data<T>();
    for (int64_t j = 0; j < nq; ++j)
      if (!(qs[j] >= 0 && qs[j] <= 1)) throw FxError("quantile() q values must be in the range [0, 1]");
    std::vector<T> lane(static_cast<size_t>(l.n));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        for (int64_t k = 0; k < l.n; ++k) lane[k] = l.x.data<T>()[(o * l.n + k) * l.inner + i];
        std::stable_sort(lane.begin(), lane.end(), [](T u, T v) { return (!is_nan(u) && is_nan(v)) || u < v; });
        int64_t valid = 0;
        for (T v : lane) valid += !is_nan(v);
        const int64_t last = l.n - 1;
        for (int64_t j = 0; j < nq; ++j) {
          T rank;
          if (ignore_nan) {
            rank = qs[j] * static_cast<T>(valid - 1);
            if (rank < 0) rank = 0;
          } else {
            rank = valid < l.n ? static_cast<T>(last) : qs[j] * static_cast<T>(last);
          }
          if (mode == Interp::Lower) rank = std::floor(rank);
          else if (mode == Interp::Higher) rank = std::ceil(rank);
          else if (mode == Interp::Nearest) rank = std::nearbyint(rank);
          const int64_t below = static_cast<int64_t>(rank);
          T r = lane[below];
          if (mode == Interp::Linear || mode == Interp::Midpoint) {
            const T w = mode == Interp::Midpoint ? T(0.5) : rank - static_cast<T>(below);
            const T hi = lane[static_cast<int64_t>(std::ceil(rank))];
            r = w < T(0.5) ? r + w * (hi - r) : hi - (hi - r) * (T(1) - w);
          }
          out.data<T>()[j * lanes_n + o * l.inner + i] = r;
        }
      }
  });
  return out;
}

template <bool kIgnoreNan>
Object quantile_op(const OpCall& call) {
  static const Schema schema(std::string(kIgnoreNan ? "nanquantile" : "quantile") +
                             "(input|self, q, dim=None, keepdim=False, *, interpolation='linear', out=None)");
  return quantile(call, schema, kIgnoreNan);
}

const OpRow kOps[] = {
    {"torch.median", "torch.Tensor.median aten.median.default aten.median.dim", "median", median_op<false>},
    {"torch.nanmedian", "torch.Tensor.nanmedian aten.nanmedian.default aten.nanmedian.dim", "nanmedian", median_op<true>},
    {"torch.kthvalue", "torch.Tensor.kthvalue aten.kthvalue.default", "kthvalue", kthvalue_op},
    {"torch.mode", "torch.Tensor.mode aten.mode.default", "mode", mode_op},
    {"torch.quantile", "torch.Tensor.quantile aten.quantile.default aten.quantile.scalar", "quantile", quantile_op<false>},
    {"torch.nanquantile", "torch.Tensor.nanquantile aten.nanquantile.default aten.nanquantile.scalar", "nanquantile", quantile_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
