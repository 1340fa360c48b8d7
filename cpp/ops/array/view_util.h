// Helpers shared by the shape and view op files: dim wrapping with torch's messages, views over the same
// storage, torch's rule for when a reshape can be a view, size arguments given as varargs or a sequence,
// and the copy that in-place ops and copy_ write through (possibly strided) destinations with.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ops/registry.h"
#include "tensor/tensor.h"

namespace fx {

// A dim in [-ndim, ndim) (a 0-dim tensor accepts -1 and 0) → [0, ndim); torch's IndexError text otherwise.
int64_t checked_dim(int64_t dim, int64_t ndim);
// A view of `base`'s storage (checked to lie inside it).
Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset);
// Strides that let `t` be viewed as `shape` without a copy (ATen's computeStride), or nullopt.
std::optional<Shape> view_strides(const Tensor& t, const Shape& shape);
// Resolves one -1 in `shape` against `numel` with torch's messages.
Shape infer_size(const Shape& shape, int64_t numel);
// reshape: a view when view_strides allows, else a packed copy.
Tensor reshape(const Tensor& t, const Shape& shape);

// An int, or a sequence of ints (tuple, list, torch.Size); `what` names it in messages.
bool is_int_object(const Object& o);
int64_t int_of(const Object& o, const std::string& what);
std::vector<int64_t> ints_of(const Object& o, const std::string& what);
// Sizes passed as varargs after args[first] (x.view(2, 3)), as one sequence (x.view((2, 3))) or by
// keyword `kw` (x.view(size=(2, 3))).
std::vector<int64_t> vararg_ints(const OpCall& call, size_t first, const std::string& kw, const std::string& op);

// torch's names for dtypes in messages ("Float", "Long", "Bool", ...) and its can_cast rule.
const char* torch_type_name(DType t);
bool can_cast(DType from, DType to);
// dst[...] = src, src broadcast to dst's shape and converted to dst's dtype (Tensor.copy_).
void copy_into(const Tensor& dst, const Tensor& src);
// The end of every in-place op: checks `result` fits `self` as torch does, writes it into self's
// storage (visible through every view of it) and returns self.
Object write_inplace(const Tensor& self, const Tensor& result);
// Runs `fn` as the functional op on call, then writes the result into args[0] (x.add_(y) = x.copy_(x + y)).
Object run_inplace(OpFn fn, const OpCall& call);

}  // namespace fx
