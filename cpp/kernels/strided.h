// N-d iteration over operands that share one shape but have their own element strides (0 on broadcast
// dims). Kernels walk the outer dims with a counter and hand the innermost dim to a 1-d loop.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fx::kernels {

// Shape plus per-operand strides, with adjacent dims merged where every operand allows it (so a
// contiguous or simply-broadcast case becomes one or two long dims) and size-1 dims dropped.
template <size_t N>
struct StridedLayout {
  std::vector<int64_t> shape;
  std::array<std::vector<int64_t>, N> strides;

  StridedLayout(int ndim, const int64_t* sh, const std::array<const int64_t*, N>& st) {
    for (int d = 0; d < ndim; ++d) {
      if (sh[d] == 1) continue;
      if (!shape.empty()) {
        bool merge = true;
        for (size_t k = 0; k < N; ++k)
          if (strides[k].back() != st[k][d] * sh[d]) merge = false;
        if (merge) {
          shape.back() *= sh[d];
          for (size_t k = 0; k < N; ++k) strides[k].back() = st[k][d];
          continue;
        }
      }
      shape.push_back(sh[d]);
      for (size_t k = 0; k < N; ++k) strides[k].push_back(st[k][d]);
    }
    if (shape.empty()) {  // a scalar or all-ones shape: one element
      shape.push_back(1);
      for (size_t k = 0; k < N; ++k) strides[k].push_back(0);
    }
  }
};

// Calls inner(offsets, n, inner_strides) for each innermost row; offsets are element offsets per operand.
template <size_t N, typename Inner>
void for_each_row(const StridedLayout<N>& L, Inner&& inner) {
  const size_t nd = L.shape.size();
  for (int64_t d : L.shape)
    if (d == 0) return;
  std::array<int64_t, N> off{}, in_stride{};
  for (size_t k = 0; k < N; ++k) in_stride[k] = L.strides[k][nd - 1];
  std::vector<int64_t> idx(nd, 0);
  for (;;) {
    inner(off, L.shape[nd - 1], in_stride);
    size_t d = nd - 1;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++idx[d] < L.shape[d]) {
        for (size_t k = 0; k < N; ++k) off[k] += L.strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) off[k] -= (L.shape[d] - 1) * L.strides[k][d];
      idx[d] = 0;
    }
  }
}

}  // namespace fx::kernels
