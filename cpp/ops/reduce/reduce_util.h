// Reductions over some dims, made uniform: the tensor is permuted so the reduced dims come last and
// packed, giving rows [outer, reduce] every reduction op walks. Wrapping and duplicate checks as torch.
#pragma once
#include <optional>
#include <vector>

#include "tensor/tensor.h"

namespace fx {

struct ReducePlan {
  Tensor x;               // packed, [outer, reduce] in memory
  int64_t outer = 1, reduce = 1;
  Shape out_shape;        // with keepdim applied
  std::vector<bool> mask; // reduced dims of the input
};

// dims: None or [] reduces everything.
ReducePlan plan_reduce(const Tensor& x, const std::optional<std::vector<int64_t>>& dims, bool keepdim);

}  // namespace fx
