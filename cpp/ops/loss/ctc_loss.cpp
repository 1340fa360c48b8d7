// F.ctc_loss / torch.ctc_loss: the connectionist temporal classification loss, -log p(target | input), by
// the forward (alpha) recursion over the target with blanks interleaved, in log space — torch's CPU
// algorithm, in the log-probabilities' float type. reduction 'mean' divides each loss by its target length
// (at least 1) before the batch mean; zero_infinity turns impossible alignments (inf) into 0.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ops/dispatch.h"
#include "ops/array/view_util.h"
#include "ops/loss/loss_util.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

std::vector<int64_t> lengths_of(const Object& o, const char* what) {
  std::vector<int64_t> v;
  if (o.is_tensor()) {
    Tensor t = to_dtype(o.tensor(), DType::Int64).contiguous();
    v.assign(t.data<int64_t>(), t.data<int64_t>() + t.numel());
  } else if (o.is_sequence()) {
    for (const Object& i : o.items()) v.push_back(int_of(i, what));
  } else {
    throw FxError(std::string("ctc_loss: ") + what + " must be a tensor or a list of ints");
  }
  return v;
}

template <typename T>
T log_add3(T a, T b, T c) {
  const T inf = std::numeric_limits<T>::infinity();
  T m = std::max(a, std::max(b, c));
  if (m == -inf) m = 0;
  return std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m)) + m;
}

Tensor ctc_loss_tensor(const Tensor& log_probs0, const Tensor& targets0, const std::vector<int64_t>& in_len,
                       const std::vector<int64_t>& tg_len, int64_t blank, Reduction reduction, bool zero_inf) {
  const bool batched = log_probs0.dim() == 3;
  if (log_probs0.dim() != 2 && log_probs0.dim() != 3) throw FxError("ctc_loss: log_probs must be 2-d or 3-d");
  const int64_t T_ = log_probs0.shape()[0], N = batched ? log_probs0.shape()[1] : 1, C = log_probs0.shape().back();
  if (static_cast<int64_t>(in_len.size()) != N || static_cast<int64_t>(tg_len.size()) != N)
    throw FxError("ctc_loss: input_lengths and target_lengths must have one value per batch element");
  if (blank < 0 || blank >= C) throw FxError("blank must be in label range");
  Tensor lp = float_contiguous(log_probs0, "ctc_loss");
  Tensor tg = to_dtype(targets0, DType::Int64).contiguous();
  // batched targets are [N, S] padded, or all targets concatenated in one dim
  const bool padded = !(batched && tg.dim() == 1);
  const int64_t stride_t = padded && tg.dim() == 2 ? tg.shape()[1] : 0;
  Tensor losses = Tensor::empty({N}, lp.dtype());
  dispatch_float(lp.dtype(), "ctc_loss", [&](auto tag) {
    using T = decltype(tag);
    const T inf = std::numeric_limits<T>::infinity();
    const T* p = lp.data<T>();
    const int64_t* t = tg.data<int64_t>();
    int64_t offset = 0;
    for (int64_t b = 0; b < N; ++b) {
      const int64_t il = in_len[b], tl = tg_len[b];
      if (il < 0 || il > T_) throw FxError("ctc_loss: input length out of range");
      if (tl < 0) throw FxError("ctc_loss: target length must be non-negative");
      const int64_t* tb = t + (padded ? b * stride_t : offset);
      if (!padded) offset += tl;
      auto prime = [&](int64_t s) { return s % 2 == 0 ? blank : tb[s / 2]; };
      auto at = [&](int64_t time, int64_t c) { return p[(time * N + b) * C + c]; };
      const int64_t S = 2 * tl + 1;
      std::vector<T> prev(static_cast<size_t>(S), -inf), cur(static_cast<size_t>(S), -inf);
      if (il > 0) {
        prev[0] = at(0, blank);
        if (tl > 0) prev[1] = at(0, prime(1));
      }
      for (int64_t time = 1; time < il; ++time) {
        for (int64_t s = 0; s < S; ++s) {
          const int64_t c = prime(s);
          const T a1 = prev[s];
          const T a2 = s > 0 ? prev[s - 1] : -inf;
          const T a3 = s > 1 && prime(s - 2) != c ? prev[s - 2] : -inf;
          cur[s] = log_add3(a1, a2, a3) + at(time, c);
        }
        std::swap(prev, cur);
      }
      T loss;
      if (il == 0) loss = tl == 0 ? T(0) : inf;
      else if (tl == 0) loss = -prev[0];
      else loss = -log_add3(prev[2 * tl], prev[2 * tl - 1], -inf);
      if (zero_inf && loss == inf) loss = 0;
      losses.data<T>()[b] = loss;
    }
  });
  if (reduction == Reduction::Mean) {
    Tensor div = Tensor::empty({N}, losses.dtype());
    dispatch_float(lp.dtype(), "ctc_loss", [&](auto tag) {
      using T = decltype(tag);
      for (int64_t b = 0; b < N; ++b)
        div.data<T>()[b] = losses.data<T>()[b] / static_cast<T>(std::max<int64_t>(tg_len[b], 1));
    });
    return reduce_loss(div, Reduction::Mean);
  }
  if (reduction == Reduction::Sum) return reduce_loss(losses, Reduction::Sum);
  return batched ? losses : reshape(losses, {});
}

Object f_ctc_loss_op(const OpCall& call) {
  static const Schema schema("ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', "
                             "zero_infinity=False)");
  Args a = schema.parse(call);
  return ctc_loss_tensor(a.tensor(0), a.tensor(1), lengths_of(a[2], "input_lengths"),
                         lengths_of(a[3], "target_lengths"), a.integer(4), reduction_arg(a, 5), a.boolean(6));
}

const OpRow kOps[] = {
    {"torch.nn.functional.ctc_loss", "", "", f_ctc_loss_op},
    {"torch.ctc_loss", "aten.ctc_loss.IntList aten.ctc_loss.Tensor", "", f_ctc_loss_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
