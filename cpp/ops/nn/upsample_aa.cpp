// aten._upsample_bilinear2d_aa / _upsample_bicubic2d_aa (F.interpolate with antialias=True): separable
// resampling of [N, C, H, W], W first and then H, each output a normalised weighted sum of the inputs under
// a filter (triangle, or Keys cubic with a = -0.5) stretched by the scale when downsampling — torch's
// antialiased kernel (PIL's method), computed in the input's float type as torch does.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ops/dispatch.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

template <typename T>
T triangle(T x) {
  x = std::fabs(x);
  return x < T(1) ? T(1) - x : T(0);
}

template <typename T>
T keys_cubic(T x) {
  const T a = T(-0.5);
  x = std::fabs(x);
  if (x < T(1)) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < T(2)) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return T(0);
}

// torch's area_pixel_compute_scale
double pixel_scale(int64_t in, int64_t out, bool align, std::optional<double> scale) {
  if (align) return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  if (scale && *scale > 0) return 1.0 / *scale;
  return static_cast<double>(in) / static_cast<double>(out);
}

// Resamples dim `axis` (2: H, 3: W) of a packed [N, C, H, W] array from `in` to `out` points.
template <typename T>
std::vector<T> resample(const std::vector<T>& src, const int64_t* shape, int axis, int64_t out, bool align,
                        std::optional<double> scale_opt, bool cubic) {
  const int64_t in = shape[axis];
  const T scale = static_cast<T>(pixel_scale(in, out, align, scale_opt));
  const T interp = cubic ? T(4) : T(2);
  const T support = scale >= T(1) ? interp * T(0.5) * scale : interp * T(0.5);
  const T invscale = scale >= T(1) ? T(1) / scale : T(1);
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k) outer *= shape[k];
  for (int k = axis + 1; k < 4; ++k) inner *= shape[k];
  std::vector<T> dst(static_cast<size_t>(outer * out * inner));
  std::vector<T> w;
  for (int64_t i = 0; i < out; ++i) {
    const T center = scale * (static_cast<T>(i) + T(0.5));
    const int64_t lo = std::max<int64_t>(static_cast<int64_t>(center - support + T(0.5)), 0);
    const int64_t size = std::min<int64_t>(static_cast<int64_t>(center + support + T(0.5)), in) - lo;
    w.assign(static_cast<size_t>(std::max<int64_t>(size, 0)), T(0));
    T total = 0;
    for (int64_t j = 0; j < size; ++j) {
      const T x = (static_cast<T>(j + lo) - center + T(0.5)) * invscale;
      w[j] = cubic ? keys_cubic(x) : triangle(x);
      total += w[j];
    }
    if (total != T(0))
      for (T& v : w) v /= total;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < inner; ++k) {
        T acc = 0;
        for (int64_t j = 0; j < size; ++j) acc += w[j] * src[(o * in + lo + j) * inner + k];
        dst[(o * out + i) * inner + k] = acc;
      }
  }
  return dst;
}

template <bool kCubic>
Object upsample_aa_op(const OpCall& call) {
  // (input, output_size, align_corners, scales_h=None, scales_w=None) or .vec (input, output_size,
  // align_corners, scale_factors)
  static const Schema schema(std::string(kCubic ? "_upsample_bicubic2d_aa" : "_upsample_bilinear2d_aa") +
                             "(input|self, output_size, align_corners, scales_h=None, scales_w=None, *, "
                             "scale_factors=None)");
  OpCall c = call;
  if (c.args.size() == 4 && c.args[3].is_sequence()) {  // the .vec overload, scale_factors by position
    c.kwargs.emplace_back("scale_factors", c.args[3]);
    c.args.pop_back();
  }
  Args a = schema.parse(c);
  const Tensor& x = a.tensor(0);
  if (x.dim() != 4) throw FxError("_upsample_bilinear2d_aa: expected a 4-d input, got " + shape_to_string(x.shape()));
  const bool align = a.boolean(2);
  std::optional<double> sh, sw;
  int64_t oh, ow;
  if (!a.is_none(5)) {
    const std::vector<Object>& f = a[5].items();
    if (f.size() != 2) throw FxError("_upsample_bilinear2d_aa: scale_factors must have 2 values");
    sh = to_number(f[0]).as_double(), sw = to_number(f[1]).as_double();
    oh = static_cast<int64_t>(std::floor(static_cast<double>(x.shape()[2]) * *sh));
    ow = static_cast<int64_t>(std::floor(static_cast<double>(x.shape()[3]) * *sw));
  } else {
    if (a.is_none(1)) throw FxError("_upsample_bilinear2d_aa: either output_size or scale_factors must be given");
    const std::vector<int64_t> size = *a.int_list(1);
    if (size.size() != 2) throw FxError("_upsample_bilinear2d_aa: output_size must have 2 values");
    oh = size[0], ow = size[1];
    if (!a.is_none(3)) sh = a.number(3).as_double();
    if (!a.is_none(4)) sw = a.number(4).as_double();
  }
  if (oh <= 0 || ow <= 0) throw FxError("_upsample_bilinear2d_aa: output size must be positive");
  Tensor xf = float_contiguous(x, "_upsample_aa");
  Tensor out = Tensor::empty({x.shape()[0], x.shape()[1], oh, ow}, xf.dtype());
  dispatch_float(xf.dtype(), "_upsample_aa", [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> v(xf.data<T>(), xf.data<T>() + xf.numel());
    int64_t shape[4] = {x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]};
    if (ow != shape[3]) {  // (torch resamples only the dims whose size changes)
      v = resample<T>(v, shape, 3, ow, align, sw, kCubic);
      shape[3] = ow;
    }
    if (oh != shape[2]) {
      v = resample<T>(v, shape, 2, oh, align, sh, kCubic);
      shape[2] = oh;
    }
    std::copy(v.begin(), v.end(), out.data<T>());
  });
  return restore_dtype(out, x.dtype());
}

const OpRow kOps[] = {
    {"aten._upsample_bilinear2d_aa.default",
     "aten._upsample_bilinear2d_aa aten._upsample_bilinear2d_aa.vec torch._C._nn._upsample_bilinear2d_aa", "",
     upsample_aa_op<false>},
    {"aten._upsample_bicubic2d_aa.default",
     "aten._upsample_bicubic2d_aa aten._upsample_bicubic2d_aa.vec torch._C._nn._upsample_bicubic2d_aa", "",
     upsample_aa_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
