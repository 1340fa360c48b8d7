#include "tensor/layout.h"

#include <utility>

namespace fx {

std::vector<int64_t> elementwise_order(const Shape& shape, std::initializer_list<const Shape*> strides) {
  const int64_t n = static_cast<int64_t>(shape.size());
  if (n < 2) return {};
  // 1: dim d0 should be inside dim d1 (swap), -1: it should stay outside, 0: no operand tells.
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (const Shape* s : strides) {
      const int64_t s0 = (*s)[d0], s1 = (*s)[d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  std::vector<int64_t> perm(n);  // innermost first, as torch's insertion sort keeps it
  for (int64_t i = 0; i < n; ++i) perm[i] = n - 1 - i;
  for (int64_t i = 1; i < n; ++i) {
    int64_t d1 = i;
    for (int64_t d0 = i - 1; d0 >= 0; --d0) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  std::vector<int64_t> order(perm.rbegin(), perm.rend());
  for (int64_t i = 0; i < n; ++i)
    if (order[i] != i) return order;
  return {};
}

Shape permuted(const Shape& v, const std::vector<int64_t>& order) {
  Shape out(order.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = v[static_cast<size_t>(order[i])];
  return out;
}

Tensor unpermuted_view(const Tensor& t, const std::vector<int64_t>& order) {
  Shape shape(order.size()), strides(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    shape[static_cast<size_t>(order[i])] = t.shape()[i];
    strides[static_cast<size_t>(order[i])] = t.strides()[i];
  }
  return Tensor(t.storage(), t.dtype(), std::move(shape), std::move(strides), t.offset());
}

}  // namespace fx
