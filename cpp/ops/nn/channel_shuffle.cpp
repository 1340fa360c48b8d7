// channel_shuffle (torch.nn.ChannelShuffle, F.channel_shuffle, aten.channel_shuffle / native_channel_shuffle)
// and torchvision.ops.stochastic_depth, the two small ops of ShuffleNet / EfficientNet-style models.
#include <cstring>

#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

// [N, C, *] → channel c of the result is channel (c % g)·(C/g) + c / g of the input (view g × C/g, transpose).
Object channel_shuffle_op(const OpCall& call) {
  static const Schema schema("channel_shuffle(input|self, groups)");
  Args a = schema.parse(call);
  const Tensor& in = a.tensor(0);
  const int64_t g = a.integer(1);
  if (g <= 0) throw FxError("Number of groups to divide channels in must be positive. Value of groups:" + std::to_string(g));
  if (in.dim() < 3)
    throw FxError("channel_shuffle expects input to have at least 3 dimensions, but got input with sizes " +
                  shape_to_string(in.shape()));
  const int64_t N = in.shape()[0], C = in.shape()[1];
  if (C % g) throw FxError("Number of channels must be divisible by groups. Got " + std::to_string(C) +
                           " channels and " + std::to_string(g) + " groups.");
  Tensor x = in.contiguous(), out = Tensor::empty(in.shape(), in.dtype());
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  const size_t block = static_cast<size_t>(N * C ? x.numel() / (N * C) : 0) * dtype_size(x.dtype());
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.raw_data());
  const int64_t per = C / g;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      std::memcpy(dst + (n * C + c) * block, src + (n * C + (c % g) * per + c / g) * block, block);
  return out;
}

// Identity at inference; in training it drops rows at random, which a deterministic runtime cannot mirror.
Object stochastic_depth_op(const OpCall& call) {
  static const Schema schema("stochastic_depth(input, p, mode, training=True)");
  Args a = schema.parse(call);
  const double p = a.number(1).as_double();
  const std::string mode = a.str(2);
  if (p < 0.0 || p > 1.0) throw FxError("drop probability has to be between 0 and 1, but got " + std::to_string(p));
  if (mode != "batch" && mode != "row") throw FxError("mode has to be either 'batch' or 'row', but got " + mode);
  if (a.boolean(3) && p != 0.0)
    throw FxError("stochastic_depth in training mode (p=" + std::to_string(p) +
                  ") is random; export the model in eval mode");
  return a[0];
}

const OpRegistrar reg_cs{OpDef{"torch.channel_shuffle",
                               {"torch.nn.functional.channel_shuffle", "torch.native_channel_shuffle",
                                "aten.channel_shuffle.default", "aten.native_channel_shuffle.default"},
                               {"channel_shuffle"}, channel_shuffle_op}};
const OpRegistrar reg_sd{OpDef{"torchvision.ops.stochastic_depth.stochastic_depth",
                               {"torchvision.ops.stochastic_depth"}, {}, stochastic_depth_op}};

}  // namespace
}  // namespace fx
