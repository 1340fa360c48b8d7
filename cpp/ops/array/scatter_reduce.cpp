// scatter_reduce (sum, prod, mean, amax, amin; include_self) and scatter(..., reduce='add'|'multiply'),
// out of place and in place. As torch: out starts as input (or, where include_self=False and an index
// lands, as the first scattered value); mean divides by the count (floor division for integers); amax/amin
// let NaN win. Index tensors must be int64 or int32 (any integer dtype when empty) and of the input's rank.
#include <cmath>
#include <type_traits>

#include "ops/dispatch.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

enum class Reduce { Sum, Prod, Mean, Max, Min };

Reduce parse_reduce(const std::string& r) {
  if (r == "sum") return Reduce::Sum;
  if (r == "prod") return Reduce::Prod;
  if (r == "mean") return Reduce::Mean;
  if (r == "amax") return Reduce::Max;
  if (r == "amin") return Reduce::Min;
  throw FxError("reduce argument must be either sum, prod, mean, amax or amin, got " + r);
}

Tensor scatter_reduce_into(const Tensor& out, int64_t dim, const Tensor& index0, const Tensor& src0, Reduce op,
                           bool include_self, const char* name) {
  const int64_t d = checked_dim(dim, out.dim());
  // int64 or int32 indices, or an empty index of any integer dtype (as torch)
  if (index0.dtype() != DType::Int64 && index0.dtype() != DType::Int32 &&
      (index0.numel() != 0 || dtype_is_floating(index0.dtype())))
    throw FxError(std::string(name) + "(): Expected dtype int32/int64 for index");
  const Tensor index = to_dtype(index0, DType::Int64);
  if (std::max<int64_t>(index.dim(), 1) != std::max<int64_t>(out.dim(), 1))
    throw FxError("Index tensor must have the same number of dimensions as self tensor");
  for (int64_t k = 0; k < index.dim(); ++k) {
    if (k != d && index.shape()[k] > out.shape()[k])
      throw FxError("Size does not match at dimension " + std::to_string(k) + " expected index " +
                    shape_to_string(index.shape()) + " to be no larger than self " + shape_to_string(out.shape()) +
                    " apart from dimension " + std::to_string(d));
    if (index.shape()[k] > src0.shape()[k])
      throw FxError("Size does not match at dimension " + std::to_string(k) + " expected index " +
                    shape_to_string(index.shape()) + " to be no larger than src " + shape_to_string(src0.shape()));
  }
  // Integers accumulate in int64 (wrapping: the same low bits as torch's narrower sums and products).
  const DType kdt = wide_dtype(out.dtype());
  Tensor acc = to_dtype(out, kdt).contiguous().clone();
  Tensor src = to_dtype(src0, kdt);
  std::vector<int64_t> count;
  dispatch_wide(kdt, name, [&](auto tag) {
    using T = decltype(tag);
    T* o = acc.data<T>();
    const T* s = reinterpret_cast<const T*>(src.storage()->data());
    Tensor idx = index.contiguous();
    const int64_t n = idx.numel(), nd = idx.dim();
    const int64_t size = out.dim() == 0 ? 1 : out.shape()[d];
    count.assign(static_cast<size_t>(acc.numel()), include_self ? 1 : 0);
    std::vector<int64_t> pos(static_cast<size_t>(nd), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = idx.data<int64_t>()[i];
      if (j < -size || j >= size)
        throw FxError("index " + std::to_string(j) + " is out of bounds for dimension " + std::to_string(d) +
                      " with size " + std::to_string(size));
      if (j < 0) j += size;
      int64_t xo = 0, so = src.offset();
      for (int64_t k = 0; k < nd; ++k) {
        xo += (k == d ? j : pos[k]) * acc.strides()[k];
        so += pos[k] * src.strides()[k];
      }
      const T v = s[so];
      T& t = o[xo];
      if (count[xo] == 0) {
        t = v;
      } else if constexpr (std::is_same_v<T, bool>) {
        t = op == Reduce::Prod || op == Reduce::Min ? (t && v) : (t || v);
      } else {
        switch (op) {
          case Reduce::Sum: case Reduce::Mean: t = static_cast<T>(t + v); break;
          case Reduce::Prod: t = static_cast<T>(t * v); break;
          case Reduce::Max: if (v != v || v > t) t = v; break;
          case Reduce::Min: if (v != v || v < t) t = v; break;
        }
      }
      ++count[xo];
      for (int64_t k = nd; k-- > 0;) {
        if (++pos[k] < idx.shape()[k]) break;
        pos[k] = 0;
      }
    }
  });
  if (op != Reduce::Mean) return acc;
  // torch divides a sum wrapped in the input's own integer dtype.
  if (kdt != out.dtype() && kdt == DType::Int64) acc = to_dtype(to_dtype(acc, out.dtype()), kdt);
  dispatch_wide(kdt, name, [&](auto tag) {
    using T = decltype(tag);
    T* o = acc.data<T>();
    for (int64_t i = 0; i < acc.numel(); ++i) {
      const int64_t c = count[i] == 0 ? 1 : count[i];
      if constexpr (std::is_floating_point_v<T>) o[i] = o[i] / static_cast<T>(c);
      else if constexpr (!std::is_same_v<T, bool>) {
        int64_t q = static_cast<int64_t>(o[i]) / c;
        if ((static_cast<int64_t>(o[i]) % c != 0) && (o[i] < 0)) --q;
        o[i] = static_cast<T>(q);
      }
    }
  });
  return acc;
}

Tensor finish(const Tensor& self, const Tensor& acc, bool inplace) {
  if (inplace) {
    copy_into(self, to_dtype(acc, self.dtype()));
    return self;
  }
  return to_dtype(acc, self.dtype());
}

template <bool kInplace>
Object scatter_reduce_op(const OpCall& call) {
  static const Schema schema(std::string(kInplace ? "scatter_reduce_" : "scatter_reduce") +
                             "(input|self, dim, index, src, reduce, *, include_self=True)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& src = a.tensor(3);
  if (src.dtype() != x.dtype()) throw FxError("scatter_reduce(): Expected self.dtype to be equal to src.dtype");
  Tensor acc = scatter_reduce_into(x, a.integer(1), a.tensor(2), src, parse_reduce(a.str(4)), a.boolean(5),
                                   "scatter_reduce");
  return finish(x, acc, kInplace);
}

// scatter(input, dim, index, src|value, *, reduce): 'add' or 'multiply', including input's values.
template <bool kInplace>
Object scatter_with_reduce_op(const OpCall& call) {
  static const Schema schema(std::string(kInplace ? "scatter_" : "scatter") +
                             "(input|self, dim, index, src|value, *, reduce)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const std::string r = a.str(4);
  if (r != "add" && r != "multiply") throw FxError("reduce argument must be either add or multiply.");
  Tensor src;
  if (a[3].is_tensor()) {
    if (a.tensor(3).dtype() != x.dtype()) throw FxError("scatter(): Expected self.dtype to be equal to src.dtype");
    src = a.tensor(3);
  } else {
    src = expand_to(scalar_tensor(to_number(a[3]), x.dtype()), a.tensor(2).shape());
  }
  Tensor acc = scatter_reduce_into(x, a.integer(1), a.tensor(2), src, r == "add" ? Reduce::Sum : Reduce::Prod, true,
                                   "scatter");
  return finish(x, acc, kInplace);
}

const OpRow kOps[] = {
    {"torch.scatter_reduce", "torch.Tensor.scatter_reduce aten.scatter_reduce.two", "scatter_reduce", scatter_reduce_op<false>},
    {"torch.Tensor.scatter_reduce_", "aten.scatter_reduce_.two", "scatter_reduce_", scatter_reduce_op<true>},
    {"aten.scatter.reduce", "aten.scatter.value_reduce", "", scatter_with_reduce_op<false>},
    {"aten.scatter_.reduce", "aten.scatter_.value_reduce", "", scatter_with_reduce_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
