// F.interpolate / upsample for 1-D, 2-D and 3-D spatial inputs: nearest, nearest-exact, linear, bilinear,
// trilinear and bicubic with align_corners, area (adaptive average pooling); sizes from `size` or `scale_factor`, with torch's source-index arithmetic (a given
// scale factor is used as is unless recompute_scale_factor).
#include <cmath>

#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

enum class Mode { Nearest, NearestExact, Linear, Cubic };

// Scale from output to input coordinates: 1/scale_factor when one was given, else in/out.
double area_scale(int64_t in, int64_t out, std::optional<double> scale, bool align_corners) {
  if (align_corners) return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  if (scale && *scale > 0) return 1.0 / *scale;
  return static_cast<double>(in) / static_cast<double>(out);
}

// For each output index along one dim: the source indices and their weights (nearest: 1, linear: 2,
// cubic: 4 taps), as torch's CPU upsample kernels compute them.
struct Taps {
  int64_t k = 1;
  std::vector<int64_t> index;  // out × k
  std::vector<double> weight;  // out × k
};

// torch's cubic convolution coefficients (A = -0.75) for the fraction t.
void cubic_coefficients(double t, double* c) {
  const double A = -0.75;
  auto conv1 = [A](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
  auto conv2 = [A](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
  c[0] = conv2(t + 1.0), c[1] = conv1(t), c[2] = conv1(1.0 - t), c[3] = conv2(2.0 - t);
}

Taps taps(int64_t in, int64_t out, std::optional<double> scale, Mode mode, bool align_corners) {
  Taps t;
  const bool interp = mode == Mode::Linear || mode == Mode::Cubic;
  const double s = area_scale(in, out, scale, interp && align_corners);
  t.k = mode == Mode::Linear ? 2 : mode == Mode::Cubic ? 4 : 1;
  for (int64_t o = 0; o < out; ++o) {
    if (mode == Mode::Linear) {
      double src = align_corners ? s * o : std::max(0.0, s * (o + 0.5) - 0.5);
      int64_t a = std::min(static_cast<int64_t>(src), in - 1);
      int64_t b = a + (a < in - 1 ? 1 : 0);
      const double w1 = std::min(std::max(src - a, 0.0), 1.0);
      t.index.insert(t.index.end(), {a, b});
      t.weight.insert(t.weight.end(), {1.0 - w1, w1});
    } else if (mode == Mode::Cubic) {
      const double src = align_corners ? s * o : s * (o + 0.5) - 0.5;  // cubic: no clamp at 0
      const int64_t a = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
      double c[4];
      cubic_coefficients(std::min(std::max(src - a, 0.0), 1.0), c);
      for (int64_t j = 0; j < 4; ++j) {
        t.index.push_back(std::max<int64_t>(std::min(a - 1 + j, in - 1), 0));
        t.weight.push_back(c[j]);
      }
    } else {
      const float sf = static_cast<float>(s);  // torch computes nearest indices in float
      int64_t a = mode == Mode::Nearest ? static_cast<int64_t>(std::floor(o * sf))
                                        : static_cast<int64_t>(std::floor((o + 0.5f) * sf));
      if (mode == Mode::Nearest && out == in) a = o;
      if (mode == Mode::Nearest && out == 2 * in) a = o >> 1;
      t.index.push_back(std::min(a, in - 1));
      t.weight.push_back(1.0);
    }
  }
  return t;
}

// Resamples the packed tensor x along `dim` to `out` values: out[.., o, ..] = Σ_j w[o][j]·x[.., i[o][j], ..],
// summed in tap order (torch evaluates its separable interpolation the same way, innermost dim first).
Tensor resample_dim(const Tensor& x, int64_t dim, int64_t out, const Taps& t) {
  Shape shape = x.shape();
  const int64_t in = shape[dim];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= shape[d];
  shape[dim] = out;
  Tensor y = Tensor::empty(shape, x.dtype());
  dispatch_float(x.dtype(), "upsample", [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = y.data<T>();
    std::vector<T> w(t.weight.begin(), t.weight.end());
    for (int64_t p = 0; p < outer; ++p)
      for (int64_t o = 0; o < out; ++o) {
        T* d = dst + (p * out + o) * inner;
        const int64_t* idx = &t.index[o * t.k];
        const T* wo = &w[o * t.k];
        for (int64_t i = 0; i < inner; ++i) {
          T acc = src[(p * in + idx[0]) * inner + i] * wo[0];
          for (int64_t j = 1; j < t.k; ++j) acc += src[(p * in + idx[j]) * inner + i] * wo[j];
          d[i] = acc;
        }
      }
  });
  return y;
}

// floor(in * scale) as the output size; torch's overflow error for inf, nan or a size beyond int64.
int64_t scaled_size(int64_t in, double scale) {
  const double v = std::floor(static_cast<double>(in) * scale);
  if (!(v >= -9.2233720368547758e18 && v < 9.2233720368547758e18))
    throw FxError("value cannot be converted to type int64_t without overflow");
  return static_cast<int64_t>(v);
}

// torch's "(H: 5, W: 5)" for the last sp sizes.
std::string dims_string(const int64_t* v, int64_t sp) {
  static const char* names[] = {"D", "H", "W"};
  std::string s = "(";
  for (int64_t i = 0; i < sp; ++i)
    s += std::string(i ? ", " : "") + names[3 - sp + i] + ": " + std::to_string(v[i]);
  return s + ")";
}

Tensor upsample(const Tensor& input, const std::vector<int64_t>& out_size, const std::vector<std::optional<double>>& scales,
                Mode mode, bool align_corners) {
  const int64_t sp = static_cast<int64_t>(out_size.size());
  Tensor x = float_contiguous(input, "upsample");
  bool positive = sp <= 3 && input.dim() >= sp;
  for (int64_t v : out_size) positive = positive && v > 0;
  for (int64_t i = 0; positive && i < sp; ++i) positive = input.shape()[input.dim() - sp + i] > 0;
  if (!positive && sp <= 3 && input.dim() >= sp)  // torch's wording (upsample_*_shape_check)
    throw FxError("Input and output sizes should be greater than 0, but got input " +
                  dims_string(input.shape().data() + input.dim() - sp, sp) + (sp == 1 ? " and output " : " output ") +
                  dims_string(out_size.data(), sp));
  if (!positive) throw FxError("Input and output sizes should be greater than 0");
  Shape final_shape(input.shape().begin(), input.shape().end() - sp);  // checked before any tap table is built
  final_shape.insert(final_shape.end(), out_size.begin(), out_size.end());
  int64_t numel = 1;
  bool overflow = false;
  for (int64_t d : final_shape) overflow = overflow || __builtin_mul_overflow(numel, d, &numel);
  if (overflow || numel > (int64_t{1} << 59))
    throw FxError("Storage size calculation overflowed with sizes=" + shape_to_string(final_shape));
  for (int64_t i = sp - 1; i >= 0; --i) {
    const int64_t dim = x.dim() - sp + i;
    const int64_t in = x.shape()[dim];
    if (in <= 0) throw FxError("upsample: input size along dim " + std::to_string(dim) + " must be positive");
    if (mode == Mode::Nearest && in == out_size[i]) continue;
    x = resample_dim(x, dim, out_size[i], taps(in, out_size[i], scales[i], mode, align_corners));
  }
  return restore_dtype(x.storage() == input.storage() ? x.clone() : x, input.dtype());
}

Mode parse_mode(const std::string& m, int64_t sp) {
  if (m == "nearest") return Mode::Nearest;
  if (m == "nearest-exact") return Mode::NearestExact;
  const int64_t need = m == "linear" ? 1 : m == "bilinear" || m == "bicubic" ? 2 : m == "trilinear" ? 3 : 0;
  if (need == 0)
    throw FxError("Input Error: Only 3D, 4D and 5D input Tensors supported (got " + std::to_string(sp + 2) +
                  "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got " +
                  m + ")");
  if (need != sp)
    throw FxError("Got " + std::to_string(sp + 2) + "D input, but " + m + " mode needs " + std::to_string(need + 2) +
                  "D input");
  return m == "bicubic" ? Mode::Cubic : Mode::Linear;
}

Object interpolate_op(const OpCall& call) {
  static const Schema schema("interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
                             "recompute_scale_factor=None, antialias=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t sp = x.dim() - 2;
  if (sp < 1 || sp > 3)
    throw FxError("Input Error: Only 3D, 4D and 5D input Tensors supported (got " + std::to_string(x.dim()) +
                  "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got " +
                  a.str(3) + ")");
  const bool area = a.str(3) == "area";
  const Mode mode = area ? Mode::Nearest : parse_mode(a.str(3), sp);
  if (!a.is_none(4) && (area || mode == Mode::Nearest || mode == Mode::NearestExact))
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
    if (sf.size() == 1) sf = std::vector<double>(static_cast<size_t>(sp), sf[0]);  // not assign(n, sf[0]): libc++ frees sf[0] first
    if (static_cast<int64_t>(sf.size()) != sp) throw FxError("scale_factor must have " + std::to_string(sp) + " values");
    const bool recompute = !a.is_none(5) && a.boolean(5);
    for (int64_t i = 0; i < sp; ++i) {
      size.push_back(scaled_size(x.shape()[2 + i], sf[i]));
      if (!recompute) scales[i] = sf[i];
    }
  } else {
    throw FxError("either size or scale_factor should be defined");
  }
  if (area) {
    static const char* const pools[] = {"torch.nn.functional.adaptive_avg_pool1d",
                                        "torch.nn.functional.adaptive_avg_pool2d",
                                        "torch.nn.functional.adaptive_avg_pool3d"};
    std::vector<Object> s;
    for (int64_t v : size) s.push_back(Object(Value::integer(v)));
    return OpRegistry::global().call(pools[sp - 1], {x, Object::tuple(std::move(s))});
  }
  return upsample(x, size, scales, mode, align);
}

// aten.upsample_<mode><n>d.vec(input, output_size, [align_corners,] scale_factors) and the .default
// overloads (input, output_size, [align_corners,] scales_d=None, scales_h=None, scales_w=None); one op per
// mode and form, the spatial rank taken from the input (as the 1d/2d/3d names imply).
template <Mode kMode, bool kVec>
Object upsample_aten_op(const OpCall& call) {
  constexpr bool interp = kMode == Mode::Linear || kMode == Mode::Cubic;
  static const Schema schema(std::string("upsample(input|self, output_size") + (interp ? ", align_corners" : "") +
                             (kVec ? ", scale_factors)" : ", scales_0=None, scales_1=None, scales_2=None)"));
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t sp = x.dim() - 2;
  if (sp < 1 || sp > 3) throw FxError("upsample: expected a 3-D, 4-D or 5-D input, got " + shape_to_string(x.shape()));
  const size_t first_scale = interp ? 3 : 2;
  std::vector<int64_t> size;
  std::vector<std::optional<double>> scales(static_cast<size_t>(sp));
  if (kVec) {
    std::vector<double> sf;
    if (!a.is_none(first_scale)) for (const Object& o : a[first_scale].items()) sf.push_back(to_number(o).as_double());
    if (!a.is_none(1)) {
      size = *a.int_list(1);
    } else {
      if (static_cast<int64_t>(sf.size()) != sp) throw FxError("upsample: need output_size or scale_factors");
      for (int64_t i = 0; i < sp; ++i) size.push_back(scaled_size(x.shape()[2 + i], sf[i]));
    }
    for (size_t i = 0; i < sf.size() && i < scales.size(); ++i) scales[i] = sf[i];
  } else {
    size = *a.int_list(1);
    for (int64_t i = 0; i < sp; ++i) scales[i] = opt_double(a, first_scale + static_cast<size_t>(i));
  }
  if (static_cast<int64_t>(size.size()) != sp)
    throw FxError("upsample: output_size must have " + std::to_string(sp) + " values");
  return upsample(x, size, scales, kMode, interp && a.boolean(2));
}

template <Mode kMode, bool kVec>
OpDef up_def(const std::vector<std::string>& names) noexcept {
  OpDef d{"aten." + names[0] + (kVec ? ".vec" : ".default"), {}, {}, upsample_aten_op<kMode, kVec>};
  for (size_t i = 1; i < names.size(); ++i) d.functions.push_back("aten." + names[i] + (kVec ? ".vec" : ".default"));
  return d;
}

const OpRegistrar reg_interp{OpDef{"torch.nn.functional.interpolate", {"torch.nn.functional.upsample"}, {}, interpolate_op}};
const std::vector<std::string> kNearest = {"upsample_nearest2d", "upsample_nearest1d", "upsample_nearest3d"};
const std::vector<std::string> kExact = {"_upsample_nearest_exact2d", "_upsample_nearest_exact1d",
                                         "_upsample_nearest_exact3d"};
const std::vector<std::string> kLinear = {"upsample_bilinear2d", "upsample_linear1d", "upsample_trilinear3d"};
const std::vector<std::string> kCubic = {"upsample_bicubic2d"};
const OpRegistrar reg_up_n{up_def<Mode::Nearest, true>(kNearest)};
const OpRegistrar reg_up_e{up_def<Mode::NearestExact, true>(kExact)};
const OpRegistrar reg_up_l{up_def<Mode::Linear, true>(kLinear)};
const OpRegistrar reg_up_c{up_def<Mode::Cubic, true>(kCubic)};
const OpRegistrar reg_upd_n{up_def<Mode::Nearest, false>(kNearest)};
const OpRegistrar reg_upd_e{up_def<Mode::NearestExact, false>(kExact)};
const OpRegistrar reg_upd_l{up_def<Mode::Linear, false>(kLinear)};
const OpRegistrar reg_upd_c{up_def<Mode::Cubic, false>(kCubic)};

}  // namespace
}  // namespace fx
