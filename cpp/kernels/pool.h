// Pooling over one [H, W] plane (1-D pooling uses H = 1), with torch's window rules: max pooling skips
// padding and lets NaN win; average pooling's divisor counts padding unless told not to; adaptive
// windows are [floor(o·I/O), ceil((o+1)·I/O)).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fx::kernels {

struct PoolGeom {
  int64_t H = 1, W = 1, KH = 1, KW = 1, SH = 1, SW = 1, PH = 0, PW = 0, DH = 1, DW = 1, OH = 1, OW = 1;
};

// indices (flat h·W + w into the plane) may be null.
template <typename T>
void max_pool_plane(const PoolGeom& g, const T* x, T* out, int64_t* indices) {
  for (int64_t oh = 0; oh < g.OH; ++oh) {
    int64_t h0 = oh * g.SH - g.PH;
    const int64_t h1 = std::min(h0 + (g.KH - 1) * g.DH + 1, g.H);
    while (h0 < 0) h0 += g.DH;
    for (int64_t ow = 0; ow < g.OW; ++ow) {
      int64_t w0 = ow * g.SW - g.PW;
      const int64_t w1 = std::min(w0 + (g.KW - 1) * g.DW + 1, g.W);
      while (w0 < 0) w0 += g.DW;
      T best = -std::numeric_limits<T>::infinity();
      int64_t best_i = h0 * g.W + w0;
      for (int64_t h = h0; h < h1; h += g.DH)
        for (int64_t w = w0; w < w1; w += g.DW) {
          const T v = x[h * g.W + w];
          if (v > best || std::isnan(v)) {
            best = v;
            best_i = h * g.W + w;
          }
        }
      out[oh * g.OW + ow] = best;
      if (indices) indices[oh * g.OW + ow] = best_i;
    }
  }
}

// divisor_override 0 means none; any other value divides every window, negative ones too (as torch does).
template <typename T>
void avg_pool_plane(const PoolGeom& g, const T* x, T* out, bool count_include_pad, int64_t divisor_override) {
  for (int64_t oh = 0; oh < g.OH; ++oh)
    for (int64_t ow = 0; ow < g.OW; ++ow) {
      int64_t h0 = oh * g.SH - g.PH, w0 = ow * g.SW - g.PW;
      int64_t h1 = std::min(h0 + g.KH, g.H + g.PH), w1 = std::min(w0 + g.KW, g.W + g.PW);
      const int64_t pool_size = (h1 - h0) * (w1 - w0);
      h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
      h1 = std::min(h1, g.H), w1 = std::min(w1, g.W);
      if (h0 >= h1 || w0 >= w1) {
        out[oh * g.OW + ow] = T(0);
        continue;
      }
      T sum = T(0);
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) sum += x[h * g.W + w];
      const int64_t div = divisor_override != 0 ? divisor_override
                                               : count_include_pad ? pool_size : (h1 - h0) * (w1 - w0);
      out[oh * g.OW + ow] = sum / static_cast<T>(div);
    }
}

inline int64_t adaptive_start(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
inline int64_t adaptive_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

template <typename T>
void adaptive_avg_plane(const T* x, int64_t H, int64_t W, int64_t OH, int64_t OW, T* out) {
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t h0 = adaptive_start(oh, H, OH), h1 = adaptive_end(oh, H, OH);
    for (int64_t ow = 0; ow < OW; ++ow) {
      const int64_t w0 = adaptive_start(ow, W, OW), w1 = adaptive_end(ow, W, OW);
      T sum = T(0);
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) sum += x[h * W + w];
      out[oh * OW + ow] = sum / static_cast<T>((h1 - h0) * (w1 - w0));
    }
  }
}

template <typename T>
void adaptive_max_plane(const T* x, int64_t H, int64_t W, int64_t OH, int64_t OW, T* out, int64_t* indices) {
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t h0 = adaptive_start(oh, H, OH), h1 = adaptive_end(oh, H, OH);
    for (int64_t ow = 0; ow < OW; ++ow) {
      const int64_t w0 = adaptive_start(ow, W, OW), w1 = adaptive_end(ow, W, OW);
      T best = -std::numeric_limits<T>::infinity();
      int64_t best_i = h0 * W + w0;
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) {
          const T v = x[h * W + w];
          if (v > best || std::isnan(v)) {
            best = v;
            best_i = h * W + w;
          }
        }
      out[oh * OW + ow] = best;
      if (indices) indices[oh * OW + ow] = best_i;
    }
  }
}

}  // namespace fx::kernels
