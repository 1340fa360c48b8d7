// softmax / log_softmax along one dim (F., torch., Tensor., aten._softmax / aten.softmax.int forms),
// with the optional dtype the input is cast to first.
#include "kernels/norm.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor softmax_tensor(const Tensor& input, int64_t dim, std::optional<DType> dtype, bool log) {
  Tensor in = dtype ? to_dtype(input, *dtype) : input;
  const int64_t d = wrap_dim(dim, in.dim());
  // torch's kernel names, which its dtype errors quote.
  const std::string kernel = std::string(log ? "log_softmax" : "softmax") +
                             (d == in.dim() - 1 || in.dim() == 0 ? "_lastdim_kernel_impl" : "_kernel_impl");
  const char* name = kernel.c_str();
  Tensor x = float_contiguous(in, name);
  int64_t outer = 1, n = 1, inner = 1;
  for (int64_t i = 0; i < x.dim(); ++i) (i < d ? outer : i == d ? n : inner) *= x.shape()[i];
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  dispatch_float(x.dtype(), name, [&](auto tag) {
    using T = decltype(tag);
    kernels::softmax_axis<T>(x.data<T>(), out.data<T>(), outer, n, inner, log);
  });
  return restore_dtype(out, in.dtype());
}

// F.softmax's legacy rule when dim is None.
int64_t implicit_dim(const Tensor& x) { return (x.dim() == 0 || x.dim() == 1 || x.dim() == 3) ? 0 : 1; }

template <bool kLog>
Object f_softmax_op(const OpCall& call) {
  static const Schema schema(std::string(kLog ? "log_softmax" : "softmax") +
                             "(input|self, dim=None, _stacklevel=3, dtype=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  return softmax_tensor(x, a.is_none(1) ? implicit_dim(x) : a.integer(1), a.dtype(3), kLog);
}

template <bool kLog>
Object softmax_op(const OpCall& call) {
  static const Schema schema(std::string(kLog ? "log_softmax" : "softmax") + "(input|self, dim, dtype=None)");
  Args a = schema.parse(call);
  return softmax_tensor(a.tensor(0), a.integer(1), a.dtype(2), kLog);
}

template <bool kLog>
Object aten_softmax_op(const OpCall& call) {
  static const Schema schema(std::string(kLog ? "_log_softmax" : "_softmax") + "(self, dim, half_to_float)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::optional<DType> dt;
  if (a.boolean(2)) dt = DType::Float32;
  return softmax_tensor(x, a.integer(1), dt, kLog);
}

// F.softmin: softmax of the negated input.
Object f_softmin_op(const OpCall& call) {
  static const Schema schema("softmin(input, dim=None, _stacklevel=3, dtype=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  Tensor neg = OpRegistry::global().call("torch.neg", {a[0]}).tensor();
  return softmax_tensor(neg, a.is_none(1) ? implicit_dim(x) : a.integer(1), a.dtype(3), false);
}

const OpRow kOps[] = {
    {"torch.nn.functional.softmin", "", "", f_softmin_op},
    {"torch.nn.functional.softmax", "", "", f_softmax_op<false>},
    {"torch.nn.functional.log_softmax", "", "", f_softmax_op<true>},
    {"torch.softmax", "torch.Tensor.softmax aten.softmax.int torch.special.softmax", "softmax", softmax_op<false>},
    {"torch.log_softmax", "torch.Tensor.log_softmax aten.log_softmax.int torch.special.log_softmax", "log_softmax", softmax_op<true>},
    {"aten._softmax.default", "", "", aten_softmax_op<false>},
    {"aten._log_softmax.default", "", "", aten_softmax_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
