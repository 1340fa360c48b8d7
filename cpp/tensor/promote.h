// torch's type promotion (c10/core/ScalarType.h promoteTypes and ATen's ResultTypeState).
// Operands take part in three tiers: tensors with dims, zero-dim tensors, then Python scalars
// ("wrapped numbers"); a lower tier only changes the result when it is of a higher category
// (bool < integral < floating), e.g. int32 tensor + 2.5 → float32, float16 tensor + 2.5 → float16,
// int8 tensor + int64 zero-dim tensor → int8.
#pragma once
#include <vector>

#include "tensor/tensor.h"

namespace fx {

enum class ScalarKind { Bool, Int, Float };

// The smallest dtype both a and b convert to without losing their category (torch.promote_types).
DType promote_types(DType a, DType b);

// Accumulates operands, as torch.result_type does over several.
class ResultType {
 public:
  void add_tensor(const Tensor& t) { add_tensor(t.dtype(), t.dim()); }
  void add_tensor(DType dtype, int64_t dim);
  void add_scalar(ScalarKind kind);
  // FxError when nothing was added.
  DType result() const;

 private:
  bool has_dim_ = false, has_zero_ = false, has_wrapped_ = false;
  DType dim_ = DType::Bool, zero_ = DType::Bool, wrapped_ = DType::Bool;
};

DType result_type(const Tensor& a, const Tensor& b);
DType result_type(const Tensor& a, ScalarKind b);
// The dtype torch gives a Python scalar of this kind on its own (bool, int64, default float32).
DType scalar_kind_dtype(ScalarKind k);
// torch's default floating dtype (torch.get_default_dtype()).
constexpr DType kDefaultFloat = DType::Float32;

}  // namespace fx
