// 3-D convolution (plain and transposed) for the conv3d ops, aten.convolution with a 5-D weight and the
// Conv3d / ConvTranspose3d leaf modules. A scalar reference (kernels/conv3d.h), floats and integers.
#pragma once
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace fx {

struct Conv3dArgs {
  std::vector<int64_t> stride{1}, padding{0}, dilation{1}, output_padding{0};
  std::string padding_str;  // "same" / "valid" (forward only), else empty and `padding` holds ints
  int64_t groups = 1;
  bool transposed = false;
};

// input [N, C, D, H, W] or unbatched [C, D, H, W]; bias undefined or [OC].
Tensor conv3d_tensor(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv3dArgs& args);

// A 1-D or 2-D convolution run as a 3-D one with unit leading spatial dims: the integer convolutions
// (torch computes them; the fast 1-D/2-D paths are float only). pad_begin != pad_end means 'same'.
Tensor conv_as_3d(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t spatial,
                  const std::vector<int64_t>& stride, const std::vector<int64_t>& pad_begin,
                  const std::vector<int64_t>& pad_end, const std::vector<int64_t>& dilation,
                  const std::vector<int64_t>& output_padding, int64_t groups, bool transposed);

}  // namespace fx
