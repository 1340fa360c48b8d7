// Activation functions as torch.nn.functional spells them (relu6, leaky_relu, elu, selu, celu, gelu with
// approximate='none'|'tanh', silu, mish, hardswish, hardsigmoid, hardtanh, softplus, softsign,
// tanhshrink, hardshrink, softshrink, logsigmoid, threshold) plus the dropout family, which is the
// identity when not training. inplace=True writes into the input's storage and returns the input.
#include <cmath>
#include <type_traits>

#include "kernels/gelu_f32.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

// f(T) -> T over a floating input (float16/bfloat16 computed in float32). `make(T{})` returns f.
template <typename Make>
Tensor float_act(const Tensor& x, const char* name, Make make) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"") + name + "_cpu\" not implemented for '" + torch_type_name(x.dtype()) + "'");
  return unary_map<false, Compute::Float>(x, x.dtype(), name, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) return make(T{});
    else return [](T v) { return v; };  // unreachable: the compute dtype is floating
  });
}

// Contiguous float32 data (not meta): the vectorised kernels of kernels/gelu_f32.h.
bool f32_kernel_input(const Tensor& x) {
  return x.dtype() == DType::Float32 && !meta_mode() && !x.is_meta() && x.is_contiguous();
}

Object finish(const Tensor& x, const Tensor& r, bool inplace) { return inplace ? write_inplace(x, r) : Object(r); }

double num(const Args& a, size_t i) { return a.number(i).as_double(); }

// hardtanh / relu6 clamp in the input's dtype (integers too, as torch does).
Object hardtanh_impl(const Tensor& x, double lo, double hi, bool inplace) {
  if (x.dtype() == DType::Bool) throw FxError("\"hardtanh_cpu\" not implemented for 'Bool'");
  Tensor r = unary_map<false>(x, x.dtype(), "hardtanh", [lo, hi](auto tag) {
    using T = decltype(tag);
    const T l = static_cast<T>(lo), h = static_cast<T>(hi);
    return [l, h](T v) -> T { return v < l ? l : (v > h ? h : v); };
  });
  return finish(x, r, inplace);
}

Object hardtanh_op(const OpCall& call) {
  static const Schema schema("hardtanh(input|self, min_val=-1.0, max_val=1.0, inplace=False)");
  Args a = schema.parse(call);
  return hardtanh_impl(a.tensor(0), num(a, 1), num(a, 2), a.boolean(3));
}
Object hardtanh_inplace_op(const OpCall& call) {
  static const Schema schema("hardtanh_(input|self, min_val=-1.0, max_val=1.0)");
  Args a = schema.parse(call);
  return hardtanh_impl(a.tensor(0), num(a, 1), num(a, 2), true);
}
Object relu6_op(const OpCall& call) {
  static const Schema schema("relu6(input|self, inplace=False)");
  Args a = schema.parse(call);
  return hardtanh_impl(a.tensor(0), 0.0, 6.0, a.boolean(1));
}

Object leaky_relu_impl(const OpCall& call, bool force_inplace) {
  static const Schema schema("leaky_relu(input|self, negative_slope=0.01, inplace=False)");
  Args a = schema.parse(call);
  const double slope = num(a, 1);
  Tensor r = float_act(a.tensor(0), "leaky_relu", [slope](auto t) {
    using T = decltype(t);
    const T s = static_cast<T>(slope);
    return [s](T v) -> T { return v > T(0) ? v : v * s; };
  });
  return finish(a.tensor(0), r, force_inplace || a.boolean(2));
}
Object leaky_relu_op(const OpCall& call) { return leaky_relu_impl(call, false); }
Object leaky_relu_inplace_op(const OpCall& call) { return leaky_relu_impl(call, true); }

// ATen's elu: x > 0 ? scale * x : alpha * scale * expm1(x * input_scale); selu and celu are instances.
Tensor elu(const Tensor& x, double alpha, double scale, double input_scale, const char* name) {
  return float_act(x, name, [=](auto t) {
    using T = decltype(t);
    const T neg = static_cast<T>(alpha * scale), pos = static_cast<T>(scale), is = static_cast<T>(input_scale);
    return [=](T v) -> T { return v > T(0) ? v * pos : std::expm1(v * is) * neg; };
  });
}

Object elu_op(const OpCall& call) {
  static const Schema schema("elu(input|self, alpha=1.0, inplace=False)");
  Args a = schema.parse(call);
  return finish(a.tensor(0), elu(a.tensor(0), num(a, 1), 1.0, 1.0, "elu"), a.boolean(2));
}
Object aten_elu_op(const OpCall& call) {
  static const Schema schema("elu(input|self, alpha=1, scale=1, input_scale=1)");
  Args a = schema.parse(call);
  return elu(a.tensor(0), num(a, 1), num(a, 2), num(a, 3), "elu");
}
Object elu_inplace_op(const OpCall& call) {
  static const Schema schema("elu_(input|self, alpha=1.0)");
  Args a = schema.parse(call);
  return write_inplace(a.tensor(0), elu(a.tensor(0), num(a, 1), 1.0, 1.0, "elu"));
}

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
Object selu_op(const OpCall& call) {
  static const Schema schema("selu(input|self, inplace=False)");
  Args a = schema.parse(call);
  return finish(a.tensor(0), elu(a.tensor(0), kSeluAlpha, kSeluScale, 1.0, "selu"), a.boolean(1));
}
Object celu_op(const OpCall& call) {
  static const Schema schema("celu(input|self, alpha=1.0, inplace=False)");
  Args a = schema.parse(call);
  const double alpha = num(a, 1);
  if (alpha == 0) throw FxError("ZeroDivisionError: float division by zero");
  return finish(a.tensor(0), elu(a.tensor(0), alpha, 1.0, 1.0 / alpha, "celu"), a.boolean(2));
}

Object gelu_op(const OpCall& call) {
  static const Schema schema("gelu(input|self, approximate='none')");
  Args a = schema.parse(call);
  const std::string approx = a.str(1);
  if (approx != "none" && approx != "tanh") throw FxError("approximate argument must be either none or tanh.");
  const bool tanh_form = approx == "tanh";
  const Tensor& x = a.tensor(0);
  if (f32_kernel_input(x)) {
    Tensor r = Tensor::empty(x.shape(), DType::Float32);
    kernels::gelu_f32(tanh_form ? kernels::GeluF32::Tanh : kernels::GeluF32::Erf, x.numel(), x.data<float>(),
                      r.data<float>());
    return r;
  }
  return float_act(a.tensor(0), "GeluKernelImpl", [tanh_form](auto t) {
    using T = decltype(t);
    return [tanh_form](T v) -> T {
      if (tanh_form) {
        const T k = static_cast<T>(0.7978845608028654), c = static_cast<T>(0.044715);
        return T(0.5) * v * (T(1) + std::tanh(k * (v + c * v * v * v)));
      }
      return v * T(0.5) * (T(1) + std::erf(v * static_cast<T>(0.7071067811865476)));
    };
  });
}

// Parameterless activations with an inplace flag: one maker per op.
template <int kOp>
Object simple_act(const OpCall& call) {
  static const char* names[] = {"silu", "mish", "hardswish", "hardsigmoid", "softsign", "tanhshrink", "logsigmoid"};
  static const Schema schema(std::string(names[kOp]) + "(input|self, inplace=False)");
  Args a = schema.parse(call);
  if (kOp == 0 && f32_kernel_input(a.tensor(0))) {  // silu
    const Tensor& x = a.tensor(0);
    Tensor r = Tensor::empty(x.shape(), DType::Float32);
    kernels::silu_f32(x.numel(), x.data<float>(), r.data<float>());
    return finish(x, r, a.boolean(1));
  }
  Tensor r = float_act(a.tensor(0), names[kOp], [](auto t) {
    using T = decltype(t);
    return [](T v) -> T {
      switch (kOp) {
        case 0: return v / (T(1) + std::exp(-v));
        case 1: return v * std::tanh(std::log1p(std::exp(v)));
        case 2: return v * std::min(std::max(v + T(3), T(0)), T(6)) / T(6);
        case 3: return std::min(std::max(v + T(3), T(0)), T(6)) / T(6);
        case 4: return v / (T(1) + std::fabs(v));
        case 5: return v - std::tanh(v);
        default: return v < T(0) ? v - std::log1p(std::exp(v)) : -std::log1p(std::exp(-v));  // logsigmoid
      }
    };
  });
  return finish(a.tensor(0), r, a.boolean(1));
}
template <int kOp>
Object simple_act_inplace(const OpCall& call) {
  OpCall c = call;
  c.kwargs.emplace_back("inplace", Object(Value::boolean(true)));
  return simple_act<kOp>(c);
}

// x - tanh(x) as torch composes it: tanh rounds to the input dtype before the subtraction.
Object tanhshrink_op(const OpCall& call) {
  static const Schema schema("tanhshrink(input|self)");
  Args a = schema.parse(call);
  const OpRegistry& r = OpRegistry::global();
  return r.call("torch.sub", {a[0], r.call("torch.tanh", {a[0]})});
}

Object softplus_op(const OpCall& call) {
  static const Schema schema("softplus(input|self, beta=1, threshold=20)");
  Args a = schema.parse(call);
  const double beta = num(a, 1), threshold = num(a, 2);
  return float_act(a.tensor(0), "softplus", [=](auto t) {
    using T = decltype(t);
    const T b = static_cast<T>(beta), th = static_cast<T>(threshold);
    return [b, th](T v) -> T { return v * b > th ? v : std::log1p(std::exp(v * b)) / b; };
  });
}

template <bool kHard>
Object shrink_op(const OpCall& call) {
  static const Schema schema(std::string(kHard ? "hardshrink" : "softshrink") + "(input|self, lambd=0.5)");
  Args a = schema.parse(call);
  const double lambd = num(a, 1);
  if (!kHard && lambd < 0)
    throw FxError("lambda must be greater or equal to 0, but found to be " + std::to_string(lambd) + ".");
  return float_act(a.tensor(0), kHard ? "hardshrink" : "softshrink", [lambd](auto t) {
    using T = decltype(t);
    const T l = static_cast<T>(lambd);
    return [l](T v) -> T {
      if (v != v) return v;
      if (kHard) return (v >= -l && v <= l) ? T(0) : v;
      return v > l ? v - l : (v < -l ? v + l : T(0));
    };
  });
}

Object threshold_impl(const OpCall& call, bool force_inplace) {
  static const Schema schema("threshold(input|self, threshold, value, inplace=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dtype() == DType::Bool) throw FxError("\"threshold_cpu\" not implemented for 'Bool'");
  const Number th = a.number(1), val = a.number(2);
  Tensor r = unary_map<false>(x, x.dtype(), "threshold", [th, val](auto tag) {
    using T = decltype(tag);
    const T t = number_as<T>(th), v = number_as<T>(val);
    return [t, v](T x) -> T { return x <= t ? v : x; };
  });
  return finish(x, r, force_inplace || a.boolean(3));
}
Object threshold_op(const OpCall& call) { return threshold_impl(call, false); }
Object threshold_inplace_op(const OpCall& call) { return threshold_impl(call, true); }

// F.dropout(input, p=0.5, training=True, inplace=False) and friends: the identity unless training,
// which needs random numbers fxwasm does not reproduce (an honest error instead of a wrong result).
Object dropout_impl(const Object& input, double p, bool training, const char* name) {
  if (p < 0 || p > 1)
    throw FxError("dropout probability has to be between 0 and 1, but got " + python_float_repr(p));
  if (training && p > 0)
    throw FxError(std::string(name) + " with training=True is random; export the model in eval mode");
  return input;
}
Object dropout_op(const OpCall& call) {
  static const Schema schema("dropout(input, p=0.5, training=True, inplace=False)");
  Args a = schema.parse(call);
  a.tensor(0);
  return dropout_impl(a[0], num(a, 1), a.boolean(2), "dropout");
}
Object torch_dropout_op(const OpCall& call) {  // torch.dropout(input, p, train), aten.dropout.default
  static const Schema schema("dropout(input|self, p, train)");
  Args a = schema.parse(call);
  a.tensor(0);
  return dropout_impl(a[0], num(a, 1), a.boolean(2), "dropout");
}
Object native_dropout_op(const OpCall& call) {  // aten.native_dropout(input, p, train) -> (out, mask)
  static const Schema schema("native_dropout(input|self, p, train)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  bool train = a.is_none(2) ? false : a.boolean(2);
  dropout_impl(a[0], num(a, 1), train, "native_dropout");
  Tensor mask = Tensor::empty(x.shape(), DType::Bool);
  if (mask.numel()) copy_into(mask, scalar_tensor(Number::boolean(true), DType::Bool));
  return Object::tuple({Object(x.clone()), Object(mask)});
}

const OpRow kOps[] = {
    {"torch.nn.functional.hardtanh", "aten.hardtanh.default torch._C._nn.hardtanh", "", hardtanh_op},
    {"torch.nn.functional.hardtanh_", "aten.hardtanh_.default torch._C._nn.hardtanh_", "", hardtanh_inplace_op},
    {"torch.nn.functional.relu6", "aten.relu6.default torch._C._nn.relu6", "", relu6_op},
    {"torch.nn.functional.leaky_relu", "aten.leaky_relu.default torch._C._nn.leaky_relu", "", leaky_relu_op},
    {"torch.nn.functional.leaky_relu_", "aten.leaky_relu_.default torch._C._nn.leaky_relu_", "", leaky_relu_inplace_op},
    {"torch.nn.functional.elu", "torch._C._nn.elu", "", elu_op},
    {"aten.elu.default", "", "", aten_elu_op},
    {"torch.nn.functional.elu_", "aten.elu_.default torch._C._nn.elu_", "", elu_inplace_op},
    {"torch.nn.functional.selu", "torch.selu aten.selu.default", "", selu_op},
    {"torch.nn.functional.celu", "torch.celu aten.celu.default", "", celu_op},
    {"torch.nn.functional.gelu", "aten.gelu.default torch._C._nn.gelu", "", gelu_op},
    {"torch.nn.functional.silu", "aten.silu.default torch._C._nn.silu", "", simple_act<0>},
    {"aten.silu_.default", "torch._C._nn.silu_", "", simple_act_inplace<0>},
    {"torch.nn.functional.mish", "aten.mish.default torch._C._nn.mish", "", simple_act<1>},
    {"torch.nn.functional.hardswish", "aten.hardswish.default torch._C._nn.hardswish", "", simple_act<2>},
    {"aten.hardswish_.default", "torch._C._nn.hardswish_", "", simple_act_inplace<2>},
    {"torch.nn.functional.hardsigmoid", "aten.hardsigmoid.default torch._C._nn.hardsigmoid", "", simple_act<3>},
    {"aten.hardsigmoid_.default", "torch._C._nn.hardsigmoid_", "", simple_act_inplace<3>},
    {"torch.nn.functional.softsign", "", "", simple_act<4>},
    {"torch.nn.functional.tanhshrink", "torch.Tensor.tanhshrink", "tanhshrink", tanhshrink_op},
    {"torch.nn.functional.logsigmoid", "aten.log_sigmoid.default torch._C._nn.log_sigmoid", "", simple_act<6>},
    {"torch.nn.functional.softplus", "aten.softplus.default torch._C._nn.softplus", "", softplus_op},
    {"torch.nn.functional.hardshrink", "torch.hardshrink torch.Tensor.hardshrink aten.hardshrink.default", "hardshrink", shrink_op<true>},
    {"torch.nn.functional.softshrink", "aten.softshrink.default torch._C._nn.softshrink", "", shrink_op<false>},
    {"torch.nn.functional.threshold", "torch.nn.functional._threshold torch.threshold aten.threshold.default", "", threshold_op},
    {"torch.nn.functional.threshold_", "torch.threshold_ aten.threshold_.default", "", threshold_inplace_op},
    {"torch.nn.functional.dropout", "torch.nn.functional.dropout1d torch.nn.functional.dropout2d torch.nn.functional.dropout3d torch.nn.functional.alpha_dropout torch.nn.functional.feature_alpha_dropout", "", dropout_op},
    {"torch.dropout", "aten.dropout.default torch.alpha_dropout torch.feature_dropout aten.feature_dropout.default aten.alpha_dropout.default", "", torch_dropout_op},
    {"aten.native_dropout.default", "torch.native_dropout", "", native_dropout_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
