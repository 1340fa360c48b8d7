// The memory layout torch gives an element-wise result (TensorIterator's reorder_dimensions): the result
// is laid out in the order of its operands' strides, so an op on a transposed view — a query tensor
// [B, H, L, E] that is a view of [B, L, H, E] — gives a result laid out [B, L, H, E] too, and the graphs
// torch records (e.g. `sdpa(q …).transpose(1, 2).view(B, L, -1)`) rely on it. Contiguous operands give
// the plain row-major layout.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "tensor/tensor.h"

namespace fx {

// The dim order, outermost first, in which to lay out a result of `shape` computed from operands with
// these strides (each broadcast to `shape`: 0 on stretched dims), ranked as torch ranks them (the first
// operand whose strides tell two dims apart decides); empty when it is the row-major order 0, 1, ….
std::vector<int64_t> elementwise_order(const Shape& shape, std::initializer_list<const Shape*> strides);

// `v` indexed by `order`: v[order[0]], v[order[1]], ….
Shape permuted(const Shape& v, const std::vector<int64_t>& order);

// The view of `t` (contiguous in `order`, i.e. of shape permuted(shape, order)) with its dims put back:
// the inverse permutation as a strided view.
Tensor unpermuted_view(const Tensor& t, const std::vector<int64_t>& order);

}  // namespace fx
