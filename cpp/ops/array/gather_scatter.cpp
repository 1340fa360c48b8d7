// gather / scatter / scatter_add along one dim, with an int64 index tensor of the input's rank:
//   gather:  out[p] = x[p with p[dim] = index[p]]
//   scatter: out = x; out[p with p[dim] = index[p]] = src[p] (or value); reduce= goes to scatter_reduce.cpp
// Written as one walk over the index positions with per-operand element offsets; copies move raw
// element words, and only scatter_add dispatches on the dtype.
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

// torch takes int64 and (since 2.x) int32 indices, and an empty index of any integer dtype; the walks
// below read int64.
Tensor index64(const Tensor& index, const std::string& op) {
  if (index.dtype() == DType::Int64) return index;
  if (index.dtype() == DType::Int32 || (index.numel() == 0 && !dtype_is_floating(index.dtype())))
    return to_dtype(index, DType::Int64);
  throw FxError(op + "(): Expected dtype int32/int64 for index");
}

void check_index(const Tensor& x, int64_t d, const Tensor& index, const Tensor* src, const std::string& op) {
  if (index.dtype() != DType::Int64) throw FxError(op + "(): Expected dtype int64 for index");
  if (index.numel() == 0) return;  // torch checks no shapes for an empty index
  const int64_t xd = std::max<int64_t>(x.dim(), 1), id = std::max<int64_t>(index.dim(), 1);
  if (id != xd) throw FxError("Index tensor must have the same number of dimensions as " +
                              std::string(op == "gather" ? "input" : "self") + " tensor");
  for (int64_t k = 0; k < index.dim(); ++k) {
    if (k != d && index.shape()[k] > x.shape()[k])
      throw FxError("Size does not match at dimension " + std::to_string(k) + " expected index " +
                    shape_to_string(index.shape()) + " to be no larger than self " + shape_to_string(x.shape()) +
                    " apart from dimension " + std::to_string(d));
    if (src && index.shape()[k] > src->shape()[k])
      throw FxError("Size does not match at dimension " + std::to_string(k) + " expected index " +
                    shape_to_string(index.shape()) + " to be no larger than src " + shape_to_string(src->shape()));
  }
}

// Calls f(x_offset, other_offset) for each index element; `other` strides walk the index positions in
// another tensor (gather's output, scatter's src). The callback is a plain function pointer and context
// (not std::function: each lambda's std::function costs ~1 KB of wasm).
using WalkFn = void (*)(void* ctx, int64_t xo, int64_t oo);
void walk_impl(const Tensor& x, int64_t d, const Tensor& index, const Shape& other_strides, int64_t other_offset,
               WalkFn f, void* ctx) {
  if (meta_mode()) return;  // shape inference: no kernel, no index values (tensor/meta.h)
  Tensor idx = index.contiguous();
  const int64_t n = idx.numel(), nd = idx.dim();
  const int64_t size = x.dim() == 0 ? 1 : x.shape()[d];
  std::vector<int64_t> pos(nd, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = idx.data<int64_t>()[i];
    if (j < -size || j >= size)
      throw FxError("index " + std::to_string(j) + " is out of bounds for dimension " + std::to_string(d) +
                    " with size " + std::to_string(size));
    if (j < 0) j += size;
    int64_t xo = x.offset(), oo = other_offset;
    for (int64_t k = 0; k < nd; ++k) {
      if (k < x.dim()) xo += (k == d ? j : pos[k]) * x.strides()[k];  // (a 0-d x has one element)
      oo += pos[k] * other_strides[k];
    }
    f(ctx, xo, oo);
    for (int64_t k = nd; k-- > 0;) {
      if (++pos[k] < idx.shape()[k]) break;
      pos[k] = 0;
    }
  }
}

template <typename F>
void walk(const Tensor& x, int64_t d, const Tensor& index, const Shape& other_strides, int64_t other_offset,
          F&& f) {
  walk_impl(x, d, index, other_strides, other_offset,
            [](void* ctx, int64_t xo, int64_t oo) { (*static_cast<std::remove_reference_t<F>*>(ctx))(xo, oo); }, &f);
}

template <typename F>
void with_width(size_t es, F&& f) {
  if (meta_mode()) return;  // shape inference: no kernel (tensor/meta.h)
  switch (es) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    case 8: f(uint64_t{}); break;
    case 16: f(Bytes16{}); break;
    default: throw FxError("no element type of " + std::to_string(es) + " bytes");
  }
}

Object gather_op(const OpCall& call) {
  static const Schema schema("gather(input|self, dim, index, *, sparse_grad=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor index = index64(a.tensor(2), "gather");
  const int64_t d = checked_dim(a.integer(1), x.dim());
  check_index(x, d, index, nullptr, "gather");
  Tensor out = Tensor::empty(index.shape(), x.dtype());
  with_width(dtype_size(x.dtype()), [&](auto w) {
    using W = decltype(w);
    const W* xs = reinterpret_cast<const W*>(x.storage()->data());
    W* os = reinterpret_cast<W*>(out.storage()->data());
    walk(x, d, index, out.strides(), 0, [&](int64_t xo, int64_t oo) { os[oo] = xs[xo]; });
  });
  return out;
}

// scatter(input, dim, index, src|value, *, reduce=None) into a clone (or into input for scatter_).
Tensor scatter(const Tensor& x, const Object& dim_o, const Tensor& index0, const Object& src_o, bool add,
               bool inplace) {
  const Tensor index = index64(index0, add ? "scatter_add" : "scatter");
  const int64_t d = checked_dim(int_of(dim_o, "scatter(): argument 'dim'"), x.dim());
  Tensor src;
  if (src_o.is_tensor()) {
    if (!add && src_o.tensor().dtype() != x.dtype())
      throw FxError("scatter(): Expected self.dtype to be equal to src.dtype");
    src = to_dtype(src_o.tensor(), x.dtype());
  } else {
    src = expand_to(scalar_tensor(to_number(src_o), x.dtype()), index.shape());
  }
  check_index(x, d, index, &src, add ? "scatter_add" : "scatter");
  Tensor out = inplace ? x : x.clone();
  if (!add) {
    with_width(dtype_size(x.dtype()), [&](auto w) {
      using W = decltype(w);
      const W* ss = reinterpret_cast<const W*>(src.storage()->data());
      W* os = reinterpret_cast<W*>(out.storage()->data());
      walk(out, d, index, src.strides(), src.offset(), [&](int64_t xo, int64_t so) { os[xo] = ss[so]; });
    });
    return out;
  }
  // scatter_add accumulates in the compute dtype (float32 for the half types; integers in int64, whose
  // wrapping sums have torch's low bits) and writes back once.
  Tensor acc = to_dtype(out, wide_dtype(x.dtype())).contiguous();
  if (acc.storage() == out.storage()) acc = out;  // already a computable dtype: add in place
  Tensor s = to_dtype(src, acc.dtype());
  dispatch_wide(acc.dtype(), "scatter_add", [&](auto tag) {
    using T = decltype(tag);
    const T* ss = reinterpret_cast<const T*>(s.storage()->data());
    T* os = reinterpret_cast<T*>(acc.storage()->data());
    walk(acc, d, index, s.strides(), s.offset(), [&](int64_t xo, int64_t so) {
      if constexpr (std::is_same_v<T, bool>) os[xo] = os[xo] || ss[so];
      else os[xo] = static_cast<T>(os[xo] + ss[so]);
    });
  });
  if (acc.storage() != out.storage()) copy_into(out, acc);
  return out;
}

Object scatter_op(const OpCall& call) {
  static const Schema schema("scatter(input|self, dim, index, src|value, *, reduce=None)");
  Args a = schema.parse(call);
  if (!a.is_none(4)) return OpRegistry::global().call("aten.scatter.reduce", {a[0], a[1], a[2], a[3]}, {{"reduce", a[4]}});
  return scatter(a.tensor(0), a[1], a.tensor(2), a[3], false, false);
}
Object scatter_inplace_op(const OpCall& call) {
  static const Schema schema("scatter_(input|self, dim, index, src|value, *, reduce=None)");
  Args a = schema.parse(call);
  if (!a.is_none(4)) return OpRegistry::global().call("aten.scatter_.reduce", {a[0], a[1], a[2], a[3]}, {{"reduce", a[4]}});
  return scatter(a.tensor(0), a[1], a.tensor(2), a[3], false, true);
}
Object scatter_add_op(const OpCall& call) {
  static const Schema schema("scatter_add(input|self, dim, index, src)");
  Args a = schema.parse(call);
  return scatter(a.tensor(0), a[1], a.tensor(2), a[3], true, false);
}
Object scatter_add_inplace_op(const OpCall& call) {
  static const Schema schema("scatter_add_(input|self, dim, index, src)");
  Args a = schema.parse(call);
  return scatter(a.tensor(0), a[1], a.tensor(2), a[3], true, true);
}

const OpRow kOps[] = {
    {"torch.gather", "torch.Tensor.gather aten.gather.default", "gather", gather_op},
    {"torch.scatter", "torch.Tensor.scatter aten.scatter.src aten.scatter.value", "scatter", scatter_op},
    {"torch.Tensor.scatter_", "aten.scatter_.src aten.scatter_.value", "scatter_", scatter_inplace_op},
    {"torch.scatter_add", "torch.Tensor.scatter_add aten.scatter_add.default", "scatter_add", scatter_add_op},
    {"torch.Tensor.scatter_add_", "aten.scatter_add_.default", "scatter_add_", scatter_add_inplace_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
