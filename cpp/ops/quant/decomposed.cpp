// The quantize / dequantize ops that PyTorch 2 quantization (torchao's prepare_pt2e / convert_pt2e, the
// XNNPACK-style quantizers) leaves in a graph: quantized_decomposed.{quantize,dequantize}_per_tensor
// (.default with Python numbers, .tensor with one-element tensors), _per_channel, and dynamic
// quantization's choose_qparams.tensor. Each is written as
// torch writes it (torch/ao/quantization/fx/_decomposed.py), out of the same element-wise ops, so the
// values and the memory layout are torch's. A dequantised int8 Linear weight does not run here at all:
// the plan hands it to the int8 kernels (passes/lower_pt2e.h).
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/quantize_f32.h"
#include "ops/call_op.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

Object num(double d) { return Object(Value::floating(d)); }
Object num(int64_t i) { return Object(Value::integer(i)); }

std::string torch_name(DType t) { return std::string("torch.") + dtype_name(t); }

// torch's _quant_min_max_bounds_check.
void check_bounds(const char* op, int64_t qmin, int64_t qmax, DType dtype) {
  int64_t lo = 0, hi = 0;
  switch (dtype) {
    case DType::UInt8: lo = 0, hi = 255; break;
    case DType::Int8: lo = -128, hi = 127; break;
    case DType::Int16: lo = -32768, hi = 32767; break;
    case DType::Int32: lo = -2147483648LL, hi = 2147483647LL; break;
    default: throw FxError(std::string(op) + ": Unsupported dtype: " + torch_name(dtype));
  }
  if (qmin < lo)
    throw FxError(std::string(op) + ": quant_min out of bounds for dtype, quant_min_lower_bound: " +
                  std::to_string(lo) + " quant_min: " + std::to_string(qmin));
  if (qmax > hi)
    throw FxError(std::string(op) + ": quant_max out of bounds for dtype, quant_max_upper_bound: " +
                  std::to_string(hi) + " quant_max: " + std::to_string(qmax));
}

// float16 / bfloat16 go to float32; anything else but float32 is refused, as torch does.
Tensor float_input(const char* op, const Tensor& x) {
  if (x.dtype() == DType::Float16 || x.dtype() == DType::BFloat16) return to_dtype(x, DType::Float32);
  if (x.dtype() != DType::Float32)
    throw FxError(std::string(op) + ": Expecting input to have dtype torch.float32, but got dtype: " +
                  torch_name(x.dtype()));
  return x;
}

// A scale or zero point given as a Python number or (.tensor overloads) a one-element tensor.
Number scalar_arg(const char* op, const Object& o, const char* what) {
  if (!o.is_tensor()) return to_number(o);
  if (o.tensor().numel() != 1)
    throw FxError(std::string(op) + ": Expecting " + what + " tensor to be one element, but received : " +
                  std::to_string(o.tensor().numel()));
  return tensor_item(o.tensor());
}

// clamp(round(x · (1 / scale)) + zero_point, qmin, qmax).to(dtype)
Object quantize_per_tensor_op(const OpCall& call) {
  static const Schema schema("quantize_per_tensor(input, scale, zero_point, quant_min, quant_max, dtype)");
  const char* op = "quantize_per_tensor";
  Args a = schema.parse(call);
  const Tensor x = float_input(op, a.tensor(0));
  const double scale = scalar_arg(op, a[1], "scale").as_double();
  const Number zp = scalar_arg(op, a[2], "zero_point");
  const int64_t qmin = a.integer(3), qmax = a.integer(4);
  const DType dtype = a.dtype(5).value_or(DType::Float32);
  check_bounds(op, qmin, qmax, dtype);
  if ((dtype == DType::Int8 || dtype == DType::UInt8) && x.is_contiguous() && !meta_mode() && !x.is_meta()) {
    // one pass over packed values (a strided input takes the composed path below, which keeps its layout)
    const Tensor xc = x.contiguous();
    Tensor q = Tensor::empty(x.shape(), dtype);
    const float inv = static_cast<float>(1.0 / scale), z = static_cast<float>(zp.as_double());
    const float lo = static_cast<float>(qmin), hi = static_cast<float>(qmax);
    const size_t n = static_cast<size_t>(x.numel());
    if (dtype == DType::Int8) kernels::quantize_f32_i8(n, xc.data<float>(), inv, z, lo, hi, q.data<int8_t>());
    else kernels::quantize_f32_u8(n, xc.data<float>(), inv, z, lo, hi, q.data<uint8_t>());
    return Object(q);
  }
  Object r = call_op("torch.round", {call_op("torch.mul", {Object(x), num(1.0 / scale)})});
  r = call_op("torch.add", {r, zp.to_object()});
  r = call_op("torch.clamp", {r, num(qmin), num(qmax)});
  return Object(to_dtype(r.tensor(), dtype));
}

// (input.to(out_dtype) - zero_point) · scale
Object dequantize_per_tensor_op(const OpCall& call) {
  static const Schema schema(
      "dequantize_per_tensor(input, scale, zero_point, quant_min, quant_max, dtype, *, out_dtype=None)");
  const char* op = "dequantize_per_tensor";
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const DType dtype = a.dtype(5).value_or(x.dtype());
  if (x.dtype() != dtype)
    throw FxError(std::string(op) + ": Expecting input to have dtype: " + torch_name(dtype) + ", but got " +
                  torch_name(x.dtype()));
  check_bounds(op, a.integer(3), a.integer(4), dtype);
  const Number scale = scalar_arg(op, a[1], "scale"), zp = scalar_arg(op, a[2], "zero_point");
  const DType out_dtype = a.dtype(6).value_or(DType::Float32);
  if (out_dtype == DType::Float32 && (dtype == DType::Int8 || dtype == DType::UInt8) && !zp.is_float() &&
      x.is_contiguous() && !meta_mode() && !x.is_meta()) {  // one pass over packed values
    const Tensor qc = x.contiguous();
    Tensor out = Tensor::empty(x.shape(), DType::Float32);
    const float z = static_cast<float>(zp.as_double()), s = static_cast<float>(scale.as_double());
    const size_t n = static_cast<size_t>(x.numel());
    if (dtype == DType::Int8) kernels::dequantize_i8_f32(n, qc.data<int8_t>(), z, s, out.data<float>());
    else kernels::dequantize_u8_f32(n, qc.data<uint8_t>(), z, s, out.data<float>());
    return Object(out);
  }
  Object r(to_dtype(x, out_dtype));
  r = call_op("torch.sub", {r, zp.to_object()});
  return call_op("torch.mul", {r, num(scale.as_double())});
}

// The permutation that swaps `axis` and 0 (its own inverse), and the [C, 1, ..., 1] shape of the parameters.
struct PerChannel {
  Object perm, param_shape;
};

PerChannel per_channel(const char* op, const Tensor& x, const Tensor& scales, int64_t axis) {
  if (axis >= x.dim()) throw FxError(std::string(op) + ": Expecting axis to be < " + std::to_string(x.dim()));
  if (axis < 0) axis += x.dim();
  if (axis < 0) throw FxError(std::string(op) + ": axis out of range for a " + std::to_string(x.dim()) + "-d input");
  std::vector<Object> perm, shape;
  for (int64_t d = 0; d < x.dim(); ++d) {
    perm.push_back(num(d == 0 ? axis : d == axis ? int64_t{0} : d));
    shape.push_back(num(d == 0 ? (scales.dim() ? scales.shape()[0] : int64_t{1}) : int64_t{1}));
  }
  return {Object::list(perm), Object::list(shape)};
}

Object quantize_per_channel_op(const OpCall& call) {
  static const Schema schema(
      "quantize_per_channel(input, scales, zero_points, axis, quant_min, quant_max, dtype)");
  const char* op = "quantize_per_channel";
  Args a = schema.parse(call);
  const Tensor x = float_input(op, a.tensor(0));
  const int64_t qmin = a.integer(4), qmax = a.integer(5);
  const DType dtype = a.dtype(6).value_or(DType::Float32);
  const PerChannel pc = per_channel(op, x, a.tensor(1), a.integer(3));
  check_bounds(op, qmin, qmax, dtype);
  const Object xp = call_op("torch.permute", {Object(x), pc.perm});
  const Object scales = call_op("torch.Tensor.view", {a[1], pc.param_shape});
  const Object zps = call_op("torch.Tensor.view", {a[2], pc.param_shape});
  Object r = call_op("torch.mul", {xp, call_op("torch.reciprocal", {scales})});
  r = call_op("torch.add", {call_op("torch.round", {r}), zps});
  r = call_op("torch.clamp", {r, num(qmin), num(qmax)});
  r = call_op("torch.permute", {r, pc.perm});
  return Object(to_dtype(r.tensor(), dtype));
}

Object dequantize_per_channel_op(const OpCall& call) {
  static const Schema schema(
      "dequantize_per_channel(input, scales, zero_points, axis, quant_min, quant_max, dtype, *, out_dtype=None)");
  const char* op = "dequantize_per_channel";
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const DType dtype = a.dtype(6).value_or(x.dtype());
  if (x.dtype() != dtype)
    throw FxError(std::string(op) + ": Expecting input to have dtype: " + torch_name(dtype) + ", but got dtype: " +
                  torch_name(x.dtype()));
  const PerChannel pc = per_channel(op, x, a.tensor(1), a.integer(3));
  check_bounds(op, a.integer(4), a.integer(5), dtype);
  const Object xp = call_op("torch.permute", {Object(x), pc.perm});
  const Object scales = call_op("torch.Tensor.view", {a[1], pc.param_shape});
  Object r = a.is_none(2) ? xp : call_op("torch.sub", {xp, call_op("torch.Tensor.view", {a[2], pc.param_shape})});
  r = call_op("torch.mul", {r, scales});
  r = Object(to_dtype(r.tensor(), a.dtype(7).value_or(DType::Float32)));
  return call_op("torch.permute", {r, pc.perm});
}

// Dynamic quantization's per-tensor parameters from the values' range (torch's determine_qparams, affine):
// scale = max((max(x, 0) - min(x, 0)) / (qmax - qmin), eps) and zero_point = clamp(qmin - round(min / scale)),
// in float32 as torch computes them; returned as float64 [1] and int64 [1] tensors.
Object choose_qparams_op(const OpCall& call) {
  static const Schema schema("choose_qparams(input, quant_min, quant_max, eps, dtype)");
  const char* op = "choose_qparams";
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  if (x0.dtype() != DType::Float32 && x0.dtype() != DType::Float16 && x0.dtype() != DType::BFloat16)
    throw FxError(std::string(op) + ": Expecting input to have dtype torch.float32/16/b16, but got dtype: " +
                  torch_name(x0.dtype()));
  const int64_t qmin = a.integer(1), qmax = a.integer(2);
  const DType dtype = a.dtype(4).value_or(DType::Float32);
  check_bounds(op, qmin, qmax, dtype);
  if (!(qmin <= 0 && 0 <= qmax)) throw FxError(std::string(op) + ": Used-specified quantization range must include 0.");
  if (qmin >= qmax)
    throw FxError(std::string(op) + ": qmin must be strictly less than qmax for user-specified quantization range.");
  if (x0.numel() == 0)
    throw FxError(std::string(op) + ": aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  const Tensor x = to_dtype(x0, DType::Float32).contiguous();
  const float* d = x.data<float>();
  float mn = d[0], mx = d[0];
  for (int64_t i = 1; i < x.numel(); ++i) {
    if (std::isnan(mn)) break;
    if (std::isnan(d[i])) mn = mx = d[i];
    else mn = std::min(mn, d[i]), mx = std::max(mx, d[i]);
  }
  float scale = 1.0f;
  int64_t zp = 0;
  if (!(mn == std::numeric_limits<float>::infinity() && mx == -std::numeric_limits<float>::infinity())) {
    const float lo = std::isnan(mn) ? mn : std::min(mn, 0.0f), hi = std::isnan(mx) ? mx : std::max(mx, 0.0f);
    scale = (hi - lo) / static_cast<float>(static_cast<double>(qmax - qmin));
    const float eps = static_cast<float>(a.number(3).as_double());
    if (!std::isnan(scale)) scale = std::max(scale, eps);
    const float r = std::nearbyint(lo / scale);
    // float → int32 as x86 converts it (NaN and overflow give INT32_MIN), then torch's int32 arithmetic
    const int64_t ri = std::isnan(r) || r >= 2147483648.0f || r < -2147483648.0f ? INT32_MIN : static_cast<int64_t>(r);
    zp = std::clamp<int64_t>(qmin - ri, qmin, qmax);
  }
  const double scale_d = scale;
  return Object::tuple({Object(Tensor::from_bytes({1}, DType::Float64, &scale_d, sizeof scale_d)),
                        Object(Tensor::from_bytes({1}, DType::Int64, &zp, sizeof zp))});
}

const OpRegistrar reg_q{OpDef{"quantized_decomposed.quantize_per_tensor",
                              {"quantized_decomposed.quantize_per_tensor.default",
                               "quantized_decomposed.quantize_per_tensor.tensor"},
                              {},
                              quantize_per_tensor_op}};
const OpRegistrar reg_dq{OpDef{"quantized_decomposed.dequantize_per_tensor",
                               {"quantized_decomposed.dequantize_per_tensor.default",
                                "quantized_decomposed.dequantize_per_tensor.tensor"},
                               {},
                               dequantize_per_tensor_op}};
const OpRegistrar reg_qc{OpDef{"quantized_decomposed.quantize_per_channel",
                               {"quantized_decomposed.quantize_per_channel.default"},
                               {},
                               quantize_per_channel_op}};
const OpRegistrar reg_dqc{OpDef{"quantized_decomposed.dequantize_per_channel",
                                {"quantized_decomposed.dequantize_per_channel.default"},
                                {},
                                dequantize_per_channel_op}};
const OpRegistrar reg_choose{OpDef{"quantized_decomposed.choose_qparams",
                                   {"quantized_decomposed.choose_qparams.tensor"},
                                   {},
                                   choose_qparams_op}};

}  // namespace
}  // namespace fx
