// A float32 tensor of uniform values in [-1, 1), for the op sweeps (conv_sweep_test, linear_sweep_test).
#pragma once
#include <random>

#include "tensor/tensor.h"

namespace fx {

inline Tensor random_tensor(const Shape& shape, std::mt19937& rng) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(rng);
  return t;
}

}  // namespace fx
