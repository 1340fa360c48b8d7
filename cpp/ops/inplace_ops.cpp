// In-place variants of functional ops (x.add_(y), torch.relu_(x), aten.mul_.Tensor, operator.iadd ...):
// run the functional op, then write the result into the input's storage (so every view of it sees the
// change) and return the input, with torch's checks (the result dtype must cast to the input's, and the
// broadcast shape must be the input's). operator.iadd & co. on Python numbers are plain arithmetic.
#include "ops/number.h"
#include "ops/registry.h"
#include "ops/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

template <const char* kFunctional>
Object inplace(const OpCall& call) {
  static const OpDef* def = OpRegistry::global().find_function(kFunctional);
  if (!def) throw FxError(std::string("in-place op needs ") + kFunctional + ", which is not registered");
  if (!call.args.empty() && !call.args[0].is_tensor()) return def->run(call);  // operator.iadd(2, 3) == 5
  return run_inplace(def->run, call);
}

#define FX_INPLACE(id, functional, ...)                                                     \
  constexpr char k_##id[] = functional;                                                     \
  const OpRegistrar reg_##id{OpDef{__VA_ARGS__, inplace<k_##id>}};

// name: torch.Tensor.X_; aliases: aten overloads, torch.X_ where torch has it; method X_; operator.iX.
FX_INPLACE(add, "torch.add", "torch.Tensor.add_", {"aten.add_.Tensor", "aten.add_.Scalar", "operator.iadd"}, {"add_", "__iadd__"})
FX_INPLACE(sub, "torch.sub", "torch.Tensor.sub_", {"aten.sub_.Tensor", "aten.sub_.Scalar", "operator.isub",
                                                   "torch.Tensor.subtract_"}, {"sub_", "subtract_", "__isub__"})
FX_INPLACE(mul, "torch.mul", "torch.Tensor.mul_", {"aten.mul_.Tensor", "aten.mul_.Scalar", "operator.imul",
                                                   "torch.Tensor.multiply_"}, {"mul_", "multiply_", "__imul__"})
FX_INPLACE(div, "torch.div", "torch.Tensor.div_", {"aten.div_.Tensor", "aten.div_.Scalar", "aten.div_.Tensor_mode",
                                                   "operator.itruediv", "torch.Tensor.divide_", "torch.Tensor.true_divide_"},
           {"div_", "divide_", "true_divide_", "__itruediv__"})
FX_INPLACE(floordiv, "torch.floor_divide", "torch.Tensor.floor_divide_", {"aten.floor_divide_.Tensor", "operator.ifloordiv"},
           {"floor_divide_", "__ifloordiv__"})
FX_INPLACE(remainder, "torch.remainder", "torch.Tensor.remainder_", {"aten.remainder_.Tensor", "aten.remainder_.Scalar",
                                                                     "operator.imod"}, {"remainder_", "__imod__"})
FX_INPLACE(pow, "torch.pow", "torch.Tensor.pow_", {"aten.pow_.Tensor", "aten.pow_.Scalar", "operator.ipow"}, {"pow_", "__ipow__"})
FX_INPLACE(iand, "torch.bitwise_and", "torch.Tensor.bitwise_and_", {"aten.bitwise_and_.Tensor", "operator.iand"},
           {"bitwise_and_", "__iand__"})
FX_INPLACE(ior, "torch.bitwise_or", "torch.Tensor.bitwise_or_", {"aten.bitwise_or_.Tensor", "operator.ior"},
           {"bitwise_or_", "__ior__"})
FX_INPLACE(ixor, "torch.bitwise_xor", "torch.Tensor.bitwise_xor_", {"aten.bitwise_xor_.Tensor", "operator.ixor"},
           {"bitwise_xor_", "__ixor__"})
FX_INPLACE(relu, "torch.relu", "torch.relu_", {"torch.Tensor.relu_", "aten.relu_.default", "torch.nn.functional.relu_"}, {"relu_"})
FX_INPLACE(sigmoid, "torch.sigmoid", "torch.sigmoid_", {"torch.Tensor.sigmoid_", "aten.sigmoid_.default"}, {"sigmoid_"})
FX_INPLACE(tanh, "torch.tanh", "torch.tanh_", {"torch.Tensor.tanh_", "aten.tanh_.default"}, {"tanh_"})
FX_INPLACE(exp, "torch.exp", "torch.exp_", {"torch.Tensor.exp_", "aten.exp_.default"}, {"exp_"})
FX_INPLACE(log, "torch.log", "torch.log_", {"torch.Tensor.log_", "aten.log_.default"}, {"log_"})
FX_INPLACE(sqrt, "torch.sqrt", "torch.sqrt_", {"torch.Tensor.sqrt_", "aten.sqrt_.default"}, {"sqrt_"})
FX_INPLACE(rsqrt, "torch.rsqrt", "torch.rsqrt_", {"torch.Tensor.rsqrt_", "aten.rsqrt_.default"}, {"rsqrt_"})
FX_INPLACE(abs, "torch.abs", "torch.abs_", {"torch.Tensor.abs_", "aten.abs_.default"}, {"abs_"})
FX_INPLACE(neg, "torch.neg", "torch.neg_", {"torch.Tensor.neg_", "aten.neg_.default"}, {"neg_"})
FX_INPLACE(floor, "torch.floor", "torch.floor_", {"torch.Tensor.floor_", "aten.floor_.default"}, {"floor_"})
FX_INPLACE(ceil, "torch.ceil", "torch.ceil_", {"torch.Tensor.ceil_", "aten.ceil_.default"}, {"ceil_"})
FX_INPLACE(round, "torch.round", "torch.round_", {"torch.Tensor.round_", "aten.round_.default"}, {"round_"})
FX_INPLACE(trunc, "torch.trunc", "torch.trunc_", {"torch.Tensor.trunc_", "aten.trunc_.default"}, {"trunc_"})
FX_INPLACE(reciprocal, "torch.reciprocal", "torch.reciprocal_", {"torch.Tensor.reciprocal_"}, {"reciprocal_"})
FX_INPLACE(erf, "torch.erf", "torch.erf_", {"torch.Tensor.erf_", "aten.erf_.default"}, {"erf_"})
FX_INPLACE(square, "torch.square", "torch.square_", {"torch.Tensor.square_"}, {"square_"})
FX_INPLACE(sign, "torch.sign", "torch.Tensor.sign_", {"aten.sign_.default"}, {"sign_"})
FX_INPLACE(lerp, "torch.lerp", "torch.Tensor.lerp_", {"aten.lerp_.Scalar", "aten.lerp_.Tensor"}, {"lerp_"})
FX_INPLACE(fmod, "torch.fmod", "torch.Tensor.fmod_", {"aten.fmod_.Tensor", "aten.fmod_.Scalar"}, {"fmod_"})
FX_INPLACE(logical_not, "torch.logical_not", "torch.Tensor.logical_not_", {"aten.logical_not_.default"},
           {"logical_not_"})
FX_INPLACE(silu, "torch.nn.functional.silu", "torch.Tensor.silu_", {}, {})
FX_INPLACE(gelu, "torch.nn.functional.gelu", "aten.gelu_.default", {}, {})
#undef FX_INPLACE

}  // namespace
}  // namespace fx
