// Convolution pieces on raw pointers, for one image of one group (the op layer loops over both):
// im2row (patches as rows, so a GEMM against the weight in its own [OC, C·KH·KW] layout gives
// [pixels, OC]), its adjoint row2im_add for transposed convolution, a depthwise loop, and a direct
// scalar reference every path is tested against. 1-D convolutions use these with H = 1.
#pragma once
#include <cstdint>

namespace fx::kernels {

struct ConvGeom {
  int64_t C = 0, H = 0, W = 0;     // channels and spatial size of the image side (input for conv)
  int64_t KH = 1, KW = 1;          // kernel
  int64_t SH = 1, SW = 1;          // stride
  int64_t PH = 0, PW = 0;          // top/left padding (bottom/right is implied by OH/OW)
  int64_t DH = 1, DW = 1;          // dilation
  int64_t OH = 0, OW = 0;          // output spatial size
};

// rows[(oh·OW + ow), (c·KH + kh)·KW + kw] = x[c, oh·SH − PH + kh·DH, ow·SW − PW + kw·DW], 0 outside.
template <typename T>
void im2row(const ConvGeom& g, const T* x, T* rows) {
  const int64_t kc = g.C * g.KH * g.KW;
  for (int64_t oh = 0; oh < g.OH; ++oh)
    for (int64_t ow = 0; ow < g.OW; ++ow) {
      T* r = rows + (oh * g.OW + ow) * kc;
      for (int64_t c = 0; c < g.C; ++c)
        for (int64_t kh = 0; kh < g.KH; ++kh) {
          const int64_t ih = oh * g.SH - g.PH + kh * g.DH;
          const bool row_in = ih >= 0 && ih < g.H;
          const T* xr = x + (c * g.H + ih) * g.W;
          for (int64_t kw = 0; kw < g.KW; ++kw) {
            const int64_t iw = ow * g.SW - g.PW + kw * g.DW;
            *r++ = (row_in && iw >= 0 && iw < g.W) ? xr[iw] : T(0);
          }
        }
    }
}

// The adjoint of im2row, for transposed convolution: g describes the *output* image (C, H, W) and the
// input grid (OH, OW) the rows come from; out[c, ih·SH − PH + kh·DH, ...] += rows[(ih·OW + iw), ...].
template <typename T>
void row2im_add(const ConvGeom& g, const T* rows, T* out) {
  for (int64_t ih = 0; ih < g.OH; ++ih)
    for (int64_t iw = 0; iw < g.OW; ++iw) {
      const T* r = rows + (ih * g.OW + iw) * g.C * g.KH * g.KW;
      for (int64_t c = 0; c < g.C; ++c)
        for (int64_t kh = 0; kh < g.KH; ++kh) {
          const int64_t oh = ih * g.SH - g.PH + kh * g.DH;
          const bool row_in = oh >= 0 && oh < g.H;
          T* orow = out + (c * g.H + oh) * g.W;
          for (int64_t kw = 0; kw < g.KW; ++kw, ++r) {
            const int64_t ow = iw * g.SW - g.PW + kw * g.DW;
            if (row_in && ow >= 0 && ow < g.W) orow[ow] += *r;
          }
        }
    }
}

// Depthwise: output channel c·mult + m reads only input channel c. x [C, H, W], w [C·mult, KH, KW],
// out [C·mult, OH, OW]; bias may be null. Interior pixels skip the bounds checks.
template <typename T>
void conv_depthwise(const ConvGeom& g, int64_t mult, const T* x, const T* w, const T* bias, T* out) {
  for (int64_t oc = 0; oc < g.C * mult; ++oc) {
    const T* xc = x + (oc / mult) * g.H * g.W;
    const T* wc = w + oc * g.KH * g.KW;
    T* o = out + oc * g.OH * g.OW;
    const T b = bias ? bias[oc] : T(0);
    for (int64_t oh = 0; oh < g.OH; ++oh) {
      const int64_t ih0 = oh * g.SH - g.PH;
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        const int64_t iw0 = ow * g.SW - g.PW;
        T acc = b;
        const bool inside = ih0 >= 0 && ih0 + (g.KH - 1) * g.DH < g.H && iw0 >= 0 && iw0 + (g.KW - 1) * g.DW < g.W;
        if (inside) {
          for (int64_t kh = 0; kh < g.KH; ++kh) {
            const T* xr = xc + (ih0 + kh * g.DH) * g.W + iw0;
            const T* wr = wc + kh * g.KW;
            for (int64_t kw = 0; kw < g.KW; ++kw) acc += xr[kw * g.DW] * wr[kw];
          }
        } else {
          for (int64_t kh = 0; kh < g.KH; ++kh) {
            const int64_t ih = ih0 + kh * g.DH;
            if (ih < 0 || ih >= g.H) continue;
            for (int64_t kw = 0; kw < g.KW; ++kw) {
              const int64_t iw = iw0 + kw * g.DW;
              if (iw >= 0 && iw < g.W) acc += xc[ih * g.W + iw] * wc[kh * g.KW + kw];
            }
          }
        }
        o[oh * g.OW + ow] = acc;
      }
    }
  }
}

// Direct reference: x [C, H, W] (all channels of the image), w [OC, C/groups, KH, KW], out [OC, OH, OW].
template <typename T>
void conv2d_reference(const ConvGeom& g, int64_t OC, int64_t groups, const T* x, const T* w, const T* bias, T* out) {
  const int64_t cg = g.C / groups, ocg = OC / groups;
  for (int64_t oc = 0; oc < OC; ++oc)
    for (int64_t oh = 0; oh < g.OH; ++oh)
      for (int64_t ow = 0; ow < g.OW; ++ow) {
        double acc = bias ? bias[oc] : 0.0;
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t kh = 0; kh < g.KH; ++kh)
            for (int64_t kw = 0; kw < g.KW; ++kw) {
              const int64_t ih = oh * g.SH - g.PH + kh * g.DH, iw = ow * g.SW - g.PW + kw * g.DW;
              if (ih < 0 || ih >= g.H || iw < 0 || iw >= g.W) continue;
              acc += double(x[((oc / ocg) * cg + c) * g.H * g.W + ih * g.W + iw]) *
                     double(w[((oc * cg + c) * g.KH + kh) * g.KW + kw]);
            }
        out[(oc * g.OH + oh) * g.OW + ow] = static_cast<T>(acc);
      }
}

}  // namespace fx::kernels
