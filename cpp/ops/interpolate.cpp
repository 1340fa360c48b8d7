// F.interpolate / upsample for 1-D and 2-D spatial inputs: nearest, nearest-exact, (bi)linear with
// align_corners; sizes from `size` or `scale_factor`, with torch's source-index arithmetic (a given
// scale factor is used as is unless recompute_scale_factor).
#include <cmath>

#include "ops/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

enum class Mode { Nearest, NearestExact, Linear };

// Scale from output to input coordinates: 1/scale_factor when one was given, else in/out.
double area_scale(int64_t in, int64_t out, std::optional<double> scale, bool align_corners) {
  if (align_corners) return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  if (scale && *scale > 0) return 1.0 / *scale;
  return static_cast<double>(in) / static_cast<double>(out);
}

// For each output index: two source indices and the weight of the second (nearest: one index, weight 0).
struct Taps {
  std::vector<int64_t> i0, i1;
  std::vector<double> w1;
};

Taps taps(int64_t in, int64_t out, std::optional<double> scale, Mode mode, bool align_corners) {
  Taps t;
  const double s = area_scale(in, out, scale, mode == Mode::Linear && align_corners);
  for (int64_t o = 0; o < out; ++o) {
    if (mode == Mode::Linear) {
      double src = align_corners ? s * o : std::max(0.0, s * (o + 0.5) - 0.5);
      int64_t a = std::min(static_cast<int64_t>(src), in - 1);
      int64_t b = a + (a < in - 1 ? 1 : 0);
      t.i0.push_back(a), t.i1.push_back(b), t.w1.push_back(src - a);
    } else {
      const float sf = static_cast<float>(s);  // torch computes nearest indices in float
      int64_t a = mode == Mode::Nearest ? static_cast<int64_t>(std::floor(o * sf))
                                        : static_cast<int64_t>(std::floor((o + 0.5f) * sf));
      if (mode == Mode::Nearest && out == in) a = o;
      a = std::min(a, in - 1);
      t.i0.push_back(a), t.i1.push_back(a), t.w1.push_back(0.0);
    }
  }
  return t;
}

Tensor upsample(const Tensor& input, const std::vector<int64_t>& out_size, const std::vector<std::optional<double>>& scales,
                Mode mode, bool align_corners) {
  const int64_t sp = static_cast<int64_t>(out_size.size());
  Tensor x = float_contiguous(input, "upsample");
  const int64_t H = sp == 2 ? x.shape()[x.dim() - 2] : 1, W = x.shape().back();
  const int64_t OH = sp == 2 ? out_size[0] : 1, OW = out_size.back();
  if (OH <= 0 || OW <= 0)
    throw FxError("Input and output sizes should be greater than 0, but got input " + shape_to_string(input.shape()) +
                  " output " + shape_to_string(out_size));
  const int64_t planes = x.numel() / std::max<int64_t>(1, H * W);
  Taps th = taps(H, OH, sp == 2 ? scales[0] : std::nullopt, mode, align_corners);
  Taps tw = taps(W, OW, scales.back(), mode, align_corners);
  Shape shape(x.shape().begin(), x.shape().end() - sp);
  for (int64_t v : out_size) shape.push_back(v);
  Tensor out = Tensor::empty(shape, x.dtype());
  dispatch_float(x.dtype(), "upsample", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t p = 0; p < planes; ++p) {
      const T* src = x.data<T>() + p * H * W;
      T* dst = out.data<T>() + p * OH * OW;
      for (int64_t oh = 0; oh < OH; ++oh) {
        const T* r0 = src + th.i0[oh] * W;
        const T* r1 = src + th.i1[oh] * W;
        const T hw1 = static_cast<T>(th.w1[oh]), hw0 = T(1) - hw1;
        for (int64_t ow = 0; ow < OW; ++ow) {
          const T ww1 = static_cast<T>(tw.w1[ow]), ww0 = T(1) - ww1;
          const int64_t a = tw.i0[ow], b = tw.i1[ow];
          dst[oh * OW + ow] = mode == Mode::Linear ? hw0 * (ww0 * r0[a] + ww1 * r0[b]) + hw1 * (ww0 * r1[a] + ww1 * r1[b])
                                                   : r0[a];
        }
      }
    }
  });
  return restore_dtype(out, input.dtype());
}

Mode parse_mode(const std::string& m, int64_t sp) {
  if (m == "nearest") return Mode::Nearest;
  if (m == "nearest-exact") return Mode::NearestExact;
  if ((m == "linear" && sp == 1) || (m == "bilinear" && sp == 2)) return Mode::Linear;
  throw FxError("interpolate: mode '" + m + "' is not supported for " + std::to_string(sp + 2) + "-D input");
}

Object interpolate_op(const OpCall& call) {
  static const Schema schema("interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
                             "recompute_scale_factor=None, antialias=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t sp = x.dim() - 2;
  if (sp != 1 && sp != 2)
    throw FxError("interpolate: only 3-D and 4-D inputs are supported, got " + shape_to_string(x.shape()));
  const Mode mode = parse_mode(a.str(3), sp);
  if (!a.is_none(4) && mode != Mode::Linear)
    throw FxError("align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear");
  const bool align = !a.is_none(4) && a.boolean(4);
  if (a.boolean(6)) throw FxError("interpolate: antialias=True is not supported");
  std::vector<int64_t> size;
  std::vector<std::optional<double>> scales(static_cast<size_t>(sp));
  if (!a.is_none(1) && !a.is_none(2)) throw FxError("only one of size or scale_factor should be defined");
  if (!a.is_none(1)) {
    size = expand_ints(*a.int_list(1), static_cast<size_t>(sp), "size");
  } else if (!a.is_none(2)) {
    std::vector<double> sf;
    if (a[2].is_sequence()) for (const Object& o : a[2].items()) sf.push_back(to_number(o).as_double());
    else sf.push_back(a.number(2).as_double());
    if (sf.size() == 1) sf.assign(static_cast<size_t>(sp), sf[0]);
    if (static_cast<int64_t>(sf.size()) != sp) throw FxError("scale_factor must have " + std::to_string(sp) + " values");
    const bool recompute = !a.is_none(5) && a.boolean(5);
    for (int64_t i = 0; i < sp; ++i) {
      size.push_back(static_cast<int64_t>(std::floor(x.shape()[2 + i] * sf[i])));
      if (!recompute) scales[i] = sf[i];
    }
  } else {
    throw FxError("either size or scale_factor should be defined");
  }
  return upsample(x, size, scales, mode, align);
}

// aten.upsample_*.vec(input, output_size, [align_corners,] scale_factors).
template <bool kLinear>
Object upsample_vec_op(const OpCall& call) {
  static const Schema schema(kLinear ? "upsample_bilinear2d(input|self, output_size, align_corners, scale_factors)"
                                     : "upsample_nearest2d(input|self, output_size, scale_factors)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t sp = x.dim() - 2;
  const size_t isf = kLinear ? 3 : 2;
  std::vector<int64_t> size;
  std::vector<std::optional<double>> scales(static_cast<size_t>(sp));
  if (!a.is_none(1)) {
    size = *a.int_list(1);
  } else {
    std::vector<Object> sf = a[isf].items();
    for (int64_t i = 0; i < sp; ++i) {
      const double s = to_number(sf.at(i)).as_double();
      size.push_back(static_cast<int64_t>(std::floor(x.shape()[2 + i] * s)));
      scales[i] = s;
    }
  }
  return upsample(x, size, scales, kLinear ? Mode::Linear : Mode::Nearest, kLinear && a.boolean(2));
}

const OpRegistrar reg_interp{OpDef{"torch.nn.functional.interpolate", {"torch.nn.functional.upsample"}, {}, interpolate_op}};
const OpRegistrar reg_up_n{OpDef{"aten.upsample_nearest2d.vec", {"aten.upsample_nearest1d.vec"}, {}, upsample_vec_op<false>}};
const OpRegistrar reg_up_b{OpDef{"aten.upsample_bilinear2d.vec", {"aten.upsample_linear1d.vec"}, {}, upsample_vec_op<true>}};

}  // namespace
}  // namespace fx
