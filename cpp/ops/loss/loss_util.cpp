#include "ops/loss/loss_util.h"

#include <cmath>
#include <limits>

#include "ops/call_op.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/promote.h"

namespace fx {

Reduction reduction_arg(const Args& a, size_t reduction, std::optional<size_t> size_average,
                        std::optional<size_t> reduce) {
  if ((size_average && !a.is_none(*size_average)) || (reduce && !a.is_none(*reduce))) {
    const bool avg = !size_average || a.is_none(*size_average) || a.boolean(*size_average);
    const bool red = !reduce || a.is_none(*reduce) || a.boolean(*reduce);
    return avg && red ? Reduction::Mean : red ? Reduction::Sum : Reduction::None;
  }
  const Object& v = a[reduction];
  if (v.is_value() && v.value().kind() == ValueKind::Int) {
    const int64_t r = v.value().as_int();
    if (r < 0 || r > 2) throw FxError("reduction: invalid enum value " + std::to_string(r));
    return r == 0 ? Reduction::None : r == 1 ? Reduction::Mean : Reduction::Sum;
  }
  const std::string s = a.str(reduction);
  if (s == "none") return Reduction::None;
  if (s == "mean") return Reduction::Mean;
  if (s == "sum") return Reduction::Sum;
  throw FxError(s + " is not a valid value for reduction");
}

Tensor reduce_loss(const Tensor& loss, Reduction r) {
  if (r == Reduction::None) return loss;
  return call_op(r == Reduction::Mean ? "torch.mean" : "torch.sum", {loss}).tensor();
}

Tensor reduce_loss_as(const Tensor& loss64, Reduction r, DType dtype) {
  if (r == Reduction::None) return to_dtype(loss64, dtype);
  Tensor out = Tensor::empty({}, DType::Float64);
  if (!out.is_meta()) {
    double s = 0;
    const Tensor c = loss64.contiguous();
    for (int64_t i = 0; i < c.numel(); ++i) s += c.data<double>()[i];
    if (r == Reduction::Mean)
      s = c.numel() ? s / static_cast<double>(c.numel()) : std::numeric_limits<double>::quiet_NaN();
    *out.data<double>() = s;
  }
  return to_dtype(out, dtype);
}

std::vector<Tensor> broadcast_f64(const std::vector<Tensor>& inputs, Shape* shape) {
  std::vector<Shape> shapes;
  for (const Tensor& t : inputs) shapes.push_back(t.shape());
  *shape = broadcast_shapes(shapes);
  std::vector<Tensor> out;
  for (const Tensor& t : inputs) out.push_back(expand_to(to_dtype(t, DType::Float64), *shape).contiguous());
  return out;
}

DType loss_dtype(const std::vector<Tensor>& inputs, const char* op) {
  DType t = inputs.at(0).dtype();
  for (size_t i = 1; i < inputs.size(); ++i) t = promote_types(t, inputs[i].dtype());
  if (!dtype_is_floating(t))
    throw FxError(std::string("\"") + op + "\" not implemented for '" + torch_type_name(t) + "'");
  return t;
}

}  // namespace fx
