// Broadcasting as torch does it: shapes are right-aligned; a dim of 1 (or a missing dim) stretches.
#pragma once
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace fx {

// The broadcast shape of a and b; FxError with torch's wording when a non-1 dim differs.
Shape broadcast_shapes(const Shape& a, const Shape& b);
Shape broadcast_shapes(const std::vector<Shape>& shapes);
// Strides that read `t` as if it had shape `out` (0 on stretched dims): a view, no copy.
Shape broadcast_strides(const Tensor& t, const Shape& out);
// torch.Tensor.expand(out) with no -1 entries: a view sharing t's storage.
Tensor expand_to(const Tensor& t, const Shape& out);

}  // namespace fx
