// Shared by the loss ops (losses_*.cpp): the reduction argument as torch spells it (F.*: 'none' | 'mean' |
// 'sum', with the legacy size_average/reduce flags; aten.*: the int 0 | 1 | 2), and the engine of the
// pointwise losses: inputs broadcast together, a scalar function per element evaluated in double, then
// reduced (mean of nothing is NaN, as torch's) and rounded once to the result dtype.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ops/schema.h"
#include "tensor/meta.h"
#include "tensor/tensor.h"

namespace fx {

enum class Reduction { None, Mean, Sum };

// Args `reduction` (string or int); `size_average`/`reduce` when the op has them (torch's
// _Reduction.legacy_get_string: either given → mean/sum/none from the pair, None counting as True).
Reduction reduction_arg(const Args& a, size_t reduction, std::optional<size_t> size_average = std::nullopt,
                        std::optional<size_t> reduce = std::nullopt);

// The loss tensor reduced (torch.mean / torch.sum), or itself for Reduction::None.
Tensor reduce_loss(const Tensor& loss, Reduction r);

// reduce_loss of a float64 loss (summed in double), the result cast to `dtype`.
Tensor reduce_loss_as(const Tensor& loss64, Reduction r, DType dtype);

// Packs `inputs` broadcast to one shape as float64 (for the loop below); `shape` receives that shape.
std::vector<Tensor> broadcast_f64(const std::vector<Tensor>& inputs, Shape* shape);

// The floating dtype a loss of these inputs has (torch's promotion; "<op>" not implemented for integers).
DType loss_dtype(const std::vector<Tensor>& inputs, const char* op);

// out[i] = f(v) where v[k] is inputs[k] at element i (broadcast), in double; then reduced and cast to
// `dtype`. Skips the loop on meta tensors (shape inference).
template <typename F>
Tensor pointwise_loss(const std::vector<Tensor>& inputs, DType dtype, Reduction r, F f) {
  Shape shape;
  std::vector<Tensor> in = broadcast_f64(inputs, &shape);
  Tensor out = Tensor::empty(shape, DType::Float64);
  if (!out.is_meta()) {
    std::vector<const double*> p;
    for (const Tensor& t : in) p.push_back(t.data<double>());
    std::vector<double> v(in.size());
    double* o = out.data<double>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      for (size_t k = 0; k < p.size(); ++k) v[k] = p[k][i];
      o[i] = f(v.data());
    }
  }
  return reduce_loss_as(out, r, dtype);
}

}  // namespace fx
