#include "ops/math/elementwise.h"

#include "support/error.h"
#include "tensor/meta.h"

namespace fx {

Operand Operand::of(const Object& o, const std::string& op, const std::string& arg) {
  Operand r;
  if (o.is_tensor()) {
    r.tensor = o.tensor();
    FX_CHECK(r.tensor.defined(), op + "(): argument '" + arg + "' is an undefined tensor");
  } else if (is_number(o)) {
    r.is_scalar = true;
    r.number = to_number(o);
  } else {
    throw FxError(op + "(): argument '" + arg + "' must be Tensor or Number, not " + o.describe());
  }
  return r;
}

DType result_type(const std::vector<Operand>& operands) {
  ResultType rt;
  for (const Operand& o : operands) {
    if (o.is_scalar) rt.add_scalar(o.number.kind);
    else rt.add_tensor(o.tensor);
  }
  return rt.result();
}

namespace {

// A float32 operand the fast path takes: a number, or a packed float32 tensor of `shape` or of one element.
bool fast_operand(const Operand& o, const Shape& shape, bool& single) {
  if (o.is_scalar) return single = true;
  const Tensor& t = o.tensor;
  if (t.dtype() != DType::Float32 || t.is_meta()) return false;
  if (t.numel() == 1 && static_cast<size_t>(t.dim()) <= shape.size()) return single = true;
  single = false;
  return t.shape() == shape && t.is_contiguous();
}

const float* fast_data(const Operand& o, Tensor& keep) {
  if (!o.is_scalar) return o.tensor.data<float>();
  keep = scalar_tensor(o.number, DType::Float32);
  return keep.data<float>();
}

// A packed float32 tensor whose shape, leading 1s aside, is the trailing part of `shape`: it repeats over
// shape's leading dims (a bias, a position embedding, a mask), `inner` elements at a time.
bool repeats_over(const Operand& o, const Shape& shape, int64_t& inner) {
  if (o.is_scalar) return false;
  const Tensor& t = o.tensor;
  if (t.dtype() != DType::Float32 || t.is_meta() || t.dim() > static_cast<int64_t>(shape.size()) || !t.is_contiguous())
    return false;
  size_t lead = 0;
  while (lead < t.shape().size() && t.shape()[lead] == 1) ++lead;
  const size_t k = t.shape().size() - lead;
  for (size_t i = 0; i < k; ++i)
    if (t.shape()[lead + i] != shape[shape.size() - k + i]) return false;
  inner = t.numel();
  return k > 0 && inner >= 16;  // shorter rows: the strided engine's one pass is cheaper than many calls
}

}  // namespace

bool binary_f32_fast(const Operand& a, const Operand& b, DType compute, kernels::BinaryF32 op, Tensor& out) {
  if (compute != DType::Float32 || meta_mode() || (a.is_scalar && b.is_scalar)) return false;
  // The candidate result shape: the operand that is not a single value (else the one of more dims).
  bool pick_a = !a.is_scalar;
  if (!a.is_scalar && !b.is_scalar) {
    const bool a1 = a.tensor.numel() == 1, b1 = b.tensor.numel() == 1;
    pick_a = a1 != b1 ? b1 : a.tensor.dim() >= b.tensor.dim();
  }
  const Shape& shape = pick_a ? a.tensor.shape() : b.tensor.shape();
  bool a_single = false, b_single = false;
  const bool a_ok = fast_operand(a, shape, a_single), b_ok = fast_operand(b, shape, b_single);
  // One operand repeats over the other's leading dims: the kernel runs once per repetition.
  int64_t inner = 0;
  const bool a_repeats = !a_ok && b_ok && !b_single && repeats_over(a, shape, inner);
  const bool b_repeats = !b_ok && a_ok && !a_single && repeats_over(b, shape, inner);
  if (!(a_ok && b_ok) && !a_repeats && !b_repeats) return false;
  Tensor ka, kb;
  const float* pa = fast_data(a, ka);
  const float* pb = fast_data(b, kb);
  out = Tensor::empty(shape, DType::Float32);
  float* y = out.data<float>();
  if (!a_repeats && !b_repeats) {
    kernels::binary_f32(op, out.numel(), pa, a_single, pb, b_single, y);
    return true;
  }
  for (int64_t at = 0, n = out.numel(); at < n; at += inner)
    kernels::binary_f32(op, inner, a_repeats ? pa : pa + at, false, b_repeats ? pb : pb + at, false, y + at);
  return true;
}

bool unary_f32_fast(const Tensor& x, kernels::UnaryF32 op, Tensor& out) {
  if (x.dtype() != DType::Float32 || meta_mode() || x.is_meta() || !x.is_contiguous()) return false;
  out = Tensor::empty(x.shape(), DType::Float32);
  kernels::unary_f32(op, x.numel(), x.data<float>(), out.data<float>());
  return true;
}

}  // namespace fx
