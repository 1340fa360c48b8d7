// Ops whose output size is the number of true (non-zero) values: nonzero (and as_tuple), argwhere,
// nonzero_static (padded or cut to a given size) and masked_select. The interpreter runs them eagerly;
// shape inference leaves them unknown (data_dependent), as torch's meta device does.
#include <algorithm>
#include <vector>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

// The flat positions of x's non-zero values, in row-major order.
std::vector<int64_t> nonzero_positions(const Tensor& x) {
  if (x.is_meta()) throw_data_dependent();
  Tensor b = to_dtype(x, DType::Bool).contiguous();
  std::vector<int64_t> at;
  const bool* p = b.data<bool>();
  for (int64_t i = 0; i < b.numel(); ++i)
    if (p[i]) at.push_back(i);
  return at;
}

// [rows, ndim] int64 of the positions' coordinates; rows past the positions hold `fill`.
Tensor coordinates(const Shape& shape, const std::vector<int64_t>& at, int64_t rows, int64_t fill) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  Tensor out = Tensor::empty({rows, nd}, DType::Int64);
  int64_t* o = out.data<int64_t>();
  for (int64_t r = 0; r < rows; ++r) {
    int64_t flat = r < static_cast<int64_t>(at.size()) ? at[static_cast<size_t>(r)] : -1;
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (flat < 0) {
        o[r * nd + d] = fill;
        continue;
      }
      o[r * nd + d] = flat % shape[static_cast<size_t>(d)];
      flat /= shape[static_cast<size_t>(d)];
    }
  }
  return out;
}

Object nonzero_op(const OpCall& call) {
  static const Schema schema("nonzero(input|self, *, as_tuple=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const std::vector<int64_t> at = nonzero_positions(x);
  Tensor rows = coordinates(x.shape(), at, static_cast<int64_t>(at.size()), 0);
  if (!a.boolean(1)) return rows;
  // as_tuple: one 1-d tensor per dim (a 0-d input counts as 1-d)
  const int64_t n = static_cast<int64_t>(at.size()), nd = std::max<int64_t>(x.dim(), 1);
  std::vector<Object> cols;
  for (int64_t d = 0; d < nd; ++d) {
    Tensor c = Tensor::empty({n}, DType::Int64);
    for (int64_t r = 0; r < n; ++r) c.data<int64_t>()[r] = x.dim() == 0 ? 0 : rows.data<int64_t>()[r * x.dim() + d];
    cols.emplace_back(c);
  }
  return Object::tuple(std::move(cols));
}

Object argwhere_op(const OpCall& call) {
  static const Schema schema("argwhere(input|self)");
  Args a = schema.parse(call);
  const std::vector<int64_t> at = nonzero_positions(a.tensor(0));
  return coordinates(a.tensor(0).shape(), at, static_cast<int64_t>(at.size()), 0);
}

Object nonzero_static_op(const OpCall& call) {
  static const Schema schema("nonzero_static(input|self, *, size, fill_value=-1)");
  Args a = schema.parse(call);
  const int64_t size = a.integer(1);
  if (size < 0) throw FxError("nonzero_static: 'size' must be an non-negative integer");
  if (a.tensor(0).is_meta()) return Tensor::empty({size, a.tensor(0).dim()}, DType::Int64);  // (inference)
  const std::vector<int64_t> at = nonzero_positions(a.tensor(0));
  return coordinates(a.tensor(0).shape(), at, size, a.integer(2));
}

// masked_select(x, mask): x's values where the (broadcast) mask is true, as one dim
Object masked_select_op(const OpCall& call) {
  static const Schema schema("masked_select(input|self, mask)");
  Args a = schema.parse(call);
  if (a.tensor(1).dtype() != DType::Bool)
    throw FxError(std::string("masked_select: expected BoolTensor for mask, got ") + dtype_name(a.tensor(1).dtype()));
  std::vector<Object> both = call_op("torch.broadcast_tensors", {a[0], a[1]}).items();
  Tensor x = both[0].tensor().contiguous();
  const std::vector<int64_t> at = nonzero_positions(both[1].tensor());
  Tensor out = Tensor::empty({static_cast<int64_t>(at.size())}, x.dtype());
  const size_t width = dtype_size(x.dtype());
  const uint8_t* src = static_cast<const uint8_t*>(x.raw_data());
  uint8_t* dst = static_cast<uint8_t*>(out.raw_data());
  for (size_t i = 0; i < at.size(); ++i)
    std::copy(src + at[i] * width, src + (at[i] + 1) * width, dst + i * width);
  return out;
}

const OpRow kOps[] = {
    {"torch.nonzero", "torch.Tensor.nonzero aten.nonzero.default", "nonzero", nonzero_op, nullptr, true},
    {"torch.argwhere", "torch.Tensor.argwhere aten.argwhere.default", "argwhere", argwhere_op, nullptr, true},
    {"torch.nonzero_static", "torch.Tensor.nonzero_static aten.nonzero_static.default", "nonzero_static",
     nonzero_static_op},
    {"torch.masked_select", "torch.Tensor.masked_select aten.masked_select.default", "masked_select",
     masked_select_op, nullptr, true},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
