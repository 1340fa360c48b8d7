// f32 max pooling of one [H, W] plane without indices, SIMD128 where built with it: the same values as
// max_pool_plane<float> (kernels/pool.h), its reference — the first of equal values wins (so -0 and +0
// come out as the scalar loop gives them) and NaN wins. Interior outputs (every tap inside the plane) run
// four at a time; the border ones, and builds without SIMD128, run the scalar rule.
#pragma once
#include "kernels/pool.h"

namespace fx::kernels {

void f32_max_pool_plane(const PoolGeom& g, const float* x, float* out);

}  // namespace fx::kernels
