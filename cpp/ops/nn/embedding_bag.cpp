// embedding_bag: rows of `weight` gathered by 1-d indices and reduced (sum, mean or max) per bag, bags
// starting at `offsets` (a 2-d input is a batch of equal bags). aten's forms return torch's CPU 4-tuple
// (output, offset2bag, bag_size, max_indices); F.embedding_bag returns the output only. max_norm first
// renormalises the rows looked up, in the weight itself (as torch).
#include <cstring>
#include <limits>

#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

enum Mode { kSum = 0, kMean = 1, kMax = 2 };

// Scalar reference kernel. w: packed [V, D]; idx: n indices; bag b reads idx[begin[b], end[b]) skipping
// padding_idx; psw (or null): per-index weights (sum only). out: [B, D]; a mean divides by sizes[b] (torch's
// bag_size); argmax (max mode, [B, D]): the weight row each maximum came from. Returns the position of
// the first index out of range, or -1.
template <typename T>
int64_t embedding_bag_kernel(const T* w, int64_t V, int64_t D, const int64_t* idx, const int64_t* begin,
                             const int64_t* end, int64_t B, const T* psw, int mode, int64_t padding_idx, T* out,
                             const int64_t* sizes, int64_t* argmax) {
  for (int64_t b = 0; b < B; ++b) {
    T* o = out + b * D;
    for (int64_t d = 0; d < D; ++d) o[d] = 0;
    int64_t n = 0;
    for (int64_t i = begin[b]; i < end[b]; ++i) {
      const int64_t k = idx[i];
      if (k < 0 || k >= V) return i;
      if (k == padding_idx) continue;
      const T* row = w + k * D;
      for (int64_t d = 0; d < D; ++d) {
        if (mode == kMax) {
          if (n == 0 || row[d] > o[d]) o[d] = row[d], argmax[b * D + d] = k;
        } else {
          o[d] += psw ? row[d] * psw[i] : row[d];
        }
      }
      ++n;
    }
    if (mode == kMean && n > 0 && sizes[b] > 0)
      for (int64_t d = 0; d < D; ++d) o[d] /= static_cast<T>(sizes[b]);
  }
  return -1;
}

struct Bags {
  Tensor output, offset2bag, bag_size, max_indices;
};

// aten::_embedding_bag(weight, indices [n], offsets [B or B+1], ..., mode, per_sample_weights,
// include_last_offset, padding_idx) on CPU.
Bags embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets, int64_t mode,
                   const Tensor* psw, bool include_last, int64_t padding_idx) {
  for (const Tensor* t : {&indices, &offsets})
    if (t->dtype() != DType::Int64 && t->dtype() != DType::Int32)
      throw FxError(std::string("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                                "Long, Int; but got ") + torch_type_name(t->dtype()) + " instead");
  if (indices.dim() != 1) throw FxError("input has to be a 1D or 2D Tensor, but got Tensor of dimension " +
                                        std::to_string(indices.dim()));
  if (offsets.dim() != 1) throw FxError("offsets has to be a 1D Tensor");
  if (weight.dim() != 2) throw FxError("weight has to be a 2D Tensor, but got Tensor of dimension " +
                                       std::to_string(weight.dim()));
  if (mode < 0 || mode > 2) throw FxError("mode has to be one of sum, mean or max");
  if (psw && mode != kSum)
    throw FxError("embedding_bag: per_sample_weights only supported with mode='sum'");
  if (psw && (psw->dim() != 1 || psw->shape()[0] != indices.shape()[0]))
    throw FxError("embedding_bag: per_sample_weights must have the same shape as indices");
  if (psw && psw->dtype() != weight.dtype())
    throw FxError("Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                  "'per_sample_weights'");
  const int64_t V = weight.shape()[0], D = weight.shape()[1], n = indices.shape()[0];
  int64_t B = offsets.shape()[0];
  if (include_last) {
    if (B < 1) throw FxError("include_last_offset: number of offset should be at least 1");
    --B;
  }
  if (!(V == 0 && padding_idx == -1) && (padding_idx >= V || padding_idx < -V))  // (-1: none, also for 0 rows)
    throw FxError("padding_idx must be within the number of embeddings, -" + std::to_string(V) + " through " +
                  std::to_string(V - 1) + ", but got " + std::to_string(padding_idx));
  // torch's CPU fast path for float32/half sums (packed rows, no padding) leaves offset2bag empty.
  const DType wt = weight.dtype();
  const bool fast_sum = mode == kSum && padding_idx < 0 &&
                        (wt == DType::Float32 || wt == DType::Float16 || wt == DType::BFloat16) &&
                        (weight.shape()[1] <= 1 || weight.strides()[1] == 1) &&
                        (!psw || psw->shape()[0] <= 1 || psw->strides()[0] == 1);
  const DType it = indices.dtype() == offsets.dtype() ? indices.dtype() : DType::Int64;  // torch promotes
  Bags r;
  Tensor w = float_contiguous(weight, "embedding_bag");
  r.output = Tensor::empty({B, D}, w.dtype());
  r.offset2bag = Tensor::zeros({fast_sum ? 0 : n}, DType::Int64);
  r.bag_size = Tensor::zeros({B}, DType::Int64);
  r.max_indices = Tensor::zeros(mode == kMax ? Shape{B, D} : Shape{B}, DType::Int64);
  auto finish = [&](Bags& b) {
    b.output = restore_dtype(b.output, weight.dtype());
    b.offset2bag = to_dtype(b.offset2bag, it), b.bag_size = to_dtype(b.bag_size, it);
    b.max_indices = to_dtype(b.max_indices, it);
    return b;
  };
  if (meta_mode()) return finish(r);  // shape inference: no kernel (tensor/meta.h)
  Tensor idx = to_dtype(indices, DType::Int64).contiguous(), off = to_dtype(offsets, DType::Int64).contiguous();
  const int64_t* o = off.data<int64_t>();
  if (offsets.shape()[0] > 0 && o[0] != 0)
    throw FxError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
                  "However, got " + std::to_string(o[0]));
  for (int64_t b = 0; b + 1 < offsets.shape()[0]; ++b)
    if (o[b] > o[b + 1])
      throw FxError("offsets[" + std::to_string(b) + "] is greater than offsets[" + std::to_string(b + 1) + "]");
  if (offsets.shape()[0] > 0 && o[offsets.shape()[0] - 1] > n)
    throw FxError("offsets[-1] can not be greater than input's length " + std::to_string(n) +
                  " but got offsets[-1] of " + std::to_string(o[offsets.shape()[0] - 1]));
  // Bag b covers [o[b], o[b+1]); the last ends at n (or at the extra offset with include_last_offset).
  std::vector<int64_t> begin(B), end(B);
  for (int64_t b = 0; b < B; ++b) {
    begin[b] = o[b];
    end[b] = b + 1 < offsets.shape()[0] ? o[b + 1] : n;
  }
  if (!fast_sum) {  // offset2bag: the bag of each index, bags extending to the next offset (the last to n)
    int64_t* ob = r.offset2bag.data<int64_t>();
    for (int64_t b = 0; b < B; ++b)
      for (int64_t i = begin[b]; i < (b + 1 < B ? begin[b + 1] : n); ++i) ob[i] = b;
  }
  // bag_size (mean and max): torch counts to the next offset (the last bag to n) less padding, and a mean
  // divides by it, even where include_last_offset ends the last bag before n.
  if (mode != kSum) {
    int64_t* bs = r.bag_size.data<int64_t>();
    for (int64_t b = 0; b < B; ++b) {
      const int64_t stop = b + 1 < B ? begin[b + 1] : n;
      bs[b] = stop - begin[b];
      if (padding_idx >= 0)
        for (int64_t i = begin[b]; i < stop; ++i) bs[b] -= idx.data<int64_t>()[i] == padding_idx;
    }
  }
  Tensor pw = psw ? psw->contiguous() : Tensor();
  int64_t bad = -1;
  dispatch_float(w.dtype(), "embedding_bag", [&](auto tag) {
    using T = decltype(tag);
    bad = embedding_bag_kernel<T>(w.data<T>(), V, D, idx.data<int64_t>(), begin.data(), end.data(), B,
                                  psw ? pw.data<T>() : nullptr, static_cast<int>(mode), padding_idx,
                                  r.output.data<T>(), r.bag_size.data<int64_t>(), r.max_indices.data<int64_t>());
  });
  if (bad >= 0)
    throw FxError("Index " + std::to_string(bad) + " of input takes value " + std::to_string(idx.data<int64_t>()[bad]) +
                  " which is not in the valid range [0, " + std::to_string(V) + ")");
  if (mode == kMean) std::memcpy(r.max_indices.data<int64_t>(), r.bag_size.data<int64_t>(), sizeof(int64_t) * B);
  return finish(r);
}

Object tuple_of(const Bags& b) { return Object::tuple({b.output, b.offset2bag, b.bag_size, b.max_indices}); }

int64_t wrap_padding(const Args& a, size_t i, int64_t V) {
  if (a.is_none(i)) return -1;
  const int64_t p = a.integer(i);
  return p < 0 && p >= -V ? p + V : p;
}

// aten::_embedding_bag / _embedding_bag_forward_only / embedding_bag(.padding_idx); torch.embedding_bag.
Object aten_embedding_bag_op(const OpCall& call) {
  static const Schema schema("_embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, "
                             "sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=-1)");
  Args a = schema.parse(call);
  const Tensor* psw = a.is_none(6) ? nullptr : &a.tensor(6);
  return tuple_of(embedding_bag(a.tensor(0), a.tensor(1), a.tensor(2), a.integer(4), psw, a.boolean(7),
                                a.is_none(8) ? -1 : a.integer(8)));
}

// aten::embedding_bag.padding_idx wraps a negative padding_idx (the plain overload has none).
Object aten_embedding_bag_padding_op(const OpCall& call) {
  static const Schema schema("embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, "
                             "per_sample_weights, include_last_offset, padding_idx)");
  Args a = schema.parse(call);
  const Tensor* psw = a.is_none(6) ? nullptr : &a.tensor(6);
  return tuple_of(embedding_bag(a.tensor(0), a.tensor(1), a.tensor(2), a.integer(4), psw, a.boolean(7),
                                wrap_padding(a, 8, a.tensor(0).dim() == 2 ? a.tensor(0).shape()[0] : 0)));
}

Object f_embedding_bag_op(const OpCall& call) {
  static const Schema schema("embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, "
                             "scale_grad_by_freq=False, mode='mean', sparse=False, per_sample_weights=None, "
                             "include_last_offset=False, padding_idx=None)");
  Args a = schema.parse(call);
  Tensor input = a.tensor(0);
  const Tensor& weight = a.tensor(1);
  Tensor psw = a.is_none(8) ? Tensor() : a.tensor(8);
  if (psw.defined() && psw.shape() != input.shape())
    throw FxError("embedding_bag: If per_sample_weights (torch.Size(" + shape_to_string(psw.shape()) +
                  ")) is not None, then it must have the same shape as the input (torch.Size(" +
                  shape_to_string(input.shape()) + "))");
  if (weight.dim() != 2)
    throw FxError("weight has to be a 2D Tensor, but got Tensor of dimension " + std::to_string(weight.dim()));
  Tensor offsets;
  bool include_last = a.boolean(9);
  if (input.dim() == 2) {
    if (!a.is_none(2))
      throw FxError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                    "length sequences. However, found offsets of type <class 'torch.Tensor'>");
    const int64_t rows = input.shape()[0], len = input.shape()[1];
    offsets = Tensor::empty({rows}, input.dtype());
    if (!meta_mode()) {
      Tensor o64 = Tensor::empty({rows}, DType::Int64);
      for (int64_t r = 0; r < rows; ++r) o64.data<int64_t>()[r] = r * len;
      offsets = to_dtype(o64, input.dtype());
    }
    include_last = false;
    input = view_as_shape(input.contiguous(), {input.numel()});
    if (psw.defined()) psw = view_as_shape(psw.contiguous(), {psw.numel()});
  } else if (input.dim() == 1) {
    if (a.is_none(2)) throw FxError("offsets has to be a 1D Tensor but got None");
    offsets = a.tensor(2);
    if (offsets.dim() != 1) throw FxError("offsets has to be a 1D Tensor");
  } else {
    throw FxError("input has to be 1D or 2D Tensor, but got Tensor of dimension " + std::to_string(input.dim()));
  }
  const std::string mode = a.str(6);
  if (mode != "sum" && mode != "mean" && mode != "max") throw FxError("mode has to be one of sum, mean or max");
  const int64_t m = mode == "sum" ? kSum : mode == "mean" ? kMean : kMax;
  if (m == kMax && a.boolean(5)) throw FxError("max mode does not support scaling the gradient by the frequency");
  if (m == kMax && a.boolean(7)) throw FxError("max mode does not support sparse weights");
  if (!a.is_none(3)) embedding_renorm(weight, input, a.number(3).as_double(), a.number(4).as_double());
  if (psw.defined() && m != kSum)
    throw FxError("embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                  "mode='sum' (got mode='" + mode + "'). Please open a feature request on GitHub.");
  return embedding_bag(weight, input, offsets, m, psw.defined() ? &psw : nullptr, include_last,
                       wrap_padding(a, 10, weight.shape()[0]))
      .output;
}

const OpRow kOps[] = {
    {"torch.nn.functional.embedding_bag", "", "", f_embedding_bag_op},
    {"torch._embedding_bag", "aten._embedding_bag.default aten._embedding_bag_forward_only.default torch._embedding_bag_forward_only", "", aten_embedding_bag_op},
    {"torch.embedding_bag", "aten.embedding_bag.padding_idx", "", aten_embedding_bag_padding_op},
    {"aten.embedding_bag.default", "", "", aten_embedding_bag_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
