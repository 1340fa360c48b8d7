// Pooling over one [D, H, W] volume with torch's window rules (as kernels/pool.h for planes): max pooling
// skips padding and lets NaN win, indices are flat d·H·W + h·W + w; average pooling's divisor counts
// padding unless told not to; adaptive windows are [floor(o·I/O), ceil((o+1)·I/O)).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fx::kernels {

struct Pool3dGeom {
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1},
          out[3] = {1, 1, 1};
};

// indices may be null.
template <typename T>
void max_pool3d_volume(const Pool3dGeom& g, const T* x, T* out, int64_t* indices) {
  const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
  int64_t o = 0;
  for (int64_t od = 0; od < g.out[0]; ++od)
    for (int64_t oh = 0; oh < g.out[1]; ++oh)
      for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
        int64_t lo[3] = {od * g.s[0] - g.p[0], oh * g.s[1] - g.p[1], ow * g.s[2] - g.p[2]}, hi[3];
        for (int i = 0; i < 3; ++i) {
          hi[i] = std::min(lo[i] + (g.k[i] - 1) * g.d[i] + 1, g.in[i]);
          while (lo[i] < 0) lo[i] += g.d[i];
        }
        T best = -std::numeric_limits<T>::infinity();
        int64_t best_i = (lo[0] * H + lo[1]) * W + lo[2];
        for (int64_t a = lo[0]; a < hi[0]; a += g.d[0])
          for (int64_t b = lo[1]; b < hi[1]; b += g.d[1])
            for (int64_t c = lo[2]; c < hi[2]; c += g.d[2]) {
              const int64_t i = (a * H + b) * W + c;
              const T v = x[i];
              if (v > best || std::isnan(v)) best = v, best_i = i;
            }
        out[o] = best;
        if (indices) indices[o] = best_i;
      }
  (void)D;
}

// divisor_override 0 means none; any other value divides every window, negative ones too (as torch does).
template <typename T>
void avg_pool3d_volume(const Pool3dGeom& g, const T* x, T* out, bool count_include_pad, int64_t divisor_override) {
  const int64_t H = g.in[1], W = g.in[2];
  int64_t o = 0;
  for (int64_t od = 0; od < g.out[0]; ++od)
    for (int64_t oh = 0; oh < g.out[1]; ++oh)
      for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
        const int64_t idx[3] = {od, oh, ow};
        int64_t lo[3], hi[3], pool_size = 1, count = 1;
        for (int i = 0; i < 3; ++i) {
          lo[i] = idx[i] * g.s[i] - g.p[i];
          hi[i] = std::min(lo[i] + g.k[i], g.in[i] + g.p[i]);
          pool_size *= hi[i] - lo[i];
          lo[i] = std::max<int64_t>(lo[i], 0);
          hi[i] = std::min(hi[i], g.in[i]);
          count *= std::max<int64_t>(hi[i] - lo[i], 0);
        }
        if (count == 0) {
          out[o] = T(0);
          continue;
        }
        T sum = T(0);
        for (int64_t a = lo[0]; a < hi[0]; ++a)
          for (int64_t b = lo[1]; b < hi[1]; ++b)
            for (int64_t c = lo[2]; c < hi[2]; ++c) sum += x[(a * H + b) * W + c];
        const int64_t div = divisor_override != 0 ? divisor_override : count_include_pad ? pool_size : count;
        out[o] = sum / static_cast<T>(div);
      }
}

inline int64_t adaptive3d_start(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
inline int64_t adaptive3d_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

// indices null: average; else max with flat indices.
template <typename T>
void adaptive_pool3d_volume(const Pool3dGeom& g, const T* x, T* out, int64_t* indices) {
  const int64_t H = g.in[1], W = g.in[2];
  int64_t o = 0;
  for (int64_t od = 0; od < g.out[0]; ++od)
    for (int64_t oh = 0; oh < g.out[1]; ++oh)
      for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
        const int64_t idx[3] = {od, oh, ow};
        int64_t lo[3], hi[3];
        for (int i = 0; i < 3; ++i)
          lo[i] = adaptive3d_start(idx[i], g.in[i], g.out[i]), hi[i] = adaptive3d_end(idx[i], g.in[i], g.out[i]);
        T acc = indices ? -std::numeric_limits<T>::infinity() : T(0);
        int64_t best_i = (lo[0] * H + lo[1]) * W + lo[2];
        for (int64_t a = lo[0]; a < hi[0]; ++a)
          for (int64_t b = lo[1]; b < hi[1]; ++b)
            for (int64_t c = lo[2]; c < hi[2]; ++c) {
              const int64_t i = (a * H + b) * W + c;
              const T v = x[i];
              if (!indices) acc += v;
              else if (v > acc || std::isnan(v)) acc = v, best_i = i;
            }
        if (indices) {
          out[o] = acc;
          indices[o] = best_i;
        } else {
          out[o] = acc / static_cast<T>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
        }
      }
}

}  // namespace fx::kernels
