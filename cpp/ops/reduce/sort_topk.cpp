// sort / argsort / topk along one dim, as torch orders: NaN is larger than every number (last ascending,
// first descending), ties keep their input order (torch's CPU sort is stable). Results are (values,
// int64 indices) tuples; every dtype torch sorts, bool included.
#include <algorithm>
#include <numeric>
#include <type_traits>

#include "ops/dispatch.h"
#include "ops/dispatch_order.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

// Sorts each lane of x along d; keeps the first k of each (k = size for a full sort).
std::pair<Tensor, Tensor> sort_lanes(const Tensor& x0, int64_t dim, bool descending, int64_t k, const char* op) {
  const int64_t d = x0.dim() == 0 ? 0 : wrap_dim(dim, x0.dim());
  const DType kdt = order_dtype(x0.dtype());  // every dtype sorts as int64 or double: the same order
  Tensor x = to_dtype(x0, kdt).contiguous();
  const int64_t size = x0.dim() == 0 ? 1 : x0.shape()[d];
  Shape shape = x0.shape();
  if (x0.dim() > 0) shape[d] = k;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= x0.shape()[i];
  for (int64_t i = d + 1; i < x0.dim(); ++i) inner *= x0.shape()[i];
  Tensor values = Tensor::empty(shape, kdt), indices = Tensor::empty(shape, DType::Int64);
  dispatch_order(kdt, op, [&](auto tag) {
    using T = decltype(tag);
    auto isnan = [](T v) {
      if constexpr (std::is_floating_point_v<T>) return v != v;
      else return false;
    };
    const T* src = x.data<T>();
    T* vo = values.data<T>();
    int64_t* io = indices.data<int64_t>();
    std::vector<int64_t> order(static_cast<size_t>(size));
    for (int64_t p = 0; p < outer; ++p)
      for (int64_t q = 0; q < inner; ++q) {
        const T* lane = src + p * size * inner + q;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          const T va = lane[a * inner], vb = lane[b * inner];
          if (descending) return (isnan(va) && !isnan(vb)) || va > vb;
          return (!isnan(va) && isnan(vb)) || va < vb;
        });
        for (int64_t j = 0; j < k; ++j) {
          vo[(p * k + j) * inner + q] = lane[order[j] * inner];
          io[(p * k + j) * inner + q] = order[j];
        }
      }
  });
  return {restore_dtype(values, x0.dtype()), indices};
}

Object sort_op(const OpCall& call) {
  static const Schema schema("sort(input|self, dim=-1, descending=False, *, stable=None)");
  Args a = schema.parse(call);
  // aten.sort.stable(self, *, stable, dim=-1, descending=False) spells the same parameters by keyword.
  const Tensor& x = a.tensor(0);
  auto r = sort_lanes(x, a.integer(1), a.boolean(2), x.dim() == 0 ? 1 : x.shape()[wrap_dim(a.integer(1), x.dim())],
                      "sort");
  return Object::tuple({r.first, r.second});
}

Object argsort_op(const OpCall& call) {
  static const Schema schema("argsort(input|self, dim=-1, descending=False, *, stable=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  auto r = sort_lanes(x, a.integer(1), a.boolean(2), x.dim() == 0 ? 1 : x.shape()[wrap_dim(a.integer(1), x.dim())],
                      "argsort");
  return r.second;
}

Object msort_op(const OpCall& call) {
  static const Schema schema("msort(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  return sort_lanes(x, 0, false, x.dim() == 0 ? 1 : x.shape()[0], "msort").first;
}

Object topk_op(const OpCall& call) {
  static const Schema schema("topk(input|self, k, dim=-1, largest=True, sorted=True)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t k = a.integer(1);
  const int64_t size = x.dim() == 0 ? 1 : x.shape()[wrap_dim(a.integer(2), x.dim())];
  if (k < 0 || k > size) throw FxError("selected index k out of range");
  auto r = sort_lanes(x, a.integer(2), a.boolean(3), k, "topk");
  return Object::tuple({r.first, r.second});
}

const OpRow kOps[] = {
    {"torch.sort", "torch.Tensor.sort aten.sort.default aten.sort.stable", "sort", sort_op},
    {"torch.argsort", "torch.Tensor.argsort aten.argsort.default aten.argsort.stable", "argsort", argsort_op},
    {"torch.msort", "torch.Tensor.msort aten.msort.default", "msort", msort_op},
    {"torch.topk", "torch.Tensor.topk aten.topk.default", "topk", topk_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
