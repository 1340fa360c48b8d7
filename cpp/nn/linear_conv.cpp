// Linear, Bilinear, Conv1d/2d and ConvTranspose1d/2d leaf modules. Float32 Linear and Conv weights are
// prepared for the GEMM once, here at bind time (small ones packed, large ones read where they are); other
// dtypes fall back to the plain ops.
#include <algorithm>
#include <cmath>

#include "nn/fused.h"
#include "nn/module_util.h"
#include "ops/nn/conv.h"
#include "ops/math/matmul.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

BoundModule bind_linear(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight"), bias = h.tensor("bias", false);
  if (w.dim() != 2) throw FxError("Linear weight must be 2-D");
  if (w.dtype() != DType::Float32)
    return [w, bias](const OpCall& call) -> Object { return linear_tensor(call.args.at(0).tensor(), w, bias.defined() ? &bias : nullptr); };
  auto packed = std::make_shared<PackedLinear>(PackedLinear::pack(w, bias.defined() ? &bias : nullptr));
  return [packed, w, bias](const OpCall& call) -> Object {
    const Tensor& x = call.args.at(0).tensor();
    if (x.dtype() != DType::Float32) return linear_tensor(x, w, bias.defined() ? &bias : nullptr);
    return packed->run(x, w);
  };
}

BoundModule bind_bilinear(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight"), bias = h.tensor("bias", false);
  OpRef op("torch.bilinear");
  return [op, w, bias](const OpCall& call) -> Object {
    return op({call.args.at(0), call.args.at(1), w, bias.defined() ? Object(bias) : Object()});
  };
}

template <int kSpatial, bool kTransposed>
BoundModule bind_conv(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight"), bias = h.tensor("bias", false);
  if (w.dim() != kSpatial + 2) throw FxError("conv weight must be " + std::to_string(kSpatial + 2) + "-D");
  std::string pad_str;
  std::vector<int64_t> pad;
  if (h.get("padding").kind() == ValueKind::Str) pad_str = h.get("padding").as_str();
  else pad = h.ints("padding");
  ConvParams p = conv_params(kSpatial, h.ints("stride"), pad, pad_str, h.ints("dilation"), h.integer("groups"),
                             kTransposed, kTransposed ? h.ints("output_padding") : std::vector<int64_t>{}, w.shape());
  const std::string mode = h.str_or("padding_mode", "zeros");
  std::shared_ptr<OpRef> pad_op;
  std::vector<int64_t> explicit_pad;  // F.pad order: last dim first
  if (mode != "zeros") {
    if (kTransposed) throw FxError("Only \"zeros\" padding mode is supported for ConvTranspose");
    pad_op = std::make_shared<OpRef>("torch.nn.functional.pad");
    for (int64_t i = kSpatial - 1; i >= 0; --i) {
      explicit_pad.push_back(p.pad_begin[i]);
      explicit_pad.push_back(p.pad_end[i]);
    }
    p.pad_begin.assign(kSpatial, 0);
    p.pad_end.assign(kSpatial, 0);
  }
  auto packed = std::make_shared<PackedConv>(pack_conv_weight(w, bias, p));
  return [=](const OpCall& call) -> Object {
    Tensor x = call.args.at(0).tensor();
    if (pad_op) {
      std::vector<Object> pads;
      for (int64_t v : explicit_pad) pads.push_back(Object(Value::integer(v)));
      x = (*pad_op)({x, Object::list(pads), Object(Value::str(mode))}).tensor();
    }
    return conv_forward(x, w, bias, p, x.dtype() == DType::Float32 ? packed.get() : nullptr);
  };
}

const ModuleRegistrar reg_linear{{"torch.nn.modules.linear.Linear",
                                  "torch.nn.modules.linear.NonDynamicallyQuantizableLinear"},
                                 bind_linear};
const ModuleRegistrar reg_bilinear{{"torch.nn.modules.linear.Bilinear"}, bind_bilinear};
const ModuleRegistrar reg_conv1d{{"torch.nn.modules.conv.Conv1d"}, bind_conv<1, false>};
const ModuleRegistrar reg_conv2d{{"torch.nn.modules.conv.Conv2d"}, bind_conv<2, false>};
const ModuleRegistrar reg_convt1d{{"torch.nn.modules.conv.ConvTranspose1d"}, bind_conv<1, true>};
const ModuleRegistrar reg_convt2d{{"torch.nn.modules.conv.ConvTranspose2d"}, bind_conv<2, true>};

}  // namespace
}  // namespace fx

namespace fx {

BoundModule bind_linear_fused(const ModuleBinding& b, const FusedEpilogue& e) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false), bias = h.tensor("bias", false);
  if (e.residual || !w.defined() || w.dim() != 2 || w.dtype() != DType::Float32) return {};
  if (bias.defined() && (bias.dtype() != DType::Float32 || bias.numel() != w.shape()[0])) return {};
  auto packed = std::make_shared<PackedLinear>(PackedLinear::pack(w, bias.defined() ? &bias : nullptr));
  GemmParams gp;
  gp.min = e.min, gp.max = e.max;
  OpRef clamp("torch.clamp");
  return [packed, w, bias, gp, clamp](const OpCall& call) -> Object {
    const Tensor& x = call.args.at(0).tensor();
    if (x.dtype() == DType::Float32) return packed->run(x, w, gp);
    Tensor y = linear_tensor(x, w, bias.defined() ? &bias : nullptr);
    return clamp({y, Object(Value::floating(gp.min)), Object(Value::floating(gp.max))});
  };
}

BoundModule bind_conv2d_fused(const ModuleBinding& b, const ModuleBinding* bn, const FusedEpilogue& e) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false), bias = h.tensor("bias", false);
  if (!w.defined() || w.dim() != 4 || w.dtype() != DType::Float32) return {};
  if (bias.defined() && bias.dtype() != DType::Float32) return {};
  if (h.str_or("padding_mode", "zeros") != "zeros") return {};
  std::string pad_str;
  std::vector<int64_t> pad;
  if (h.get("padding").kind() == ValueKind::Str) pad_str = h.get("padding").as_str();
  else pad = h.ints("padding");
  const ConvParams p = conv_params(2, h.ints("stride"), pad, pad_str, h.ints("dilation"), h.integer("groups"), false,
                                   {}, w.shape());
  const int64_t OC = w.shape()[0];
  // Folding: w' = w·γ/√(var+ε) per output channel, b' = (b − mean)·γ/√(var+ε) + β (factors in double). The
  // implicit-GEMM kernel packs a small weight with the scale folded in and applies it after the GEMM for a
  // large one (whose weight stays the file's, uncopied); Winograd folds it into its transformed weight; a
  // folded copy of the weight is made only where a path reads the weight itself (depthwise, other dtypes).
  std::vector<float> scale;
  if (bn) {
    Hparams bh(*bn);
    Tensor g = bh.tensor("weight", false), beta = bh.tensor("bias", false);
    Tensor rm = bh.tensor("running_mean", false), rv = bh.tensor("running_var", false);
    if (bh.boolean_or("training", false) || !rm.defined() || !rv.defined()) return {};
    auto ok = [OC](const Tensor& t) {
      return !t.defined() || (t.numel() == OC && (t.dtype() == DType::Float32 || t.dtype() == DType::Float64));
    };
    if (!ok(g) || !ok(beta) || !ok(rm) || !ok(rv)) return {};
    auto values = [OC](const Tensor& t, double fallback) {
      std::vector<double> v(static_cast<size_t>(OC), fallback);
      if (!t.defined()) return v;
      const Tensor c = t.contiguous();
      if (c.dtype() == DType::Float64) std::copy(c.data<double>(), c.data<double>() + OC, v.begin());
      else std::copy(c.data<float>(), c.data<float>() + OC, v.begin());
      return v;
    };
    const std::vector<double> gv = values(g, 1.0), bv = values(beta, 0.0), mv = values(rm, 0.0),
                              vv = values(rv, 1.0), b0 = values(bias, 0.0);
    const double eps = bh.number_or("eps", 1e-5);
    Tensor nb = Tensor::empty({OC}, DType::Float32);
    float* nbp = nb.data<float>();
    scale.resize(static_cast<size_t>(OC));
    for (int64_t c = 0; c < OC; ++c) {
      const double s = gv[c] / std::sqrt(vv[c] + eps);
      scale[c] = static_cast<float>(s);
      nbp[c] = static_cast<float>((b0[c] - mv[c]) * s + bv[c]);
    }
    bias = nb;
  }
  auto packed = std::make_shared<PackedConv>(pack_conv_weight(w, bias, p, scale.empty() ? nullptr : scale.data()));
  // The weight as the unpacked paths read it: folded now when the packed form does not cover the f32 path
  // (depthwise), else folded on demand (an input of another dtype).
  auto folded = [w0 = w, scale]() {
    if (scale.empty()) return w0;
    const Tensor wc = w0.contiguous();
    Tensor nw = Tensor::empty(w0.shape(), DType::Float32);
    const int64_t per = w0.numel() / static_cast<int64_t>(scale.size());
    const float* src = wc.data<float>();
    float* dst = nw.data<float>();
    for (size_t c = 0; c < scale.size(); ++c)
      for (int64_t i = 0; i < per; ++i) dst[c * per + i] = src[c * per + i] * scale[c];
    return nw;
  };
  if (packed->groups.empty() && !packed->weight.defined() && !packed->winograd.defined()) w = folded();
  ConvEpilogueSpec base;
  base.min = e.min, base.max = e.max;
  const bool residual = e.residual;
  OpRef add("operator.add"), clamp("torch.clamp");
  return [=](const OpCall& call) -> Object {
    const Tensor& x = call.args.at(0).tensor();
    if (x.dtype() != DType::Float32) {
      Object y = conv_forward(x, folded(), bias, p);
      if (residual) y = add({y, call.args.at(1)});
      return clamp({y, Object(Value::floating(base.min)), Object(Value::floating(base.max))});
    }
    ConvEpilogueSpec epi = base;
    if (residual) {
      const Object& r = call.args.at(1);
      // A residual that broadcasts or has another dtype: run the add as the graph says, then clamp.
      if (!r.is_tensor() || r.tensor().dtype() != DType::Float32 || r.tensor().dim() != 4 ||
          r.tensor().shape()[1] != OC) {
        Object y = conv_forward(x, w, bias, p, packed.get());
        y = add({y, r});
        return clamp({y, Object(Value::floating(base.min)), Object(Value::floating(base.max))});
      }
      const Tensor& rt = r.tensor();
      bool same = x.dim() == 4 && rt.shape()[0] == x.shape()[0];
      for (int d = 0; same && d < 2; ++d) {
        const int64_t in = x.shape()[2 + d], k = w.shape()[2 + d];
        const int64_t o = (in + p.pad_begin[d] + p.pad_end[d] - p.dilation[d] * (k - 1) - 1) / p.stride[d] + 1;
        same = rt.shape()[2 + d] == o;
      }
      if (!same) {
        Object y = conv_forward(x, w, bias, p, packed.get());
        y = add({y, r});
        return clamp({y, Object(Value::floating(base.min)), Object(Value::floating(base.max))});
      }
      epi.residual = rt;
    }
    return conv_forward(x, w, bias, p, packed.get(), &epi);
  };
}

}  // namespace fx
