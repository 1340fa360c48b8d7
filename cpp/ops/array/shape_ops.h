// Shape and view operations other op files build on (getitem, getattr(x, "T"), in-place writes).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "program/object.h"
#include "tensor/tensor.h"

namespace fx {

Tensor tensor_T(const Tensor& x);   // x.T: all dims reversed (a view)
Tensor tensor_mT(const Tensor& x);  // x.mT: last two dims swapped (a view)
// x.select(dim, index) and x[start:stop:step] along dim, as views; Python's clamping for the slice.
Tensor select_view(const Tensor& x, int64_t dim, int64_t index);
Tensor slice_view(const Tensor& x, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
                  int64_t step);
// x[index] as torch/numpy define it: ints, slices, None, Ellipsis, bools, index tensors, lists.
Tensor tensor_getitem(const Tensor& x, const Object& index);
// x[index] = value (operator.setitem), writing through x's storage.
// accumulate: adds the value at the indexed places (index_put's accumulate=True; repeated indices add up).
void tensor_setitem(const Tensor& x, const Object& index, const Object& value, bool accumulate = false);

// torch.cat(ts, dim): a new contiguous tensor, with torch's checks, messages and type promotion.
Tensor cat_tensors(const std::vector<Tensor>& ts, int64_t dim);
// The `tensors` argument of cat/stack (a tuple or list of tensors); `op` names it in messages.
std::vector<Tensor> tensor_list(const Object& o, const std::string& op);

}  // namespace fx
