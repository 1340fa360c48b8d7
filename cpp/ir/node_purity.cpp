// Node::is_impure: torch 2.15's Node.is_impure + torch._library.utils.is_impure, restated over canonical target
// names (torch asks the OpOverload for its schema; here the schema facts are spelled out as naming rules and
// short lists, checked against the reference torch for every aten overload by tests/cpp/ir/purity_test.cpp).
//
// One deliberate widening over torch: in-place Python-level calls (call_method "add_", call_function
// "torch.relu_" / "torch.Tensor.add_" / operator.iadd, or any call with inplace=True) count as impure. torch
// treats them as pure, so its dead-code elimination can drop `x.add_(1)` when the result is unused and change
// what the program computes; keeping them is the safe reading, and costs nothing for functional graphs.
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/naming.h"
#include "ir/node.h"

namespace fx {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool is_dunder(const std::string& s) { return s.size() > 4 && starts_with(s, "__") && ends_with(s, "__"); }

// "add_", "relu_" (not "__and__"; but "__iand__" is in-place).
bool is_inplace_name(const std::string& name) {
  if (is_dunder(name)) return starts_with(name, "__i");
  return !name.empty() && name.back() == '_' && name != "_";
}

// torch.fx.node._side_effectful_functions, the torch.ops members (canonical names: packet or overload).
const std::unordered_set<std::string>& side_effectful_ops() {
  static const std::unordered_set<std::string> ops = {
      "aten._assert_async.msg", "aten._assert_scalar.default", "aten._assert_tensor_metadata.default",
      "aten.sym_constrain_range.default", "aten.sym_constrain_range_for_size.default",
      "profiler._record_function_enter", "profiler._record_function_enter.default",
      "profiler._record_function_enter_new", "profiler._record_function_enter_new.default",
      "profiler._record_function_exit", "profiler._record_function_exit._RecordFunction",
      "inductor.accumulate_grad_.default", "inductor.resize_storage_bytes_.default", "prims._sink_tokens.default",
      // registered as effectful (torch._higher_order_ops.effects._get_effect)
      "aten._print.default",
  };
  return ops;
}

// The rest of _side_effectful_functions (by _get_qualified_name, and the alias paths they are reachable by),
// and torch._library.utils._RANDOM_FUNCTIONS.
const std::unordered_set<std::string>& side_effectful_functions() {
  static const std::unordered_set<std::string> fns = {
      "torch._assert", "torch._assert_async", "operator.setitem", "_operator.setitem",
      "torch._C._set_grad_enabled", "torch.amp.autocast_mode._enter_autocast",
      "torch.amp.autocast_mode._exit_autocast", "torch.amp._enter_autocast", "torch.amp._exit_autocast",
      "torch.autograd.grad_mode._enter_inference_mode", "torch.autograd.grad_mode._exit_inference_mode",
      "torch._functorch.predispatch._enter_dual_level", "torch._functorch.predispatch._exit_dual_level",
      "torch._functorch.predispatch._jvp_increment_nesting", "torch._functorch.predispatch._jvp_decrement_nesting",
      "torch.ops.higher_order.call_torchbind", "higher_order.call_torchbind",
      // _RANDOM_FUNCTIONS
      "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.rand_like", "torch.randn_like",
      "torch.randint_like", "torch.normal", "torch.poisson", "torch.bernoulli", "torch.multinomial",
  };
  return fns;
}

// aten packets whose overloads are all _nondeterministic_seeded (they advance the RNG).
const std::unordered_set<std::string>& seeded_aten_ops() {
  static const std::unordered_set<std::string> ops = {
      "_cudnn_rnn", "_efficient_attention_forward", "_flash_attention_forward",
      "_flash_attention_forward_no_dropout_inplace", "_fused_dropout",
      "_scaled_dot_product_attention_math_for_mps", "_scaled_dot_product_cudnn_attention",
      "_scaled_dot_product_cudnn_attention_backward", "_scaled_dot_product_efficient_attention",
      "_scaled_dot_product_efficient_attention_backward", "_scaled_dot_product_flash_attention",
      "_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_fused_attention_overrideable",
      "_standard_gamma", "alpha_dropout", "bernoulli", "bernoulli_", "cauchy", "cauchy_", "dropout",
      "exponential", "exponential_", "geometric", "geometric_", "gru", "log_normal", "log_normal_", "lstm",
      "miopen_rnn", "multinomial", "native_dropout", "normal", "normal_", "normal_functional", "poisson", "rand",
      "rand_like", "randint", "randint_like", "randn", "randn_like", "randperm", "rnn_relu", "rnn_tanh",
      "rrelu_with_noise", "rrelu_with_noise_", "rrelu_with_noise_functional", "uniform", "uniform_",
  };
  return ops;
}

// Overloads with a mutable schema (Tensor(a!) arguments) that the naming rules below do not catch: out=
// variants with unusual overload names, and functional-looking ops that write their running statistics.
const std::unordered_set<std::string>& mutable_aten_exceptions() {
  static const std::unordered_set<std::string> ops = {
      "_batch_norm_with_update.default", "_flash_attention_forward_no_dropout_inplace.default",
      "_fused_moving_avg_obs_fq_helper.default", "_linalg_det.result", "_linalg_eigh.eigenvalues",
      "_linalg_slogdet.sign", "_linalg_solve_ex.result", "_linalg_svd.U", "_native_batch_norm_legit.default",
      "kthvalue.values", "linalg_cholesky_ex.L", "linalg_inv_ex.inverse", "max.dim_max", "median.dim_values",
      "min.dim_min", "mode.values", "nanmedian.dim_values", "rrelu_with_noise.default", "sort.values_stable",
      "sort.values", "sort.int", "sort.float", "sort.Tensor", "sort.bool", "sort.str", "sort.any", "svd.U",
      "topk.values", "triangular_solve.X",
  };
  return ops;
}

// schema.is_mutable for "<op>.<overload>": in-place ops, out= overloads, and the exceptions above.
bool has_mutable_schema(const std::string& op, const std::string& overload) {
  if (overload == "out" || ends_with(overload, "_out") || overload == "grad_input" ||
      starts_with(overload, "out") || starts_with(overload, "Out")) {
    return true;
  }
  if (is_inplace_name(op)) return true;
  return mutable_aten_exceptions().count(op + "." + overload) != 0;
}

bool op_overload_is_impure(const std::string& target) {
  const std::string t = starts_with(target, "torch.ops.") ? target.substr(10) : target;
  if (side_effectful_ops().count(t)) return true;
  // "<namespace>.<op>[.<overload>]"; a packet is judged by its default overload, as torch does.
  const size_t dot1 = t.find('.');
  if (dot1 == std::string::npos) return false;
  const std::string ns = t.substr(0, dot1);
  const size_t dot2 = t.find('.', dot1 + 1);
  const std::string op = t.substr(dot1 + 1, dot2 == std::string::npos ? std::string::npos : dot2 - dot1 - 1);
  const std::string overload = dot2 == std::string::npos ? "default" : t.substr(dot2 + 1);
  if (dot2 == std::string::npos && side_effectful_ops().count(t + ".default")) return true;
  if (has_mutable_schema(op, overload)) return true;
  if (ns == "aten" && seeded_aten_ops().count(op)) return true;
  return false;
}

bool has_inplace_kwarg(const Kwargs& kwargs) {
  for (const auto& kv : kwargs) {
    if (kv.first == "inplace" && kv.second.kind() == ValueKind::Bool && kv.second.as_bool()) return true;
  }
  return false;
}

bool python_function_is_impure(const std::string& target, const Kwargs& kwargs) {
  if (side_effectful_functions().count(target)) return true;
  // The widening described at the top: in-place Python calls.
  const size_t dot = target.rfind('.');
  const std::string last = dot == std::string::npos ? target : target.substr(dot + 1);
  const std::string module = dot == std::string::npos ? "" : target.substr(0, dot);
  if (is_inplace_name(last)) return true;
  if ((module == "operator" || module == "_operator") && last.size() > 1 && last[0] == 'i' &&
      (last == "iadd" || last == "isub" || last == "imul" || last == "itruediv" || last == "ifloordiv" ||
       last == "imod" || last == "ipow" || last == "iand" || last == "ior" || last == "ixor" ||
       last == "ilshift" || last == "irshift" || last == "imatmul" || last == "iconcat")) {
    return true;
  }
  return has_inplace_kwarg(kwargs);
}

}  // namespace

bool Node::is_impure() const {
  switch (op_) {
    case Op::Placeholder:
    case Op::Output:
      return true;
    case Op::CallModule:
      // torch reads the module's `_is_impure` attribute, which no torch.nn module sets.
      return false;
    case Op::CallFunction:
      if (is_op_overload_target(target_)) return op_overload_is_impure(target_);
      return python_function_is_impure(target_, kwargs_);
    case Op::CallMethod:
      return is_inplace_name(target_) || has_inplace_kwarg(kwargs_);
    case Op::GetAttr:
      return false;
  }
  return false;
}

}  // namespace fx
