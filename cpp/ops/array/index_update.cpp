// index_add / index_copy / index_fill (and their in-place forms): updates along `dim` at the positions a
// 1-D index names, out of place on a clone or in place on input, as torch:
//   index_add:  out[.., index[i], ..] += alpha * source[.., i, ..]
//   index_copy: out[.., index[i], ..]  = source[.., i, ..]
//   index_fill: out[.., index[i], ..]  = value
#include <cstring>
#include <type_traits>

#include "ops/dispatch.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

enum Kind { Add, Copy, Fill };
const char* const kNames[] = {"index_add", "index_copy", "index_fill"};

// One body for the six ops (kind and in-place are arguments, not template parameters: one copy of the
// code in the binary); the ops below pass their schema.
Object index_update(const OpCall& call, const Schema& schema, int kind, bool inplace) {
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const std::string name = std::string(kNames[kind]) + "_";
  const int64_t d = checked_dim(a.integer(1), x.dim());
  if (kind == Add ? (index.dtype() != DType::Int64 && index.dtype() != DType::Int32) : index.dtype() != DType::Int64)
    throw FxError(kind == Copy ? name + "(): Expected a long tensor for index, but got " + torch_type_name(index.dtype())
                  : kind == Fill ? name + "(): Expected dtype int64 for index."
                                  : name + "(): Expected dtype int32/int64 for index");
  if (index.dim() > 1) throw FxError(name + "(): Index is supposed to be a vector");
  const int64_t n = index.numel();
  const int64_t size = x.dim() == 0 ? 1 : x.shape()[d];
  Tensor src;
  if (kind == Fill) {
    if (a[3].is_tensor() && a.tensor(3).dim() != 0)
      throw FxError(name + "(): Expected a 0-dim value tensor, but got tensor with " +
                    std::to_string(a.tensor(3).dim()) + " dimension(s).");
    src = a[3].is_tensor() ? a.tensor(3) : checked_scalar_tensor(a.number(3), x.dtype());
  } else {
    src = a.tensor(3);
    if (src.dtype() != x.dtype())
      throw FxError(name + "(): self (" + torch_type_name(x.dtype()) + ") and source (" +
                    torch_type_name(src.dtype()) + ") must have the same scalar type");
    if (src.dim() != x.dim() && !(x.dim() <= 1 && src.dim() <= 1))
      throw FxError(name + "(): Source/destination tensor must have same slice shapes.");
    const int64_t sn = src.dim() == 0 ? 1 : src.shape()[src.dim() == x.dim() ? d : 0];
    if (sn != n)
      throw FxError(name + "(): Number of indices (" + std::to_string(n) + ") should be equal to source.size(dim) (" +
                    std::to_string(sn) + ")");
    for (int64_t k = 0; k < x.dim() && src.dim() == x.dim(); ++k)
      if (k != d && src.shape()[k] != x.shape()[k])
        throw FxError(name + "(): Source/destination tensor must have same slice shapes.");
  }
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= x.shape()[k];
  for (int64_t k = d + 1; k < x.dim(); ++k) inner *= x.shape()[k];
  if (inplace && kind == Copy && x.is_contiguous() && !meta_mode() && !x.is_meta()) {
    // index_copy_ into a packed tensor (a static KV cache written at the step's positions): the source's
    // slices go straight to their places, so a step costs the new values, not a copy of the whole cache.
    const Tensor idx = to_dtype(index, DType::Int64).contiguous();
    const int64_t* ip = idx.data<int64_t>();
    for (int64_t i = 0; i < n; ++i)  // checked before anything is written, so a bad index changes nothing
      if (ip[i] < -size || ip[i] >= size) throw FxError("index out of range in self");
    Tensor s = src.contiguous();
    if (s.storage() == x.storage()) s = s.clone();
    const size_t es = dtype_size(x.dtype()), row = static_cast<size_t>(inner) * es;
    Tensor out = x;  // a handle: the writes go to x's storage
    uint8_t* o = static_cast<uint8_t*>(out.raw_data());
    const uint8_t* sp = static_cast<const uint8_t*>(s.raw_data());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = ip[i] < 0 ? ip[i] + size : ip[i];
      for (int64_t p = 0; p < outer; ++p)
        std::memcpy(o + static_cast<size_t>(p * size + j) * row, sp + static_cast<size_t>(p * n + i) * row, row);
    }
    return x;
  }
  const DType kdt = wide_dtype(x.dtype());  // integers accumulate in int64 (wrapping: the same low bits)
  Tensor acc = to_dtype(x, kdt).contiguous().clone();
  Tensor s = to_dtype(src, kdt).contiguous();
  const Number alpha = kind == Add ? a.number(4) : Number::integer(1);
  dispatch_wide(kdt, kNames[kind], [&](auto tag) {
    using T = decltype(tag);
    Tensor idx = to_dtype(index, DType::Int64).contiguous();
    const T al = static_cast<T>(alpha.as_double());
    const bool unit = alpha.as_double() == 1.0;
    T* o = acc.data<T>();
    const T* sp = s.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = idx.data<int64_t>()[i];
      if (j < -size || j >= size)
        throw FxError("index out of range in self");
      if (j < 0) j += size;
      for (int64_t p = 0; p < outer; ++p)
        for (int64_t q = 0; q < inner; ++q) {
          T& t = o[(p * size + j) * inner + q];
          const T v = kind == Fill ? sp[0] : sp[(p * n + i) * inner + q];
          if (kind == Add) {
            if constexpr (std::is_same_v<T, bool>) t = t || (al && v);  // alpha=False adds nothing
            else t = static_cast<T>(t + (unit ? v : static_cast<T>(al * v)));
          } else {
            t = v;
          }
        }
    }
  });
  if (inplace) {
    copy_into(x, to_dtype(acc, x.dtype()));
    return x;
  }
  return to_dtype(acc, x.dtype());
}

template <int kKind, bool kInplace>
Object index_update_op(const OpCall& call) {
  static const Schema schema(std::string(kNames[kKind]) + (kInplace ? "_" : "") +
                             (kKind == Add    ? "(input|self, dim, index, source, *, alpha=1)"
                              : kKind == Copy ? "(input|self, dim, index, source)"
                                              : "(input|self, dim, index, value)"));
  return index_update(call, schema, kKind, kInplace);
}

template <int kKind>
OpDef def_out() noexcept {
  const std::string n = kNames[kKind];
  OpDef d{"torch." + n, {"torch.Tensor." + n, "aten." + n + ".default"}, {n}, index_update_op<kKind, false>};
  if (kKind == Fill) d.functions = {"torch.Tensor." + n, "aten." + n + ".int_Scalar", "aten." + n + ".int_Tensor"};
  return d;
}
template <int kKind>
OpDef def_in() noexcept {
  const std::string n = std::string(kNames[kKind]) + "_";
  OpDef d{"torch.Tensor." + n, {"aten." + n + ".default"}, {n}, index_update_op<kKind, true>};
  if (kKind == Fill) d.functions = {"aten." + n + ".int_Scalar", "aten." + n + ".int_Tensor"};
  return d;
}

const OpRegistrar reg_ia{def_out<Add>()};
const OpRegistrar reg_ic{def_out<Copy>()};
const OpRegistrar reg_if{def_out<Fill>()};
const OpRegistrar reg_ia_{def_in<Add>()};
const OpRegistrar reg_ic_{def_in<Copy>()};
const OpRegistrar reg_if_{def_in<Fill>()};

}  // namespace
}  // namespace fx
