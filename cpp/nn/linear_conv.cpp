// Linear, Bilinear, Conv1d/2d and ConvTranspose1d/2d leaf modules. Float32 Linear and Conv weights are
// prepared for the GEMM once, here at bind time (small ones packed, large ones read where they are); other
// dtypes fall back to the plain ops.
#include <algorithm>
#include <cmath>

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
