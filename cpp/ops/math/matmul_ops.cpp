// The matrix-product ops under every name FX records: matmul (operator.matmul, @), mm, bmm, addmm,
// baddbmm, linear, dot/vdot, mv, addmv, addr, addbmm. Shapes are checked here with torch's messages; the
// work is matmul.h's.
#include "ops/math/linear_quantized.h"
#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

std::string dims(const Tensor& t) {
  std::string s;
  for (size_t i = 0; i < t.shape().size(); ++i) s += (i ? "x" : "") + std::to_string(t.shape()[i]);
  return s;
}

Object matmul_op(const OpCall& call) {
  static const Schema schema("matmul(input|self, other)");
  Args a = schema.parse(call);
  return matmul_tensor(a.tensor(0), a.tensor(1));
}

Object mm_op(const OpCall& call) {
  static const Schema schema("mm(input|self, mat2)");
  Args a = schema.parse(call);
  const Tensor &x = a.tensor(0), &y = a.tensor(1);
  if (x.dim() != 2) throw FxError("mm: self must be a matrix, got " + std::to_string(x.dim()) + "-D tensor");
  if (y.dim() != 2) throw FxError("mm: mat2 must be a matrix, got " + std::to_string(y.dim()) + "-D tensor");
  if (x.shape()[1] != y.shape()[0])
    throw FxError("mm: mat1 and mat2 shapes cannot be multiplied (" + dims(x) + " and " + dims(y) + ")");
  // x @ t(w) with w stored int8/int4: its GEMM (ops/math/linear_quantized.h).
  if (const Tensor w = quantized_weight_of_transpose(y); w.defined() && x.dtype() == DType::Float32)
    return PackedLinear::pack(w, nullptr).run(x, w);
  return matmul_tensor(x, y);
}

Object bmm_op(const OpCall& call) {
  static const Schema schema("bmm(input|self, mat2)");
  Args a = schema.parse(call);
  const Tensor &x = a.tensor(0), &y = a.tensor(1);
  if (x.dim() != 3) throw FxError("batch1 must be a 3D tensor");
  if (y.dim() != 3) throw FxError("batch2 must be a 3D tensor");
  if (x.shape()[0] != y.shape()[0] || x.shape()[2] != y.shape()[1])
    throw FxError("Expected size for first two dimensions of batch2 tensor to be: [" + std::to_string(x.shape()[0]) +
                  ", " + std::to_string(x.shape()[2]) + "] but got: [" + std::to_string(y.shape()[0]) + ", " +
                  std::to_string(y.shape()[1]) + "].");
  return matmul_tensor(x, y, "bmm");
}

// beta·input + alpha·product, with beta = 0 ignoring input (NaN in it does not propagate), as torch does.
Tensor scale_add(const Tensor& product, const Tensor& input, Number beta, Number alpha) {
  const OpRegistry& r = OpRegistry::global();
  // integer products take beta and alpha as integers (torch's alpha.to<int64_t>(): 0.6 → 0)
  if (dtype_is_integral(product.dtype())) {
    if (beta.is_float()) beta = Number::integer(static_cast<int64_t>(beta.d));
    if (alpha.is_float()) alpha = Number::integer(static_cast<int64_t>(alpha.d));
  }
  Object p = product;
  if (alpha.as_double() != 1.0) p = r.call("torch.mul", {p, alpha.to_object()});
  if (beta.as_double() == 0.0) return p.tensor();
  if (!input.defined()) return p.tensor();
  Shape shape = broadcast_shapes(input.shape(), product.shape());
  if (shape != product.shape())
    throw FxError("The expanded size of the tensor must match the existing size: input " +
                  shape_to_string(input.shape()) + " does not broadcast to " + shape_to_string(product.shape()));
  Object in = input;
  if (beta.as_double() != 1.0) in = r.call("torch.mul", {in, beta.to_object()});
  return r.call("torch.add", {in, p}).tensor();
}

Object addmm_op(const OpCall& call) {
  static const Schema schema("addmm(input|self, mat1, mat2, *, beta=1, alpha=1)");
  Args a = schema.parse(call);
  const Tensor &in = a.tensor(0), &x = a.tensor(1), &w = a.tensor(2);
  if (x.dim() != 2) throw FxError("mat1 must be a matrix, got " + std::to_string(x.dim()) + "-D tensor");
  if (w.dim() != 2) throw FxError("mat2 must be a matrix, got " + std::to_string(w.dim()) + "-D tensor");
  if (x.shape()[1] != w.shape()[0])
    throw FxError("mat1 and mat2 shapes cannot be multiplied (" + dims(x) + " and " + dims(w) + ")");
  const Number beta = a.number(3), alpha = a.number(4);
  // The Linear pattern with w stored int8/int4: its GEMM (ops/math/linear_quantized.h), the bias in the epilogue.
  if (const Tensor q = quantized_weight_of_transpose(w);
      q.defined() && beta.as_double() == 1.0 && alpha.as_double() == 1.0 && x.dtype() == DType::Float32 &&
      in.dtype() == DType::Float32 && in.dim() == 1 && in.shape()[0] == w.shape()[1])
    return PackedLinear::pack(q, &in).run(x, q);
  // The Linear pattern (addmm(bias, x, w.t())): the bias rides in the GEMM's epilogue.
  if (beta.as_double() == 1.0 && alpha.as_double() == 1.0 && in.dim() == 1 && in.shape()[0] == w.shape()[1] &&
      in.dtype() == x.dtype() && x.dtype() == w.dtype() && dtype_is_floating(x.dtype())) {
    const DType kdt = compute_dtype(x.dtype());
    Tensor xx = to_dtype(x, kdt), ww = to_dtype(w, kdt), bias = to_dtype(in, kdt).contiguous();
    const int64_t M = x.shape()[0], K = x.shape()[1], N = w.shape()[1];
    Tensor out = Tensor::empty({M, N}, kdt);
    dispatch_float(kdt, "addmm", [&](auto tag) {
      using T = decltype(tag);
      gemm_views<T>(M, N, K, xx.data<T>(), xx.strides()[0], xx.strides()[1], ww.data<T>(), ww.strides()[0],
                    ww.strides()[1], out.data<T>(), N, bias.data<T>());
    });
    return restore_dtype(out, x.dtype());
  }
  return scale_add(matmul_tensor(x, w), in, beta, alpha);
}

Object baddbmm_op(const OpCall& call) {
  static const Schema schema("baddbmm(input|self, batch1, batch2, *, beta=1, alpha=1)");
  Args a = schema.parse(call);
  OpCall inner;
  inner.args = {a[1], a[2]};
  Tensor product = bmm_op(inner).tensor();
  return scale_add(product, a.tensor(0), a.number(3), a.number(4));
}

Object linear_op(const OpCall& call) {
  static const Schema schema("linear(input, weight, bias=None)");
  Args a = schema.parse(call);
  const Tensor* bias = a.is_none(2) ? nullptr : &a.tensor(2);
  return linear_tensor(a.tensor(0), a.tensor(1), bias);
}

Object dot_op(const OpCall& call) {
  static const Schema schema("dot(input|self, other|tensor)");
  Args a = schema.parse(call);
  const Tensor &x = a.tensor(0), &y = a.tensor(1);
  if (x.dim() != 1 || y.dim() != 1)
    throw FxError("1D tensors expected, but got " + std::to_string(x.dim()) + "D and " + std::to_string(y.dim()) +
                  "D tensors");
  return matmul_tensor(x, y);
}

// vdot: dot with the first vector conjugated (complex ones)
Object vdot_op(const OpCall& call) {
  OpCall conjugated = call;
  if (!conjugated.args.empty()) conjugated.args[0] = OpRegistry::global().call("torch.conj", {conjugated.args[0]});
  return dot_op(conjugated);
}

Object mv_op(const OpCall& call) {
  static const Schema schema("mv(input|self, vec)");
  Args a = schema.parse(call);
  const Tensor &x = a.tensor(0), &v = a.tensor(1);
  if (x.dim() != 2 || v.dim() != 1)
    throw FxError("vector + matrix @ vector expected, got 1, " + std::to_string(x.dim()) + ", " +
                  std::to_string(v.dim()));
  if (x.shape()[1] != v.shape()[0])
    throw FxError("size mismatch, got input (" + std::to_string(x.shape()[0]) + "), mat (" + dims(x) + "), vec (" +
                  std::to_string(v.shape()[0]) + ")");
  return matmul_tensor(x, v);
}

// addmv / addr / addbmm: beta·input + alpha·(mat @ vec | outer(vec1, vec2) | Σ_b batch1[b] @ batch2[b])
Object addmv_op(const OpCall& call) {
  static const Schema schema("addmv(input|self, mat, vec, *, beta=1, alpha=1)");
  Args a = schema.parse(call);
  OpCall inner;
  inner.args = {a[1], a[2]};
  return scale_add(mv_op(inner).tensor(), a.tensor(0), a.number(3), a.number(4));
}

Object addr_op(const OpCall& call) {
  static const Schema schema("addr(input|self, vec1, vec2, *, beta=1, alpha=1)");
  Args a = schema.parse(call);
  if (a.tensor(1).dim() != 1 || a.tensor(2).dim() != 1)
    throw FxError("addr: Expected 1-D argument vec1 and vec2, but got " + std::to_string(a.tensor(1).dim()) + "-D and " +
                  std::to_string(a.tensor(2).dim()) + "-D");
  if (a.tensor(0).dtype() == DType::Bool) throw FxError("addr: bool inputs are not supported");
  Tensor product = OpRegistry::global().call("torch.outer", {a[1], a[2]}).tensor();
  return scale_add(product, a.tensor(0), a.number(3), a.number(4));
}

Object addbmm_op(const OpCall& call) {
  static const Schema schema("addbmm(input|self, batch1, batch2, *, beta=1, alpha=1)");
  Args a = schema.parse(call);
  OpCall inner;
  inner.args = {a[1], a[2]};
  Tensor product = OpRegistry::global().call("torch.sum", {bmm_op(inner), Object(Value::integer(0))}).tensor();
  return scale_add(product, a.tensor(0), a.number(3), a.number(4));
}

const OpRow kOps[] = {
    {"torch.matmul", "torch.Tensor.matmul aten.matmul.default operator.matmul torch.Tensor.__matmul__", "matmul __matmul__", matmul_op},
    {"torch.mm", "torch.Tensor.mm aten.mm.default", "mm", mm_op},
    {"torch.bmm", "torch.Tensor.bmm aten.bmm.default", "bmm", bmm_op},
    {"torch.addmm", "torch.Tensor.addmm aten.addmm.default", "addmm", addmm_op},
    {"torch.baddbmm", "torch.Tensor.baddbmm aten.baddbmm.default", "baddbmm", baddbmm_op},
    {"torch.dot", "torch.Tensor.dot aten.dot.default", "dot", dot_op},
    {"torch.vdot", "torch.Tensor.vdot aten.vdot.default", "vdot", vdot_op},
    {"torch.addmv", "torch.Tensor.addmv aten.addmv.default", "addmv", addmv_op},
    {"torch.addr", "torch.Tensor.addr aten.addr.default", "addr", addr_op},
    {"torch.addbmm", "torch.Tensor.addbmm aten.addbmm.default", "addbmm", addbmm_op},
    {"torch.mv", "torch.Tensor.mv aten.mv.default", "mv", mv_op},
    {"torch.nn.functional.linear", "torch._C._nn.linear aten.linear.default", "", linear_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
