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
#pragma once
#include "passes/pass.h"

namespace fx {

class FoldConvBatchNorm : public Pass {
 public:
  const char* name() const override { return "fold_conv_bn"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
