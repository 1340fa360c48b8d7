// F.bilinear: y[..., o] = x1[..., i] · W[o, i, j] · x2[..., j] + b[o], accumulated in double.
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Object bilinear_op(const OpCall& call) {
  static const Schema schema("bilinear(input1, input2, weight, bias=None)");
  Args a = schema.parse(call);
  const Tensor &x1 = a.tensor(0), &x2 = a.tensor(1), &w = a.tensor(2);
  if (w.dim() != 3 || x1.dim() < 1 || x2.dim() != x1.dim() || x1.shape().back() != w.shape()[1] ||
      x2.shape().back() != w.shape()[2])
    throw FxError("bilinear: input1 " + shape_to_string(x1.shape()) + ", input2 " + shape_to_string(x2.shape()) +
                  " and weight " + shape_to_string(w.shape()) + " do not fit");
  Tensor p = float_contiguous(x1, "bilinear"), q = to_dtype(x2, p.dtype()).contiguous(),
         ww = to_dtype(w, p.dtype()).contiguous();
  Tensor bias = a.is_none(3) ? Tensor() : to_dtype(a.tensor(3), p.dtype()).contiguous();
  const int64_t I = w.shape()[1], J = w.shape()[2], O = w.shape()[0], N = p.numel() / std::max<int64_t>(1, I);
  Shape shape(x1.shape().begin(), x1.shape().end() - 1);
  shape.push_back(O);
  Tensor out = Tensor::empty(shape, p.dtype());
  dispatch_float(p.dtype(), "bilinear", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < O; ++o) {
        double acc = bias.defined() ? bias.data<T>()[o] : 0.0;
        for (int64_t i = 0; i < I; ++i) {
          double row = 0;
          for (int64_t j = 0; j < J; ++j) row += double(ww.data<T>()[(o * I + i) * J + j]) * q.data<T>()[n * J + j];
          acc += row * p.data<T>()[n * I + i];
        }
        out.data<T>()[n * O + o] = static_cast<T>(acc);
      }
  });
  return restore_dtype(out, x1.dtype());
}

const OpRegistrar reg_bilinear{OpDef{"torch.bilinear", {"torch.nn.functional.bilinear", "aten.bilinear.default"}, {},
                                     bilinear_op}};

}  // namespace
}  // namespace fx
