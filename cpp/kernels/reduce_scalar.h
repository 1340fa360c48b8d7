// Scalar reference reductions over a packed input viewed as [outer, reduce, inner]: the reduced dims
// are one contiguous block, so any reduction the op layer can make contiguous fits this one kernel.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace fx::kernels {

// y[o, i] = sum_r x[o, r, i], accumulated in Acc (double for floats, int64 for integers, as torch
// accumulates integer sums in int64; pass uint64_t for integers so overflow wraps as torch's does).
template <typename T, typename Acc, typename Out>
void sum_scalar(const T* x, Out* y, int64_t outer, int64_t reduce, int64_t inner) {
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const T* row = x + o * reduce;
      Acc acc = Acc(0);
      for (int64_t r = 0; r < reduce; ++r) acc += static_cast<Acc>(row[r]);
      y[o] = static_cast<Out>(acc);
    }
    return;
  }
  // Walk rows in memory order and keep one accumulator per inner position (cache friendly).
  std::vector<Acc> acc(static_cast<size_t>(inner));
  for (int64_t o = 0; o < outer; ++o) {
    std::fill(acc.begin(), acc.end(), Acc(0));
    const T* block = x + o * reduce * inner;
    for (int64_t r = 0; r < reduce; ++r) {
      const T* row = block + r * inner;
      for (int64_t i = 0; i < inner; ++i) acc[i] += static_cast<Acc>(row[i]);
    }
    for (int64_t i = 0; i < inner; ++i) y[o * inner + i] = static_cast<Out>(acc[i]);
  }
}

}  // namespace fx::kernels
