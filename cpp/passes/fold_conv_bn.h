// Conv-BatchNorm folding for inference (torch.fx.experimental.optimization.fuse, torch.nn.utils.fusion):
// a BatchNorm in eval mode right after a convolution whose only user it is becomes part of the
// convolution's weights and bias:  w' = w · γ/√(var+ε) (per output channel),  b' = (b − mean) · γ/√(var+ε) + β.
// Two forms are folded:
//  - call_module Conv2d (only called once) → call_module BatchNorm2d (training false): the conv's weight
//    and bias tensors are replaced (a bias is added if it had none), the BatchNorm module and its tensors
//    leave the module tree;
//  - call_function torch.conv2d / F.conv2d with get_attr weight (and bias) → F.batch_norm(training=False)
//    with get_attr statistics: new constant tensors feed the conv, the old ones go when unused.
// Float32 and float64 weights only; anything else is left as it is. The result matches to rounding.
//
// The fold itself is written once (batch_norm_affine): the epilogue-fusion pass uses it too, where the
// runtime keeps a convolution's weight as it is and applies the scale per channel (passes/fuse.h).
#pragma once
#include <optional>
#include <vector>

#include "passes/pass.h"

namespace fx {

// An eval-mode BatchNorm after a convolution with bias b, as a map of the convolution's output without its
// bias, per output channel:  bn(conv(x, w) + b) = conv(x, w) · scale + shift,
// scale = γ/√(var+ε),  shift = (b − mean) · scale + β  (in double).
struct ChannelAffine {
  std::vector<double> scale, shift;
};

// For a call_module BatchNorm2d node `bn` after a convolution with `channels` output channels and bias
// `conv_bias` (null: none). nullopt when it does not fold: training mode, statistics missing or not
// float32/float64, sizes that are not `channels`.
std::optional<ChannelAffine> batch_norm_affine(const GraphModule& gm, const Node& bn, const Tensor* conv_bias,
                                               int64_t channels);

class FoldConvBatchNorm : public Pass {
 public:
  const char* name() const override { return "fold_conv_bn"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
