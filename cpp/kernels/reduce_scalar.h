// Scalar reference reductions over a packed input viewed as [outer, reduce, inner]: the reduced dims
// are one contiguous block, so any reduction the op layer can make contiguous fits this one kernel.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>

namespace fx::kernels {

// y[o, i] = sum_r x[o, r, i], accumulated in Acc (double for floats, int64 for integers, as torch
// accumulates integer sums in int64; pass uint64_t for integers so overflow wraps as torch's does).
// xtensor's immediate reducer walks the rows in memory order, one accumulator per output, adding r in
// order from Acc(0): the sums the hand-written loop gave, bit for bit.
template <typename T, typename Acc, typename Out>
void sum_scalar(const T* x, Out* y, int64_t outer, int64_t reduce, int64_t inner) {
  const auto o = static_cast<size_t>(outer), r = static_cast<size_t>(reduce), n = static_cast<size_t>(inner);
  auto ys = xt::adapt(y, o * n, xt::no_ownership(), std::array<size_t, 2>{o, n});
  if (o * r * n == 0) {  // nothing to read: empty sums are 0
    ys.fill(Out(0));
    return;
  }
  const auto xs = xt::adapt(x, o * r * n, xt::no_ownership(), std::array<size_t, 3>{o, r, n});
  ys = xt::cast<Out>(xt::sum<Acc>(xs, {1}, xt::evaluation_strategy::immediate));
}

}  // namespace fx::kernels
