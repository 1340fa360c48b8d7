// Reference 3-D convolution over NCDHW (direct loops, accumulated in T): forward and transposed, with
// stride, zero padding, dilation and groups. Weight layouts are torch's: [OC, IC/groups, kD, kH, kW]
// forward, [IC, OC/groups, kD, kH, kW] transposed.
#pragma once
#include <cstdint>

namespace fx::kernels {

struct Conv3dGeom {
  int64_t N = 1, C = 1, OC = 1, groups = 1;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1},
          out[3] = {1, 1, 1};
};

template <typename T>
void conv3d_forward(const Conv3dGeom& g, const T* x, const T* w, const T* bias, T* y) {
  const int64_t icg = g.C / g.groups, ocg = g.OC / g.groups;
  const int64_t in_vol = g.in[0] * g.in[1] * g.in[2], out_vol = g.out[0] * g.out[1] * g.out[2];
  const int64_t kvol = g.k[0] * g.k[1] * g.k[2];
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t oc = 0; oc < g.OC; ++oc) {
      const int64_t grp = oc / ocg;
      T* yo = y + (n * g.OC + oc) * out_vol;
      for (int64_t od = 0; od < g.out[0]; ++od)
        for (int64_t oh = 0; oh < g.out[1]; ++oh)
          for (int64_t ow = 0; ow < g.out[2]; ++ow) {
            T acc = T(0);
            for (int64_t ic = 0; ic < icg; ++ic) {
              const T* xc = x + (n * g.C + grp * icg + ic) * in_vol;
              const T* wc = w + (oc * icg + ic) * kvol;
              for (int64_t kd = 0; kd < g.k[0]; ++kd) {
                const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0];
                if (id < 0 || id >= g.in[0]) continue;
                for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                  const int64_t ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
                  if (ih < 0 || ih >= g.in[1]) continue;
                  for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                    const int64_t iw = ow * g.s[2] - g.p[2] + kw * g.d[2];
                    if (iw < 0 || iw >= g.in[2]) continue;
                    acc += xc[(id * g.in[1] + ih) * g.in[2] + iw] * wc[(kd * g.k[1] + kh) * g.k[2] + kw];
                  }
                }
              }
            }
            yo[(od * g.out[1] + oh) * g.out[2] + ow] = acc + (bias ? bias[oc] : T(0));
          }
    }
}

template <typename T>
void conv_transpose3d_forward(const Conv3dGeom& g, const T* x, const T* w, const T* bias, T* y) {
  const int64_t icg = g.C / g.groups, ocg = g.OC / g.groups;
  const int64_t in_vol = g.in[0] * g.in[1] * g.in[2], out_vol = g.out[0] * g.out[1] * g.out[2];
  const int64_t kvol = g.k[0] * g.k[1] * g.k[2];
  for (int64_t n = 0; n < g.N; ++n) {
    for (int64_t oc = 0; oc < g.OC; ++oc)
      for (int64_t i = 0; i < out_vol; ++i) y[(n * g.OC + oc) * out_vol + i] = T(0);
    for (int64_t ic = 0; ic < g.C; ++ic) {
      const int64_t grp = ic / icg;
      const T* xc = x + (n * g.C + ic) * in_vol;
      for (int64_t o = 0; o < ocg; ++o) {
        const int64_t oc = grp * ocg + o;
        const T* wc = w + (ic * ocg + o) * kvol;
        T* yo = y + (n * g.OC + oc) * out_vol;
        for (int64_t id = 0; id < g.in[0]; ++id)
          for (int64_t ih = 0; ih < g.in[1]; ++ih)
            for (int64_t iw = 0; iw < g.in[2]; ++iw) {
              const T v = xc[(id * g.in[1] + ih) * g.in[2] + iw];
              for (int64_t kd = 0; kd < g.k[0]; ++kd) {
                const int64_t od = id * g.s[0] - g.p[0] + kd * g.d[0];
                if (od < 0 || od >= g.out[0]) continue;
                for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                  const int64_t oh = ih * g.s[1] - g.p[1] + kh * g.d[1];
                  if (oh < 0 || oh >= g.out[1]) continue;
                  for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                    const int64_t ow = iw * g.s[2] - g.p[2] + kw * g.d[2];
                    if (ow < 0 || ow >= g.out[2]) continue;
                    yo[(od * g.out[1] + oh) * g.out[2] + ow] += v * wc[(kd * g.k[1] + kh) * g.k[2] + kw];
                  }
                }
              }
            }
      }
    }
    if (bias)
      for (int64_t oc = 0; oc < g.OC; ++oc)
        for (int64_t i = 0; i < out_vol; ++i) y[(n * g.OC + oc) * out_vol + i] += bias[oc];
  }
}

}  // namespace fx::kernels
