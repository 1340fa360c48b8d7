// Tensor helpers shared by the op files: casts, Python numbers as tensors, and the views ops build on.
#pragma once
#include <string>

#include "ops/number.h"
#include "tensor/tensor.h"

namespace fx {

// tensor.to(dtype): `t` itself when the dtype already matches, else a packed converted copy.
Tensor to_dtype(const Tensor& t, DType dtype);
// A zero-dim tensor holding `n` converted to `dtype`.
Tensor scalar_tensor(Number n, DType dtype);
// The single value of a one-element tensor as a Python number of the matching kind (tensor.item()).
Number tensor_item(const Tensor& t);

}  // namespace fx
