// grid_sample: input [N, C, (D,) H, W] read at the normalised coordinates of grid [N, (Dg,) Hg, Wg, 2|3]
// (x indexes W, y H, z D), by bilinear/trilinear, nearest or bicubic/tricubic interpolation, with
// padding_mode zeros/border/reflection — torch's GridSampler.h formulas. Names: F.grid_sample,
// torch.grid_sampler / aten.grid_sampler (int modes), aten.grid_sampler_2d / grid_sampler_3d.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

enum Mode { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding { kZeros = 0, kBorder = 1, kReflection = 2 };

template <typename T>
T unnormalize(T coord, int64_t size, bool align) {
  return align ? (coord + 1) / 2 * (size - 1) : ((coord + 1) * size - 1) / 2;
}

// Two sets of formulas, as torch has: its 4-d (2-d grid) CPU kernel is vectorized and its 5-d one scalar
// (GridSampler.h), and they differ on NaN, inf and huge coordinates. Finite, moderate coordinates give the
// same result from both.

// A coordinate as an index; NaN, inf and values beyond int64 land far outside any dim (torch's casts give
// INT_MIN there), and stay outside when a corner adds 1.
template <typename T>
int64_t to_index(T v) {
  return v > T(-4.6e18) && v < T(4.6e18) ? static_cast<int64_t>(v) : INT64_MIN / 2;
}

// Scalar (5-d): std::max(NaN, 0) is NaN and std::min(size - 1, NaN) is size - 1.
template <typename T>
T clip(T x, int64_t size) { return std::min(static_cast<T>(size - 1), std::max(x, static_cast<T>(0))); }

template <typename T>
T reflect(T in, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return 0;
  const T lo = static_cast<T>(twice_low) / 2, span = static_cast<T>(twice_high - twice_low) / 2;
  in = std::fabs(in - lo);
  const T extra = std::fmod(in, span);
  // torch casts the flip count to int: beyond int's range (and for NaN) that is INT_MIN, an even count.
  const T flips = std::floor(in / span);
  const bool even = !(flips >= T(-2147483648.0) && flips < T(2147483648.0)) || static_cast<int64_t>(flips) % 2 == 0;
  return even ? extra + lo : span - extra + lo;
}

// Vectorized (4-d): the clamp takes NaN to 0; the reflection folds |x| by the doubled span with
// trunc/multiply/subtract (exactly 0 for a huge x, NaN for inf, which the clamp then takes to 0).
template <typename T>
T clip_vec(T x, int64_t size) {
  const T lo = x > T(0) ? x : T(0);  // NaN → 0
  return lo < static_cast<T>(size - 1) ? lo : static_cast<T>(size - 1);
}

template <typename T>
T reflect_vec(T x, int64_t size, bool align) {
  const T twice_span = static_cast<T>(align ? 2 * (size - 1) : 2 * size);
  if (twice_span == T(0)) return 0;
  const T abs_in = std::fabs(align ? x : x + T(0.5));
  const T flips = std::trunc(abs_in / twice_span);
  const T extra = abs_in - flips * twice_span;
  const T other = twice_span - extra;
  const T folded = std::isnan(extra) || std::isnan(other) ? std::numeric_limits<T>::quiet_NaN()
                                                          : std::min(extra, other);
  return align ? folded : folded - T(0.5);
}

template <typename T, int S>
T padded(T x, int64_t size, int padding, bool align) {
  if constexpr (S == 2) {
    if (padding == kBorder) return clip_vec(x, size);
    if (padding == kReflection) return clip_vec(reflect_vec(x, size, align), size);
    return x;
  }
  if (padding == kBorder) return clip(x, size);
  if (padding == kReflection)
    return clip(align ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1), size);
  return x;
}

template <typename T>
T cubic1(T x, T A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }
template <typename T>
T cubic2(T x, T A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }
template <typename T>
T cubic_interp(T x0, T x1, T x2, T x3, T t) {
  const T A = static_cast<T>(-0.75);
  return x0 * cubic2(t + 1, A) + x1 * cubic1(t, A) + x2 * cubic1(1 - t, A) + x3 * cubic2(2 - t, A);
}

// Bicubic (A = -0.75) over the 4x4 taps around floor(coord) of one [H, W] plane, each tap's index padded.
template <typename T>
T bicubic_at(const T* plane, const int64_t* sz, const T* coord, int padding, bool align) {
  const T fy = std::floor(coord[0]), fx = std::floor(coord[1]);
  const T ty = coord[0] - fy, tx = coord[1] - fx;
  auto tap = [&](T y, T x) -> T {
    const int64_t iy = to_index(padded<T, 2>(y, sz[0], padding, align));
    const int64_t ix = to_index(padded<T, 2>(x, sz[1], padding, align));
    return iy >= 0 && iy < sz[0] && ix >= 0 && ix < sz[1] ? plane[iy * sz[1] + ix] : T(0);
  };
  T rows[4];
  for (int i = 0; i < 4; ++i) {
    const T y = fy - 1 + i;
    rows[i] = cubic_interp(tap(y, fx - 1), tap(y, fx), tap(y, fx + 1), tap(y, fx + 2), tx);
  }
  return cubic_interp(rows[0], rows[1], rows[2], rows[3], ty);
}

// Tricubic, the same over the 4x4x4 taps of a [D, H, W] volume (5-d input), with the scalar (5-d) padding
// formulas: x interpolated first, then y, then z.
template <typename T>
T tricubic_at(const T* vol, const int64_t* sz, const T* coord, int padding, bool align) {
  T f[3], t[3];
  for (int d = 0; d < 3; ++d) f[d] = std::floor(coord[d]), t[d] = coord[d] - f[d];
  auto tap = [&](T z, T y, T x) -> T {
    const int64_t iz = to_index(padded<T, 3>(z, sz[0], padding, align));
    const int64_t iy = to_index(padded<T, 3>(y, sz[1], padding, align));
    const int64_t ix = to_index(padded<T, 3>(x, sz[2], padding, align));
    return iz >= 0 && iz < sz[0] && iy >= 0 && iy < sz[1] && ix >= 0 && ix < sz[2]
               ? vol[(iz * sz[1] + iy) * sz[2] + ix] : T(0);
  };
  T planes[4];
  for (int k = 0; k < 4; ++k) {
    const T z = f[0] - 1 + k;
    T rows[4];
    for (int i = 0; i < 4; ++i) {
      const T y = f[1] - 1 + i;
      rows[i] = cubic_interp(tap(z, y, f[2] - 1), tap(z, y, f[2]), tap(z, y, f[2] + 1), tap(z, y, f[2] + 2), t[2]);
    }
    planes[k] = cubic_interp(rows[0], rows[1], rows[2], rows[3], t[1]);
  }
  return cubic_interp(planes[0], planes[1], planes[2], planes[3], t[0]);
}

// Scalar reference kernel. in: packed [N, C, sz[0..S)], grid: packed [N, gs[0..S), S] (coords x, y, z),
// out: packed [N, C, gs[0..S)]. S is 2 or 3.
template <typename T, int S>
void grid_sample_kernel(const T* in, const T* grid, T* out, int64_t N, int64_t C, const int64_t* sz,
                        const int64_t* gs, int mode, int padding, bool align) {
  int64_t in_plane = 1, out_plane = 1;
  for (int d = 0; d < S; ++d) in_plane *= sz[d], out_plane *= gs[d];
  auto inside = [&](const int64_t* idx) {
    for (int d = 0; d < S; ++d)
      if (idx[d] < 0 || idx[d] >= sz[d]) return false;
    return true;
  };
  auto offset = [&](const int64_t* idx) {
    int64_t o = 0;
    for (int d = 0; d < S; ++d) o = o * sz[d] + idx[d];
    return o;
  };
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t p = 0; p < out_plane; ++p) {
      const T* g = grid + (n * out_plane + p) * S;
      T coord[S];  // in input dim order: coord[S-1] is x (from g[0])
      for (int d = 0; d < S; ++d) coord[d] = unnormalize(g[S - 1 - d], sz[d], align);
      for (int64_t c = 0; c < C; ++c) {
        const T* plane = in + (n * C + c) * in_plane;
        T result = 0;
        if constexpr (S == 2) {
          if (mode == kBicubic) result = bicubic_at(plane, sz, coord, padding, align);
        } else {
          if (mode == kBicubic) result = tricubic_at(plane, sz, coord, padding, align);
        }
        if (mode != kBicubic) {
          T src[S];
          bool finite = true;
          for (int d = 0; d < S; ++d) {
            src[d] = padded<T, S>(coord[d], sz[d], padding, align);
            finite = finite && std::isfinite(src[d]);
          }
          if (mode == kNearest) {
            int64_t idx[S];
            for (int d = 0; d < S; ++d) idx[d] = to_index(std::nearbyint(src[d]));
            result = inside(idx) ? plane[offset(idx)] : T(0);
          } else if (S == 2 && !finite) {
            // the vectorized kernel's weights are NaN there (inf - inf), and 0 * NaN stays NaN
            result = std::numeric_limits<T>::quiet_NaN();
          } else {
            // Corners with x varying fastest (torch's nw, ne, sw, se / tnw … bse order).
            int64_t lo[S];
            for (int d = 0; d < S; ++d) lo[d] = to_index(std::floor(src[d]));
            for (int corner = 0; corner < (1 << S); ++corner) {
              int64_t idx[S];
              T w = 1;
              for (int d = 0; d < S; ++d) {
                const bool hi = (corner >> (S - 1 - d)) & 1;
                idx[d] = lo[d] + hi;
                w *= hi ? src[d] - static_cast<T>(lo[d]) : static_cast<T>(lo[d] + 1) - src[d];
              }
              if (inside(idx)) result += plane[offset(idx)] * w;
            }
          }
        }
        out[(n * C + c) * out_plane + p] = result;
      }
    }
  }
}

Tensor grid_sample_tensor(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding, bool align,
                          int want_dim) {
  const std::string sizes = "input with sizes " + shape_to_string(input.shape()) + " and grid with sizes " +
                            shape_to_string(grid.shape());
  // torch's check order: check_grid_sampler_common (by the input's rank), then the 2d/3d checks, then dtype.
  if (input.dim() < 2 || grid.dim() < 1)
    throw FxError("grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got " + sizes);
  if (input.shape()[0] != grid.shape()[0])
    throw FxError("grid_sampler(): expected grid and input to have same batch size, but got " + sizes);
  if (grid.shape().back() != input.dim() - 2)
    throw FxError("grid_sampler(): expected grid to have size " + std::to_string(input.dim() - 2) +
                  " in last dimension, but got grid with sizes " + shape_to_string(grid.shape()));
  for (int64_t d = 2; d < input.dim(); ++d)
    if (input.shape()[d] == 0)
      throw FxError("grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes " +
                    shape_to_string(input.shape()) + " with dimension " + std::to_string(d) + " being empty");
  if (want_dim == 0) want_dim = input.dim() == 4 ? 4 : 5;
  if (input.dim() != want_dim || grid.dim() != want_dim)
    throw FxError("grid_sampler(): expected " + std::to_string(want_dim) +
                  "D input and grid with same number of dimensions, but got " + sizes);
  const int S = want_dim - 2;
  if (input.dtype() != grid.dtype())
    throw FxError(std::string("expected scalar type ") + torch_type_name(input.dtype()) + " but found " +
                  torch_type_name(grid.dtype()));
  if (mode < 0 || mode > 2) throw FxError("grid_sampler(): invalid interpolation_mode " + std::to_string(mode));
  if (padding < 0 || padding > 2) throw FxError("grid_sampler(): invalid padding_mode " + std::to_string(padding));
  const char* name = S == 2 ? "grid_sampler_2d_cpu_kernel_impl" : "grid_sampler3d_cpu";
  if (!dtype_is_floating(input.dtype()))
    throw FxError(std::string("\"") + name + "\" not implemented for '" + torch_type_name(input.dtype()) + "'");
  Tensor x = float_contiguous(input, name), g = float_contiguous(grid, name);
  Shape out_shape = {input.shape()[0], input.shape()[1]};
  int64_t sz[3], gs[3];
  for (int d = 0; d < S; ++d) sz[d] = input.shape()[2 + d], gs[d] = grid.shape()[1 + d], out_shape.push_back(gs[d]);
  Tensor out = Tensor::empty(out_shape, x.dtype());
  dispatch_float(x.dtype(), name, [&](auto tag) {
    using T = decltype(tag);
    if (S == 2)
      grid_sample_kernel<T, 2>(x.data<T>(), g.data<T>(), out.data<T>(), out_shape[0], out_shape[1], sz, gs,
                               static_cast<int>(mode), static_cast<int>(padding), align);
    else
      grid_sample_kernel<T, 3>(x.data<T>(), g.data<T>(), out.data<T>(), out_shape[0], out_shape[1], sz, gs,
                               static_cast<int>(mode), static_cast<int>(padding), align);
  });
  return restore_dtype(out, input.dtype());
}

Object f_grid_sample_op(const OpCall& call) {
  static const Schema schema("grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None)");
  Args a = schema.parse(call);
  const std::string mode = a.str(2), pad = a.str(3);
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    throw FxError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '" +
                  mode + "'");
  if (pad != "zeros" && pad != "border" && pad != "reflection")
    throw FxError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', "
                  "but got: '" + pad + "'");
  const int64_t m = mode == "bilinear" ? kBilinear : mode == "nearest" ? kNearest : kBicubic;
  const int64_t p = pad == "zeros" ? kZeros : pad == "border" ? kBorder : kReflection;
  return grid_sample_tensor(a.tensor(0), a.tensor(1), m, p, !a.is_none(4) && a.boolean(4), 0);
}

template <int kDim>  // 0: by the input's rank (aten.grid_sampler), 4 or 5
Object grid_sampler_op(const OpCall& call) {
  static const Schema schema("grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)");
  Args a = schema.parse(call);
  return grid_sample_tensor(a.tensor(0), a.tensor(1), a.integer(2), a.integer(3), a.boolean(4), kDim);
}

const OpRow kOps[] = {
    {"torch.nn.functional.grid_sample", "", "", f_grid_sample_op},
    {"torch.grid_sampler", "aten.grid_sampler.default", "", grid_sampler_op<0>},
    {"torch.grid_sampler_2d", "aten.grid_sampler_2d.default", "", grid_sampler_op<4>},
    {"torch.grid_sampler_3d", "aten.grid_sampler_3d.default", "", grid_sampler_op<5>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
