// f32 3×3 stride-1 convolution by Winograd's minimal filtering F(2×2, 3×3) (Lavin & Gray, 2015): each 2×2
// block of outputs ("tile") comes from a 4×4 patch of input as Y = Aᵀ[(G g Gᵀ) ⊙ (Bᵀ d B)]A, so the
// 16 element-wise products of every tile and channel pair, summed over input channels, become 16 GEMMs
// [OC, C]·[C, tiles] — 16 multiply-adds per tile and channel pair where the direct form takes 36 (2.25×
// fewer). The transforms' coefficients are 0, ±1 and ±½, so the result stays within a few ulp of the
// direct sum. The GEMMs reuse the GEMM micro-kernel (kernels/gemm_f32_ukernel.h); the epilogue (bias,
// residual, clamp) runs in the output transform.
#pragma once
#include <cstddef>

#include "kernels/conv.h"
#include "kernels/conv2d_f32.h"
#include "kernels/gemm_f32_ukernel.h"

namespace fx::kernels {

// Whether the Winograd path computes this convolution: 3×3, stride 1, dilation 1, one group (the caller
// checks groups), with at least `kWinogradMinChannels` input and output channels (below that the
// transforms cost more than the multiply-adds they save) and at most kWinogradMaxWeights = OC·C. The
// transformed weight is 16/9 of the weight, packed at load: the cap keeps that extra memory and load time
// to the layers with many pixels per weight, where the gain is largest (measured in wasm, one thread:
// 64 ch at 56² 1.64×, 128 at 28² 1.80×, 256 at 14² 1.54×; 512 at 7² 1.48× but +7 MB per layer).
constexpr size_t kWinogradMinChannels = 8;
constexpr size_t kWinogradMaxWeights = 256 * 256;
bool f32_winograd_applies(const ConvGeom& g, size_t OC);

// The transformed weight: 16 matrices U[ξ] = (G g Gᵀ)[ξ] of [OC, C] (the GEMMs' A operands), then the
// OC biases. `scale` (OC values, or null) multiplies each output channel's weights (a folded BatchNorm);
// `bias` (or null: zeros) is taken as given. w is torch's [OC, C, 3, 3].
size_t f32_winograd_packed_w_size(size_t OC, size_t C);
void f32_winograd_pack_w(size_t OC, size_t C, const float* w, const float* bias, float* packed,
                         const float* scale = nullptr);

// out [OC, OH·OW] = clamp(conv(x [C, H, W]) + bias + residual) for one image, g as f32_winograd_applies
// accepts (any padding; OH, OW from it). `ukernel` null: this build's GEMM micro-kernel. Scratch is kept
// per thread between calls. Threads take whole blocks of tiles: the result is the same for any count.
// The bias and scale are in packed_w: e.scale and e.bias are not read.
void f32_conv3x3_winograd(const ConvGeom& g, size_t OC, const float* x, const float* packed_w, float* out,
                          const ConvEpilogue& e = {}, GemmUkernelFn ukernel = nullptr);

}  // namespace fx::kernels
