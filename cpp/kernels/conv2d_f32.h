// f32 convolution of one image and one group in NCHW as a GEMM whose B operand — the im2col matrix — is
// never materialized: out[OC, pix] = W[OC, C·KH·KW] · col[C·KH·KW, pix], with col built straight into the
// GEMM micro-kernel's NR-wide panel layout, one panel of NR output pixels at a time. The output comes out
// in NCHW (no transpose) and the weight is the GEMM's A operand in one of two layouts (ConvWeightLayout).
// The epilogue adds a residual (beta·C with C pre-filled) and clamps (fused relu / relu6 / hardtanh).
#pragma once
#include <cstddef>
#include <limits>

#include "kernels/conv.h"
#include "kernels/gemm_f32_ukernel.h"

namespace fx::kernels {

// The A operand of f32_conv2d_nchw:
// - kPacked (f32_conv_pack_w): [OC, kc + 1], each row times a folded BatchNorm's scale, the bias as column
//   kc times a row of ones in every panel, so the micro-kernel adds it for free. A copy of the weight.
// - kTorch: torch's [OC, kc] read where it is (no copy, nothing to do at load); ConvEpilogue's scale and
//   bias per output channel are applied to each tile after the micro-kernel. That pass is noise for a long
//   kc but was measured at +15% on a 1×1 convolution over 16 channels, so callers that keep a weight pack
//   it when kc < kConvPackMaxKc (a small copy) and use it in place from there on.
enum class ConvWeightLayout { kPacked, kTorch };
constexpr size_t kConvPackMaxKc = 512;

// out = clamp(acc·scale[oc] + bias[oc] + residual, min, max); null pointers are left out.
struct ConvEpilogue {
  const float* scale = nullptr;     // [OC] (kTorch only; packed in kPacked)
  const float* bias = nullptr;      // [OC] (kTorch only; packed in kPacked)
  const float* residual = nullptr;  // [OC, pix] added after the bias (may equal out), or none
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

// The weight of one group [OC, kc] (kc = C·KH·KW) with the bias appended as column kc: [OC, kc + 1].
// `scale` (OC values, or null): row oc of the weight is multiplied by scale[oc] on the way (a folded
// BatchNorm, packed in the same pass as the copy); the bias is taken as given.
size_t f32_conv_packed_w_size(size_t OC, size_t kc);
void f32_conv_pack_w(size_t OC, size_t kc, const float* w, const float* bias, float* packed,
                     const float* scale = nullptr);

// g.C is the channel count of this group; x [g.C, g.H, g.W]; w the group's weight in `layout`; out [OC,
// g.OH·g.OW]. `ukernel` null: this build's GEMM micro-kernel. Scratch is kept per thread between calls
// (steady state does not allocate).
void f32_conv2d_nchw(const ConvGeom& g, size_t OC, const float* x, const float* w, ConvWeightLayout layout,
                     float* out, const ConvEpilogue& e = {}, GemmUkernelFn ukernel = nullptr);

// Depthwise 3×3 (stride 1 or 2, dilation 1, any padding) over one channel plane, SIMD128 where built with
// it: out[oh, ow] = clamp(bias + Σ w[kh, kw]·x[oh·S − PH + kh, ow·S − PW + kw]). Requires KH = KW = 3;
// other strides or dilations run the scalar loop. Other depthwise shapes use conv_depthwise (kernels/conv.h).
void f32_dwconv3x3_plane(const ConvGeom& g, const float* x, const float* w, float bias, float* out, float min,
                         float max);
// The scalar reference of f32_dwconv3x3_plane (also used for its border pixels).
void f32_dwconv3x3_plane_scalar(const ConvGeom& g, const float* x, const float* w, float bias, float* out,
                                float min, float max);

}  // namespace fx::kernels
