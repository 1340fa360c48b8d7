// Convolution (1-D and 2-D, plain and transposed) as ops and leaf modules use it. float32: implicit-GEMM
// NCHW (kernels/conv2d_f32.h) for every grouped/dense conv, Winograd F(2×2, 3×3) (kernels/winograd_f32.h)
// for the dense 3×3 stride-1 ones whose weight was packed, a SIMD depthwise 3×3; float64: im2row + GEMM,
// 1×1 as a GEMM directly, depthwise as its own loop. Modules pack the weight once (PackedConv) at bind
// time; fusion (passes/fuse.h, ops/nn/fused.cpp) adds an epilogue (residual add, clamp).
#pragma once
#include <limits>
#include <vector>

#include "kernels/gemm_f32.h"
#include "tensor/tensor.h"

namespace fx {

struct ConvParams {
  int64_t spatial = 2;                          // 1 or 2
  std::vector<int64_t> stride, dilation;        // `spatial` values each
  std::vector<int64_t> pad_begin, pad_end;      // asymmetric only for padding='same' with even kernels
  std::vector<int64_t> output_padding;          // transposed only
  int64_t groups = 1;
  bool transposed = false;
};

// Builds ConvParams from the usual arguments; padding is either ints or 'same' / 'valid'.
ConvParams conv_params(int64_t spatial, const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                       const std::string& padding_mode_str, const std::vector<int64_t>& dilation, int64_t groups,
                       bool transposed, const std::vector<int64_t>& output_padding, const Shape& weight_shape);

// A float32 non-transposed weight made ready once for the float32 kernels (nothing for depthwise and other
// dtypes), in one of three forms:
// - `groups`: packed per group with its scale and bias for kernels::f32_conv2d_nchw (kPacked), when
//   C/groups·KH·KW < kernels::kConvPackMaxKc (a small weight: the copy is cheap, the kernel faster);
// - `weight` and `scale`: the weight itself (contiguous: the module's own tensor, no copy at load) and a
//   folded BatchNorm's scale per output channel, for kernels::f32_conv2d_nchw's kTorch layout;
// - `winograd`: for the 3×3 stride-1 convolutions kernels::f32_winograd_applies takes, the weight
//   transformed with its scale and bias for kernels::f32_conv3x3_winograd.
// Pass conv_forward the same bias as pack_conv_weight.
struct PackedConv {
  std::vector<Tensor> groups;
  Tensor weight;    // float32 contiguous, torch's layout; or undefined
  Tensor scale;     // float32 [OC], or undefined (no BatchNorm folded)
  Tensor winograd;
};
// `scale` (OC floats, or null): each output channel's result times scale[oc] (a folded BatchNorm; the bias
// given is then the folded one).
PackedConv pack_conv_weight(const Tensor& weight, const Tensor& bias, const ConvParams& p,
                            const float* scale = nullptr);

// What runs after the convolution, fused into its GEMM when the path allows (float32): + residual (a
// float32 tensor of the output's shape), then clamp to [min, max].
struct ConvEpilogueSpec {
  Tensor residual;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

// input [N, C, (H,) W] or unbatched [C, (H,) W]; weight torch's layout; bias [OC] or undefined.
// FxError when `epilogue` has a residual whose shape or dtype differs from the output's.
Tensor conv_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p,
                    const PackedConv* packed = nullptr, const ConvEpilogueSpec* epilogue = nullptr);

}  // namespace fx
