// Conv3d and ConvTranspose3d leaf modules over ops/nn/conv3d.h; a non-zeros padding_mode pads with F.pad
// first, as torch's Conv3d._conv_forward does.
#include "nn/module_util.h"
#include "ops/nn/conv3d.h"
#include "support/error.h"

namespace fx {
namespace {

template <bool kTransposed>
BoundModule bind_conv3d(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight"), bias = h.tensor("bias", false);
  if (w.dim() != 5) throw FxError("conv weight must be 5-D");
  Conv3dArgs c;
  c.transposed = kTransposed;
  c.stride = h.ints("stride");
  c.dilation = h.ints("dilation");
  c.groups = h.integer("groups");
  if (h.get("padding").kind() == ValueKind::Str) c.padding_str = h.get("padding").as_str();
  else c.padding = h.ints("padding");
  if (kTransposed) c.output_padding = h.ints("output_padding");
  const std::string mode = h.str_or("padding_mode", "zeros");
  std::shared_ptr<OpRef> pad_op;
  std::vector<Object> pads;  // F.pad order: last dim first
  if (mode != "zeros") {
    if (kTransposed) throw FxError("Only \"zeros\" padding mode is supported for ConvTranspose3d");
    std::vector<int64_t> lo(3), hi(3);
    if (c.padding_str == "same") {
      for (int i = 0; i < 3; ++i) {
        const int64_t total = (c.dilation.size() == 3 ? c.dilation[i] : c.dilation[0]) * (w.shape()[2 + i] - 1);
        lo[i] = total / 2, hi[i] = total - total / 2;
      }
    } else if (c.padding_str.empty()) {
      for (int i = 0; i < 3; ++i) lo[i] = hi[i] = c.padding.size() == 3 ? c.padding[i] : c.padding[0];
    }
    for (int i = 2; i >= 0; --i) pads.push_back(Object(Value::integer(lo[i]))), pads.push_back(Object(Value::integer(hi[i])));
    c.padding = {0};
    c.padding_str.clear();
    pad_op = std::make_shared<OpRef>("torch.nn.functional.pad");
  }
  return [=](const OpCall& call) -> Object {
    Tensor x = call.args.at(0).tensor();
    if (pad_op) x = (*pad_op)({x, Object::list(pads), Object(Value::str(mode))}).tensor();
    return conv3d_tensor(x, w, bias, c);
  };
}

const ModuleRegistrar reg_conv3d{{"torch.nn.modules.conv.Conv3d"}, bind_conv3d<false>};
const ModuleRegistrar reg_convt3d{{"torch.nn.modules.conv.ConvTranspose3d"}, bind_conv3d<true>};

}  // namespace
}  // namespace fx
