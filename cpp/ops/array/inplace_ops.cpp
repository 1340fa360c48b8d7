// In-place variants of functional ops (x.add_(y), torch.relu_(x), aten.mul_.Tensor, operator.iadd ...):
// run the functional op, then write the result into the input's storage (so every view of it sees the
// change) and return the input, with torch's checks (the result dtype must cast to the input's, and the
// broadcast shape must be the input's). operator.iadd & co. on Python numbers are plain arithmetic.
#include "ops/number.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/array/view_util.h"
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

// The functional op each in-place op runs.
constexpr char k_add[] = "torch.add";
constexpr char k_sub[] = "torch.sub";
constexpr char k_mul[] = "torch.mul";
constexpr char k_div[] = "torch.div";
constexpr char k_floordiv[] = "torch.floor_divide";
constexpr char k_remainder[] = "torch.remainder";
constexpr char k_pow[] = "torch.pow";
constexpr char k_iand[] = "torch.bitwise_and";
constexpr char k_ior[] = "torch.bitwise_or";
constexpr char k_ixor[] = "torch.bitwise_xor";
constexpr char k_relu[] = "torch.relu";
constexpr char k_sigmoid[] = "torch.sigmoid";
constexpr char k_tanh[] = "torch.tanh";
constexpr char k_exp[] = "torch.exp";
constexpr char k_log[] = "torch.log";
constexpr char k_sqrt[] = "torch.sqrt";
constexpr char k_rsqrt[] = "torch.rsqrt";
constexpr char k_abs[] = "torch.abs";
constexpr char k_neg[] = "torch.neg";
constexpr char k_floor[] = "torch.floor";
constexpr char k_ceil[] = "torch.ceil";
constexpr char k_round[] = "torch.round";
constexpr char k_trunc[] = "torch.trunc";
constexpr char k_reciprocal[] = "torch.reciprocal";
constexpr char k_erf[] = "torch.erf";
constexpr char k_square[] = "torch.square";
constexpr char k_sign[] = "torch.sign";
constexpr char k_lerp[] = "torch.lerp";
constexpr char k_fmod[] = "torch.fmod";
constexpr char k_logical_not[] = "torch.logical_not";
constexpr char k_silu[] = "torch.nn.functional.silu";
constexpr char k_gelu[] = "torch.nn.functional.gelu";

// name: torch.Tensor.X_; aliases: aten overloads, torch.X_ where torch has it; method X_; operator.iX.
const OpRow kRows[] = {
    {"torch.Tensor.add_", "aten.add_.Tensor aten.add_.Scalar operator.iadd", "add_ __iadd__", inplace<k_add>},
    {"torch.Tensor.sub_", "aten.sub_.Tensor aten.sub_.Scalar operator.isub torch.Tensor.subtract_", "sub_ subtract_ __isub__", inplace<k_sub>},
    {"torch.Tensor.mul_", "aten.mul_.Tensor aten.mul_.Scalar operator.imul torch.Tensor.multiply_", "mul_ multiply_ __imul__", inplace<k_mul>},
    {"torch.Tensor.div_", "aten.div_.Tensor aten.div_.Scalar aten.div_.Tensor_mode operator.itruediv torch.Tensor.divide_ torch.Tensor.true_divide_", "div_ divide_ true_divide_ __itruediv__", inplace<k_div>},
    {"torch.Tensor.floor_divide_", "aten.floor_divide_.Tensor operator.ifloordiv", "floor_divide_ __ifloordiv__", inplace<k_floordiv>},
    {"torch.Tensor.remainder_", "aten.remainder_.Tensor aten.remainder_.Scalar operator.imod", "remainder_ __imod__", inplace<k_remainder>},
    {"torch.Tensor.pow_", "aten.pow_.Tensor aten.pow_.Scalar operator.ipow", "pow_ __ipow__", inplace<k_pow>},
    {"torch.Tensor.bitwise_and_", "aten.bitwise_and_.Tensor operator.iand", "bitwise_and_ __iand__", inplace<k_iand>},
    {"torch.Tensor.bitwise_or_", "aten.bitwise_or_.Tensor operator.ior", "bitwise_or_ __ior__", inplace<k_ior>},
    {"torch.Tensor.bitwise_xor_", "aten.bitwise_xor_.Tensor operator.ixor", "bitwise_xor_ __ixor__", inplace<k_ixor>},
    {"torch.relu_", "torch.Tensor.relu_ aten.relu_.default torch.nn.functional.relu_", "relu_", inplace<k_relu>},
    {"torch.sigmoid_", "torch.Tensor.sigmoid_ aten.sigmoid_.default", "sigmoid_", inplace<k_sigmoid>},
    {"torch.tanh_", "torch.Tensor.tanh_ aten.tanh_.default", "tanh_", inplace<k_tanh>},
    {"torch.exp_", "torch.Tensor.exp_ aten.exp_.default", "exp_", inplace<k_exp>},
    {"torch.log_", "torch.Tensor.log_ aten.log_.default", "log_", inplace<k_log>},
    {"torch.sqrt_", "torch.Tensor.sqrt_ aten.sqrt_.default", "sqrt_", inplace<k_sqrt>},
    {"torch.rsqrt_", "torch.Tensor.rsqrt_ aten.rsqrt_.default", "rsqrt_", inplace<k_rsqrt>},
    {"torch.abs_", "torch.Tensor.abs_ aten.abs_.default", "abs_", inplace<k_abs>},
    {"torch.neg_", "torch.Tensor.neg_ aten.neg_.default", "neg_", inplace<k_neg>},
    {"torch.floor_", "torch.Tensor.floor_ aten.floor_.default", "floor_", inplace<k_floor>},
    {"torch.ceil_", "torch.Tensor.ceil_ aten.ceil_.default", "ceil_", inplace<k_ceil>},
    {"torch.round_", "torch.Tensor.round_ aten.round_.default", "round_", inplace<k_round>},
    {"torch.trunc_", "torch.Tensor.trunc_ aten.trunc_.default", "trunc_", inplace<k_trunc>},
    {"torch.reciprocal_", "torch.Tensor.reciprocal_", "reciprocal_", inplace<k_reciprocal>},
    {"torch.erf_", "torch.Tensor.erf_ aten.erf_.default", "erf_", inplace<k_erf>},
    {"torch.square_", "torch.Tensor.square_", "square_", inplace<k_square>},
    {"torch.Tensor.sign_", "aten.sign_.default", "sign_", inplace<k_sign>},
    {"torch.Tensor.lerp_", "aten.lerp_.Scalar aten.lerp_.Tensor", "lerp_", inplace<k_lerp>},
    {"torch.Tensor.fmod_", "aten.fmod_.Tensor aten.fmod_.Scalar", "fmod_", inplace<k_fmod>},
    {"torch.Tensor.logical_not_", "aten.logical_not_.default", "logical_not_", inplace<k_logical_not>},
    {"torch.Tensor.silu_", "", "", inplace<k_silu>},
    {"aten.gelu_.default", "", "", inplace<k_gelu>},
};
const OpTable reg{kRows};

}  // namespace
}  // namespace fx
