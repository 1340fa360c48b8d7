// Convolution forward: shape checks with torch's messages, then per image and group one of three paths
// (depthwise loop; 1×1 stride-1 as out = W·x; im2row + GEMM against the weight) or, transposed, GEMM +
// row2im. Registrations are in conv_ops.cpp.
#include "ops/nn/conv.h"
#include "ops/nn/conv3d.h"

#include <algorithm>

#include "kernels/conv.h"
#include "kernels/conv2d_f32.h"
#include "kernels/parallel.h"
#include "kernels/winograd_f32.h"
#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/checked.h"

namespace fx {

ConvParams conv_params(int64_t spatial, const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                       const std::string& padding_str, const std::vector<int64_t>& dilation, int64_t groups,
                       bool transposed, const std::vector<int64_t>& output_padding, const Shape& wshape) {
  ConvParams p;
  p.spatial = spatial;
  const size_t n = static_cast<size_t>(spatial);
  p.stride = expand_ints(stride, n, "stride");
  p.dilation = expand_ints(dilation, n, "dilation");
  p.groups = groups;
  p.transposed = transposed;
  p.output_padding = output_padding.empty() ? std::vector<int64_t>(n, 0) : expand_ints(output_padding, n, "output_padding");
  if (groups <= 0) throw FxError("non-positive groups is not supported");
  for (int64_t s : p.stride)
    if (s <= 0) throw FxError("non-positive stride is not supported");
  for (int64_t d : p.dilation)
    if (d <= 0) {
      std::vector<int64_t> shown = p.dilation;
      if (spatial == 1) shown.insert(shown.begin(), 1);
      throw FxError("dilation should be greater than zero, but got " + shape_to_string(shown));
    }
  if (padding_str == "valid") {
    p.pad_begin = p.pad_end = std::vector<int64_t>(n, 0);
  } else if (padding_str == "same") {
    for (int64_t s : p.stride)
      if (s != 1) throw FxError("padding='same' is not supported for strided convolutions");
    FX_CHECK(static_cast<int64_t>(wshape.size()) == spatial + 2, "conv weight rank");
    for (size_t i = 0; i < n; ++i) {
      const int64_t total = checked_mul(p.dilation[i], wshape[2 + i] - 1, "conv padding='same'");
      p.pad_begin.push_back(total / 2);
      p.pad_end.push_back(total - total / 2);
    }
  } else if (padding_str.empty()) {
    p.pad_begin = p.pad_end = expand_ints(padding, n, "padding");
    for (int64_t v : p.pad_begin)
      if (v < 0) throw FxError("negative padding is not supported");
  } else {
    throw FxError("Invalid padding string: '" + padding_str + "'");
  }
  return p;
}

namespace {

// Lifts 1-D (and unbatched) inputs to [N, C, H, W] views and weights to 4-D.
Tensor to_4d(const Tensor& t, int64_t spatial) {
  Tensor c = t.contiguous();
  Shape s = c.shape();
  if (spatial == 1) s.insert(s.end() - 1, 1);
  return view_as_shape(c, s);
}

template <typename T>
void transpose_into(const T* src, int64_t rows, int64_t cols, T* dst) {  // dst[c, r] = src[r, c]
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
}

// float32: the implicit-GEMM NCHW kernel for dense and grouped convolutions (a PackedConv's packed groups,
// or the weight as it is — a PackedConv's with its folded BatchNorm scale, or the one given), the SIMD
// depthwise 3×3 for depthwise ones, Winograd for a weight packed in its form. Returns whether the epilogue
// (residual, clamp) was applied here.
bool conv_images_f32(const Tensor& x, const Tensor& w, const float* bias, const ConvParams& p,
                     const PackedConv* packed, const ConvEpilogueSpec* epi, kernels::ConvGeom g, Tensor& out) {
  const int64_t N = x.shape()[0], C = x.shape()[1], OC = w.shape()[0];
  const int64_t cg = C / p.groups, ocg = OC / p.groups, kk = g.KH * g.KW, kc = cg * kk, pix = g.OH * g.OW;
  const float lo = epi ? epi->min : -std::numeric_limits<float>::infinity();
  const float hi = epi ? epi->max : std::numeric_limits<float>::infinity();
  const float* res = epi && epi->residual.defined() ? epi->residual.data<float>() : nullptr;
  const bool depthwise = p.groups == C && p.groups > 1 && OC == C;
  if (depthwise && g.KH == 3 && g.KW == 3 && g.DH == 1 && g.DW == 1 && !res) {
    kernels::ConvGeom dg = g;
    dg.C = 1;
    // Threads take whole planes (image n, channel c): a fixed split, the same result for any count.
    auto planes = [&](size_t i0, size_t i1) {
      for (size_t i = i0; i < i1; ++i) {
        const int64_t n = static_cast<int64_t>(i) / C, c = static_cast<int64_t>(i) % C;
        kernels::f32_dwconv3x3_plane(dg, x.data<float>() + (n * C + c) * g.H * g.W, w.data<float>() + c * 9,
                                     bias ? bias[c] : 0.0f, out.data<float>() + (n * OC + c) * pix, lo, hi);
      }
    };
    const size_t count = static_cast<size_t>(N * C);
    if (kernels::worth_parallel(9.0 * double(count) * double(pix)))
      kernels::parallel_for(count, planes);
    else
      planes(0, count);
    return true;
  }
  if (p.groups == C && p.groups > 1) {  // depthwise with a channel multiplier or another kernel shape
    kernels::ConvGeom dg = g;
    dg.C = C;
    for (int64_t n = 0; n < N; ++n)
      kernels::conv_depthwise<float>(dg, OC / C, x.data<float>() + n * C * g.H * g.W, w.data<float>(), bias,
                                     out.data<float>() + n * OC * pix);
    return false;
  }
  if (packed && packed->winograd.defined()) {  // the weight exists only in this form (BatchNorm folded in)
    kernels::ConvGeom wg = g;
    wg.C = C;
    FX_CHECK(p.groups == 1 && kernels::f32_winograd_applies(wg, static_cast<size_t>(OC)),
             "a Winograd-packed weight given to another convolution");
    for (int64_t n = 0; n < N; ++n) {
      kernels::ConvEpilogue e;
      e.min = lo, e.max = hi;
      e.residual = res ? res + n * OC * pix : nullptr;
      kernels::f32_conv3x3_winograd(wg, static_cast<size_t>(OC), x.data<float>() + n * C * g.H * g.W,
                                    packed->winograd.data<float>(), out.data<float>() + n * OC * pix, e);
    }
    return true;
  }
  // Packed per group (bias and scale inside), or the weight as it is: the prepared one with a folded
  // BatchNorm's scale, or the one given (nothing copied per call either way).
  const bool have_groups = packed && static_cast<int64_t>(packed->groups.size()) == p.groups;
  const bool have_weight = packed && packed->weight.defined();
  const float* wd = have_weight ? packed->weight.data<float>() : w.data<float>();
  const float* scale = have_weight && packed->scale.defined() ? packed->scale.data<float>() : nullptr;
  const auto layout = have_groups ? kernels::ConvWeightLayout::kPacked : kernels::ConvWeightLayout::kTorch;
  kernels::ConvGeom gg = g;
  gg.C = cg;
  for (int64_t gi = 0; gi < p.groups; ++gi) {
    const float* pw = have_groups ? packed->groups[gi].data<float>() : wd + gi * ocg * kc;
    for (int64_t n = 0; n < N; ++n) {
      kernels::ConvEpilogue e;
      if (!have_groups) {
        e.scale = scale ? scale + gi * ocg : nullptr;
        e.bias = bias ? bias + gi * ocg : nullptr;
      }
      e.min = lo, e.max = hi;
      const int64_t off = (n * OC + gi * ocg) * pix;
      e.residual = res ? res + off : nullptr;
      kernels::f32_conv2d_nchw(gg, ocg, x.data<float>() + (n * C + gi * cg) * g.H * g.W, pw, layout,
                               out.data<float>() + off, e);
    }
  }
  return true;
}

// float64 (and the reference shape of every path): depthwise loop; 1×1 stride-1 as out = W·x; im2row + GEMM.
template <typename T>
void conv_images(const Tensor& x, const Tensor& w, const T* bias, const ConvParams& p, kernels::ConvGeom g,
                 Tensor& out) {
  const int64_t N = x.shape()[0], C = x.shape()[1], OC = w.shape()[0];
  const int64_t cg = C / p.groups, ocg = OC / p.groups, kk = g.KH * g.KW, kc = cg * kk, pix = g.OH * g.OW;
  const bool depthwise = p.groups == C && p.groups > 1;
  const bool pointwise = kk == 1 && g.SH == 1 && g.SW == 1 && g.PH == 0 && g.PW == 0 && g.OH == g.H && g.OW == g.W;
  std::vector<T> rows, tmp;
  if (!depthwise && !pointwise) {
    rows.resize(static_cast<size_t>(pix * kc));
    tmp.resize(static_cast<size_t>(pix * ocg));
  }
  for (int64_t n = 0; n < N; ++n) {
    const T* xn = x.data<T>() + n * C * g.H * g.W;
    T* on = out.data<T>() + n * OC * pix;
    if (depthwise) {
      kernels::ConvGeom dg = g;
      dg.C = C;
      kernels::conv_depthwise<T>(dg, OC / C, xn, w.data<T>(), bias, on);
      continue;
    }
    for (int64_t gi = 0; gi < p.groups; ++gi) {
      const T* xg = xn + gi * cg * g.H * g.W;
      const T* wg = w.data<T>() + gi * ocg * kc;
      const T* bg = bias ? bias + gi * ocg : nullptr;
      T* og = on + gi * ocg * pix;
      if (pointwise) {  // out_g [ocg, pix] = W_g [ocg, cg] · x_g [cg, pix], bias prefilled per row
        for (int64_t oc = 0; oc < ocg; ++oc) std::fill(og + oc * pix, og + (oc + 1) * pix, bg ? bg[oc] : T(0));
        gemm_views<T>(ocg, pix, cg, wg, cg, 1, xg, pix, 1, og, pix, nullptr, T(1));
        continue;
      }
      kernels::ConvGeom gg = g;
      gg.C = cg;
      kernels::im2row<T>(gg, xg, rows.data());
      gemm_views<T>(pix, ocg, kc, rows.data(), kc, 1, wg, 1, kc, tmp.data(), ocg, bg);
      transpose_into(tmp.data(), pix, ocg, og);
    }
  }
}

// An epilogue the path did not fuse, applied to the finished output.
template <typename T>
void apply_epilogue(const ConvEpilogueSpec& e, Tensor& out) {
  T* o = out.data<T>();
  const int64_t n = out.numel();
  if (e.residual.defined()) {
    const float* r = e.residual.data<float>();
    for (int64_t i = 0; i < n; ++i) o[i] += static_cast<T>(r[i]);
  }
  const T lo = static_cast<T>(e.min), hi = static_cast<T>(e.max);
  for (int64_t i = 0; i < n; ++i) o[i] = o[i] < lo ? lo : (o[i] > hi ? hi : o[i]);
}

template <typename T>
void conv_transposed_images(const Tensor& x, const Tensor& w, const T* bias, const ConvParams& p,
                            kernels::ConvGeom g, Tensor& out) {
  // g: C/H/W describe one group of the output image, OH/OW the input grid.
  const int64_t N = x.shape()[0], Cin = x.shape()[1], cin_g = Cin / p.groups, ocg = w.shape()[1];
  const int64_t OC = ocg * p.groups, kk = g.KH * g.KW, in_pix = g.OH * g.OW, out_pix = g.H * g.W;
  std::vector<T> rows(static_cast<size_t>(in_pix * ocg * kk));
  std::fill(out.data<T>(), out.data<T>() + out.numel(), T(0));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t gi = 0; gi < p.groups; ++gi) {
      const T* xg = x.data<T>() + (n * Cin + gi * cin_g) * in_pix;
      const T* wg = w.data<T>() + gi * cin_g * ocg * kk;
      // rows [in_pix, ocg·kk] = x_gᵀ [in_pix, cin_g] · W_g [cin_g, ocg·kk]
      gemm_views<T>(in_pix, ocg * kk, cin_g, xg, 1, in_pix, wg, ocg * kk, 1, rows.data(), ocg * kk);
      T* og = out.data<T>() + (n * OC + gi * ocg) * out_pix;
      kernels::row2im_add<T>(g, rows.data(), og);
    }
  if (bias)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t oc = 0; oc < OC; ++oc) {
        T* o = out.data<T>() + (n * OC + oc) * out_pix;
        for (int64_t i = 0; i < out_pix; ++i) o[i] += bias[oc];
      }
}

}  // namespace

PackedConv pack_conv_weight(const Tensor& weight, const Tensor& bias0, const ConvParams& p, const float* scale) {
  PackedConv pc;
  if (p.transposed || weight.dtype() != DType::Float32 || weight.dim() < 3) return pc;
  if (bias0.defined() && (bias0.dtype() != DType::Float32 || bias0.numel() != weight.shape()[0])) return pc;
  const int64_t OC = weight.shape()[0], cg = weight.shape()[1];
  int64_t kk = 1;
  for (int64_t d = 2; d < weight.dim(); ++d) kk *= weight.shape()[d];
  if (p.groups <= 0 || OC % p.groups != 0) return pc;
  const int64_t ocg = OC / p.groups, kc = cg * kk;
  if (cg == 1 && p.groups > 1) return pc;  // depthwise reads the weight as it is
  Tensor w = weight.contiguous();
  Tensor b = bias0.defined() ? bias0.contiguous() : Tensor();
  if (p.groups == 1 && weight.dim() == 4) {
    kernels::ConvGeom geom;
    geom.C = cg, geom.KH = weight.shape()[2], geom.KW = weight.shape()[3];
    geom.SH = p.stride[0], geom.SW = p.stride[1], geom.DH = p.dilation[0], geom.DW = p.dilation[1];
    if (kernels::f32_winograd_applies(geom, static_cast<size_t>(OC))) {
      pc.winograd = Tensor::empty({static_cast<int64_t>(kernels::f32_winograd_packed_w_size(OC, cg))}, DType::Float32);
      kernels::f32_winograd_pack_w(OC, cg, w.data<float>(), b.defined() ? b.data<float>() : nullptr,
                                   pc.winograd.data<float>(), scale);
      return pc;
    }
  }
  if (static_cast<size_t>(kc) < kernels::kConvPackMaxKc) {
    for (int64_t g = 0; g < p.groups; ++g) {
      Tensor packed = Tensor::empty({static_cast<int64_t>(kernels::f32_conv_packed_w_size(ocg, kc))}, DType::Float32);
      kernels::f32_conv_pack_w(ocg, kc, w.data<float>() + g * ocg * kc,
                               b.defined() ? b.data<float>() + g * ocg : nullptr, packed.data<float>(),
                               scale ? scale + g * ocg : nullptr);
      pc.groups.push_back(packed);
    }
    return pc;
  }
  pc.weight = w;
  if (scale) {
    pc.scale = Tensor::empty({OC}, DType::Float32);
    std::copy(scale, scale + OC, pc.scale.data<float>());
  }
  return pc;
}

Tensor conv_forward(const Tensor& input, const Tensor& weight, const Tensor& bias0, const ConvParams& p,
                    const PackedConv* packed, const ConvEpilogueSpec* epilogue) {
  const int64_t sp = p.spatial;
  const std::string name = std::string(p.transposed ? "conv_transpose" : "conv") + std::to_string(sp) + "d";
  if (weight.dim() != sp + 2)
    throw FxError("weight should have at least three dimensions (" + name + " expects a " +
                  std::to_string(sp + 2) + "-D weight, got " + shape_to_string(weight.shape()) + ")");
  const bool unbatched = input.dim() == sp + 1;
  if (input.dim() != sp + 2 && !unbatched)
    throw FxError("Expected " + std::to_string(sp + 1) + "D (unbatched) or " + std::to_string(sp + 2) +
                  "D (batched) input to " + name + ", but got input of size: " + shape_to_string(input.shape()));
  if (input.dtype() != weight.dtype())
    throw FxError(std::string("Input type (") + dtype_name(input.dtype()) + ") and weight type (" +
                  dtype_name(weight.dtype()) + ") should be the same");
  const DType original = input.dtype();
  if (original == DType::Bool && !p.transposed) throw FxError("\"slow_conv2d_cpu\" not implemented for 'Bool'");
  if (dtype_is_integral(original))
    return conv_as_3d(input, weight, bias0, sp, p.stride, p.pad_begin, p.pad_end, p.dilation, p.output_padding,
                      p.groups, p.transposed);
  Tensor x = float_contiguous(input, name.c_str());
  Tensor w = to_dtype(weight, x.dtype()).contiguous();
  if (unbatched) {
    Shape s = x.shape();
    s.insert(s.begin(), 1);
    x = view_as_shape(x, s);
  }
  const int64_t C = x.shape()[1];
  const int64_t groups = p.groups;
  Tensor x4 = to_4d(x, sp), w4 = to_4d(w, sp);
  kernels::ConvGeom g;
  g.H = x4.shape()[2], g.W = x4.shape()[3];
  g.KH = w4.shape()[2], g.KW = w4.shape()[3];
  g.SH = sp == 2 ? p.stride[0] : 1, g.SW = p.stride.back();
  g.DH = sp == 2 ? p.dilation[0] : 1, g.DW = p.dilation.back();
  g.PH = sp == 2 ? p.pad_begin[0] : 0, g.PW = p.pad_begin.back();
  const int64_t PHe = sp == 2 ? p.pad_end[0] : 0, PWe = p.pad_end.back();
  Tensor bias;
  Shape out_shape;
  if (w.shape()[0] < groups)  // (also keeps w.shape()[1] * groups below from overflowing)
    throw FxError("Given groups=" + std::to_string(groups) + ", expected weight to be at least " +
                  std::to_string(groups) + " at dimension 0, but got weight of size " + shape_to_string(w.shape()) +
                  " instead");
  if (!p.transposed) {
    const int64_t OC = w.shape()[0];
    if (C != w.shape()[1] * groups)
      throw FxError("Given groups=" + std::to_string(groups) + ", weight of size " + shape_to_string(w.shape()) +
                    ", expected input" + shape_to_string(input.shape()) + " to have " +
                    std::to_string(w.shape()[1] * groups) + " channels, but got " + std::to_string(C) +
                    " channels instead");
    if (OC % groups != 0)
      throw FxError("Given groups=" + std::to_string(groups) + ", expected weight to be divisible by " +
                    std::to_string(groups) + " at dimension 0, but got weight of size " +
                    shape_to_string(w.shape()) + " instead");
    const char* what = "conv output size";
    const int64_t padded_h = checked_add(g.H, checked_add(g.PH, PHe, what), what);
    const int64_t padded_w = checked_add(g.W, checked_add(g.PW, PWe, what), what);
    const int64_t span_h = checked_add(checked_mul(g.DH, g.KH - 1, what), 1, what);
    const int64_t span_w = checked_add(checked_mul(g.DW, g.KW - 1, what), 1, what);
    if (padded_h < span_h || padded_w < span_w)
      throw FxError("Calculated padded input size per channel: (" + std::to_string(padded_h) + " x " +
                    std::to_string(padded_w) + "). Kernel size: (" + std::to_string(span_h) +
                    " x " + std::to_string(span_w) + "). Kernel size can't be greater than actual input size");
    g.OH = checked_window_out(g.H, g.PH + PHe, g.KH, g.SH, g.DH, what);
    g.OW = checked_window_out(g.W, g.PW + PWe, g.KW, g.SW, g.DW, what);
    out_shape = {x.shape()[0], OC, g.OH, g.OW};
  } else {
    if (C != w.shape()[0])
      throw FxError("Given transposed=1, weight of size " + shape_to_string(w.shape()) + ", expected input" +
                    shape_to_string(input.shape()) + " to have " + std::to_string(w.shape()[0]) +
                    " channels, but got " + std::to_string(C) + " channels instead");
    if (C % groups != 0) throw FxError("Given groups=" + std::to_string(groups) + ", input channels not divisible");
    const int64_t OPH = sp == 2 ? p.output_padding[0] : 0, OPW = p.output_padding.back();
    const char* what = "conv_transpose output size";
    auto out_len = [&](int64_t in, int64_t s, int64_t pb, int64_t pe, int64_t d, int64_t k, int64_t op) {
      const int64_t grown = checked_sub(checked_mul(in - 1, s, what), checked_add(pb, pe, what), what);
      return checked_add(grown, checked_add(checked_add(checked_mul(d, k - 1, what), op, what), 1, what), what);
    };
    const int64_t OH = out_len(g.H, g.SH, g.PH, PHe, g.DH, g.KH, OPH);
    const int64_t OW = out_len(g.W, g.SW, g.PW, PWe, g.DW, g.KW, OPW);
    if (OPH >= std::max(g.SH, g.DH) || OPW >= std::max(g.SW, g.DW))
      throw FxError("output padding must be smaller than either stride or dilation");
    if (OH <= 0 || OW <= 0) throw FxError(name + ": output size is too small");
    out_shape = {x.shape()[0], w.shape()[1] * groups, OH, OW};
    // Re-describe for row2im: the image is the output, the grid the input.
    g.OH = g.H, g.OW = g.W;
    g.H = OH, g.W = OW, g.C = w.shape()[1];
  }
  if (bias0.defined()) {
    if (bias0.numel() != out_shape[1])
      throw FxError("Given weight of size " + shape_to_string(w.shape()) + ", expected bias to be 1-dimensional with " +
                    std::to_string(out_shape[1]) + " elements, but got bias of size " +
                    shape_to_string(bias0.shape()) + " instead");
    bias = to_dtype(bias0, x.dtype()).contiguous();
  }
  Shape final_shape = out_shape;
  if (sp == 1) final_shape.erase(final_shape.begin() + 2);
  if (unbatched) final_shape.erase(final_shape.begin());
  ConvEpilogueSpec epi;
  if (epilogue) {
    epi = *epilogue;
    if (epi.residual.defined()) {
      if (epi.residual.dtype() != DType::Float32 || epi.residual.shape() != final_shape)
        throw FxError(name + ": fused residual of shape " + shape_to_string(epi.residual.shape()) +
                      " does not match the output " + shape_to_string(final_shape));
      epi.residual = epi.residual.contiguous();
    }
  }
  Tensor out = Tensor::empty(out_shape, x.dtype());
  bool fused = false;
  dispatch_float(x.dtype(), name.c_str(), [&](auto tag) {
    using T = decltype(tag);
    const T* b = bias.defined() ? bias.data<T>() : nullptr;
    if (p.transposed) {
      conv_transposed_images<T>(x4, w4, b, p, g, out);
    } else if constexpr (std::is_same_v<T, float>) {
      fused = conv_images_f32(x4, w4, b, p, packed, epilogue ? &epi : nullptr, g, out);
    } else {
      conv_images<T>(x4, w4, b, p, g, out);
    }
    if (epilogue && !fused) apply_epilogue<T>(epi, out);
  });
  return restore_dtype(view_as_shape(out, final_shape), original);
}

}  // namespace fx
