// F.pad (negative pads crop, in every mode; constant, reflect, replicate, circular) and the aten pad ops.
// `pad` lists (before, after) pairs starting from the last dim, as torch does.
#include <algorithm>

#include "ops/array/view_util.h"
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

enum class PadMode { Constant, Reflect, Replicate, Circular };

// Source index along a dim of size n for output index i (before = leading pad), or -1 for the fill value.
int64_t source_index(int64_t i, int64_t before, int64_t n, PadMode m) {
  int64_t s = i - before;
  if (s >= 0 && s < n) return s;
  switch (m) {
    case PadMode::Constant: return -1;
    case PadMode::Reflect: return s < 0 ? -s : 2 * (n - 1) - s;
    case PadMode::Replicate: return s < 0 ? 0 : n - 1;
    case PadMode::Circular: return ((s % n) + n) % n;
  }
  return -1;
}

Tensor pad_tensor(const Tensor& x0, const std::vector<int64_t>& pad, PadMode mode, Number value) {
  if (pad.size() % 2 != 0) throw FxError("Padding length must be divisible by 2");
  const int64_t np = static_cast<int64_t>(pad.size() / 2);
  if (np > x0.dim())
    throw FxError("Padding length should be less than or equal to two times the input dimension but got padding length " +
                  std::to_string(pad.size()) + " and input of dimension " + std::to_string(x0.dim()));
  // Negative padding crops. Reflect and replicate read the source index against the whole input (as torch's
  // kernels do: pad (-1, 2) reflects about the input's last element); circular wraps around what is left
  // after the crop (as torch's circular pad does), so crop first and pad with what is positive.
  std::vector<int64_t> pads = pad;
  Tensor x = x0;
  if (mode == PadMode::Circular) {
    Shape shape = x0.shape();
    int64_t offset = x0.offset();
    for (int64_t k = 0; k < np; ++k) {
      const int64_t d = x0.dim() - 1 - k;
      const int64_t lo = std::max<int64_t>(-pads[2 * k], 0), hi = std::max<int64_t>(-pads[2 * k + 1], 0);
      if (lo + hi == 0) continue;
      if (lo + hi > shape[d])
        throw FxError("The input size " + std::to_string(shape[d]) + ", plus negative padding " +
                      std::to_string(pads[2 * k]) + " and " + std::to_string(pads[2 * k + 1]) +
                      " resulted in a negative output size, which is invalid. Check dimension " + std::to_string(d) +
                      " of your input.");
      offset += lo * x0.strides()[d];
      shape[d] -= lo + hi;
      pads[2 * k] = std::max<int64_t>(pads[2 * k], 0);
      pads[2 * k + 1] = std::max<int64_t>(pads[2 * k + 1], 0);
    }
    x = make_view(x0, shape, x0.strides(), offset);
  }
  x = x.contiguous();
  const int64_t nd = x.dim();
  Shape out_shape = x.shape();
  std::vector<int64_t> before(static_cast<size_t>(nd), 0);
  for (int64_t k = 0; k < np; ++k) {
    const int64_t d = nd - 1 - k;
    const int64_t b = pads[2 * k], e = pads[2 * k + 1];
    const int64_t n = x.shape()[d];
    if (mode == PadMode::Reflect && (b >= n || e >= n))
      throw FxError("Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (" +
                    std::to_string(b) + ", " + std::to_string(e) + ") at dimension " + std::to_string(d) +
                    " of input " + shape_to_string(x.shape()));
    if (mode == PadMode::Circular && (b > n || e > n))
      throw FxError("Padding value causes wrapping around more than once.");
    if (mode == PadMode::Replicate && n == 0) throw FxError("replicate padding of an empty dim");
    before[d] = b;
    // n + b + e wraps as in torch (int64 arithmetic): pad by 2^63-1 is then a negative size, not [0, 0].
    out_shape[d] = static_cast<int64_t>(static_cast<uint64_t>(n) + static_cast<uint64_t>(b) + static_cast<uint64_t>(e));
    if (out_shape[d] < 0)
      throw FxError("The input size " + std::to_string(n) + ", plus negative padding " + std::to_string(b) + " and " +
                    std::to_string(e) + " resulted in a negative output size, which is invalid. Check dimension " +
                    std::to_string(d) + " of your input.");
  }
  Tensor out = Tensor::empty(out_shape, x.dtype());
  const Shape in_strides = contiguous_strides(x.shape());
  const int64_t total = out.numel();
  // Values are only copied: one instantiation per element width (the fill converted once, as torch does).
  const Tensor fill_value = checked_scalar_tensor(value, x.dtype(), /*strict_unsigned=*/true);
  dispatch_width(dtype_size(x.dtype()), [&](auto tag) {
    using T = decltype(tag);
    const T fill = *reinterpret_cast<const T*>(fill_value.storage()->data());
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t o = 0; o < total; ++o) {
      int64_t off = 0;
      bool inside = true;
      for (int64_t d = 0; d < nd && inside; ++d) {
        const int64_t s = source_index(idx[d], before[d], x.shape()[d], mode);
        if (s < 0) inside = false;
        else off += s * in_strides[d];
      }
      dst[o] = inside ? src[off] : fill;
      for (int64_t d = nd - 1; d >= 0; --d) {
        if (++idx[d] < out_shape[d]) break;
        idx[d] = 0;
      }
    }
  });
  return out;
}

PadMode parse_mode(const std::string& m) {
  if (m == "constant") return PadMode::Constant;
  if (m == "reflect") return PadMode::Reflect;
  if (m == "replicate") return PadMode::Replicate;
  if (m == "circular") return PadMode::Circular;
  throw FxError("Unrecognised padding mode " + m);
}

Object pad_op(const OpCall& call) {
  static const Schema schema("pad(input, pad, mode='constant', value=None)");
  Args a = schema.parse(call);
  const PadMode mode = parse_mode(a.str(2));
  Number value = a.is_none(3) ? Number::integer(0) : a.number(3);
  if (mode != PadMode::Constant && !a.is_none(3) && value.as_double() != 0)
    throw FxError("Padding mode \"" + a.str(2) + "\" doesn't take in value argument");
  return pad_tensor(a.tensor(0), *a.int_list(1), mode, value);
}

Object constant_pad_op(const OpCall& call) {
  static const Schema schema("constant_pad_nd(input|self, pad, value=0)");
  Args a = schema.parse(call);
  return pad_tensor(a.tensor(0), *a.int_list(1), PadMode::Constant, a.number(2));
}

template <int kMode>
Object aten_pad_op(const OpCall& call) {
  static const Schema schema("pad(input|self, padding)");
  Args a = schema.parse(call);
  return pad_tensor(a.tensor(0), *a.int_list(1), static_cast<PadMode>(kMode), Number::integer(0));
}

constexpr int kReflect = static_cast<int>(PadMode::Reflect), kReplicate = static_cast<int>(PadMode::Replicate),
              kCircular = static_cast<int>(PadMode::Circular);

const OpRow kOps[] = {
    {"torch.nn.functional.pad", "torch._C._nn.pad aten.pad.default", "", pad_op},
    {"torch.constant_pad_nd", "aten.constant_pad_nd.default", "", constant_pad_op},
    {"aten.reflection_pad1d.default", "aten.reflection_pad2d.default aten.reflection_pad3d.default", "", aten_pad_op<kReflect>},
    {"aten.replication_pad1d.default", "aten.replication_pad2d.default aten.replication_pad3d.default", "", aten_pad_op<kReplicate>},
    {"aten._pad_circular.default", "", "", aten_pad_op<kCircular>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
