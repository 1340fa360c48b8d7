// Pooling ops: max_pool1d/2d (with indices), avg_pool1d/2d, adaptive avg/max 1d/2d, under torch's,
// torch.nn.functional's, torch._C._nn's and aten's names. Inputs are [N, C, (H,) W] or unbatched
// [C, (H,) W]; every leading dim is a plane for the kernels.
#include <cmath>
#include <cstdint>

#include "kernels/parallel.h"
#include "kernels/pool.h"
#include "kernels/pool_f32.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

struct Planes {
  Tensor x;        // packed, compute dtype
  int64_t count = 1, H = 1, W = 1;
  Shape lead;      // leading dims kept in the output
};

Planes planes(const Tensor& input, int64_t sp, const std::string& name) {
  if (input.dim() != sp + 1 && input.dim() != sp + 2)
    throw FxError(name + ": Expected " + std::to_string(sp + 1) + "D or " + std::to_string(sp + 2) +
                  "D input tensor, but got " + shape_to_string(input.shape()));
  Planes p;
  p.x = float_contiguous(input, name.c_str());
  for (int64_t d = 0; d < input.dim() - sp; ++d) {
    p.lead.push_back(input.shape()[d]);
    p.count *= input.shape()[d];
  }
  p.H = sp == 2 ? input.shape()[input.dim() - 2] : 1;
  p.W = input.shape().back();
  return p;
}

// torch's max/avg pools take an empty batch but no other empty dim (an unbatched [0, H, W] has 0 channels).
void check_nonempty(const Tensor& x, int64_t sp, bool max) {
  const bool batched = x.dim() == sp + 2;
  for (int64_t d = batched ? 1 : 0; d < x.dim(); ++d) {
    if (x.shape()[d] != 0) continue;
    Shape shown = x.shape();
    if (sp == 1 && !max) shown.insert(shown.end() - 1, 1);  // avg_pool1d runs as avg_pool2d there
    const int64_t nd = sp == 1 && max ? 2 : 3;
    throw FxError(std::string(sp == 1 && max ? "max_pool1d: " : "") + "Expected " + std::to_string(nd) + "D or " +
                  std::to_string(nd + 1) + "D (batch mode) tensor with optional 0 dim batch size for input, but got:" +
                  shape_to_string(shown));
  }
}

int64_t pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

Shape out_shape(const Planes& p, int64_t sp, int64_t OH, int64_t OW) {
  Shape s = p.lead;
  if (sp == 2) s.push_back(OH);
  s.push_back(OW);
  return s;
}

// Window arguments; stride None or [] means the kernel size (aten passes []).
kernels::PoolGeom pool_geom(const Args& a, const Planes& p, int64_t sp, size_t ik, size_t is, size_t ip, int64_t id,
                            bool ceil_mode, bool avg, const std::string& name) {
  const size_t n = static_cast<size_t>(sp);
  std::vector<int64_t> k = arg_ints(a, ik, n, "kernel_size");
  auto so = a.int_list(is);
  std::vector<int64_t> s = (!so || so->empty()) ? k : expand_ints(*so, n, "stride");
  std::vector<int64_t> pad = arg_ints(a, ip, n, "padding");
  std::vector<int64_t> d = id >= 0 ? arg_ints(a, static_cast<size_t>(id), n, "dilation") : std::vector<int64_t>(n, 1);
  for (size_t i = 0; i < n; ++i)
    if (d[i] <= 0)
      throw FxError(sp == 2 ? "dilation should be greater than zero, but got dilationH: " + std::to_string(d[0]) +
                                  " dilationW: " + std::to_string(d[1])
                            : name + "() dilation must be greater than zero, but got " + std::to_string(d[0]));
  for (size_t i = 0; i < n; ++i) {
    // torch's pooling takes these as C++ int: a larger value is its overflow error (and keeps the
    // window arithmetic below far from int64's limits)
    for (int64_t v : {k[i], s[i], pad[i], d[i]})
      if (v > INT32_MAX || v < INT32_MIN) throw FxError("value cannot be converted to type int without overflow");
    if (s[i] == 0) throw FxError("stride should not be zero");
    if (k[i] <= 0) throw FxError(name + ": kernel_size must be greater than zero, but got " + std::to_string(k[i]));
    if (s[i] <= 0) throw FxError(name + ": stride must be greater than zero, but got " + std::to_string(s[i]));
    if (pad[i] < 0) throw FxError(name + ": pad must be non-negative, but got pad: " + std::to_string(pad[i]));
    if (pad[i] * 2 > (avg ? k[i] : (k[i] - 1) * d[i] + 1))
      throw FxError(avg ? "pad should be at most half of kernel size, but got pad=" + std::to_string(pad[i]) +
                              " and kernel_size=" + std::to_string(k[i])
                        : "pad should be at most half of effective kernel size, but got pad=" + std::to_string(pad[i]) +
                              ", kernel_size=" + std::to_string(k[i]) + " and dilation=" + std::to_string(d[i]));
  }
  kernels::PoolGeom g;
  g.H = p.H, g.W = p.W;
  const size_t w = n - 1;
  if (sp == 2) g.KH = k[0], g.SH = s[0], g.PH = pad[0], g.DH = d[0];
  g.KW = k[w], g.SW = s[w], g.PW = pad[w], g.DW = d[w];
  g.OH = sp == 2 ? pool_out(g.H, g.KH, g.PH, g.SH, g.DH, ceil_mode) : 1;
  g.OW = pool_out(g.W, g.KW, g.PW, g.SW, g.DW, ceil_mode);
  if (g.OH <= 0 || g.OW <= 0)
    throw FxError("Given input size: (" + std::to_string(p.lead.back()) + "x" + std::to_string(g.H) + "x" +
                  std::to_string(g.W) + "). Calculated output size: (" + std::to_string(p.lead.back()) + "x" +
                  std::to_string(g.OH) + "x" + std::to_string(g.OW) + "). Output size is too small");
  return g;
}

// max_pool{1,2}d(input, kernel_size, stride, padding, dilation, ceil_mode[, return_indices]).
template <int kSp, int kIndices>  // kIndices: 0 never, 1 always (a tuple), 2 per return_indices
Object max_pool_op(const OpCall& call) {
  static const Schema schema(std::string("max_pool") + std::to_string(kSp) +
                             "d(input|self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False" +
                             (kIndices != 0 ? ", return_indices=False)" : ")"));
  Args a = schema.parse(call);
  const std::string name = "max_pool" + std::to_string(kSp) + "d";
  Planes p = planes(a.tensor(0), kSp, name);
  check_nonempty(a.tensor(0), kSp, true);
  kernels::PoolGeom g = pool_geom(a, p, kSp, 1, 2, 3, 4, a.boolean(5), false, name);
  const bool with_indices = kIndices == 1 || (kIndices == 2 && a.boolean(6));
  const Shape shape = out_shape(p, kSp, g.OH, g.OW);
  Tensor out = Tensor::empty(shape, p.x.dtype());
  Tensor idx = with_indices ? Tensor::empty(shape, DType::Int64) : Tensor();
  const int64_t in_plane = p.H * p.W, out_plane = g.OH * g.OW;
  if (p.x.dtype() == DType::Float32 && !with_indices && !meta_mode()) {
    // The SIMD kernel, threads taking whole planes (each output computed the same way for any split).
    // (Meta tensors go through dispatch_float below, which skips the kernel.)
    const float* x = p.x.data<float>();
    float* o = out.data<float>();
    auto run = [&](size_t i0, size_t i1) {
      for (size_t i = i0; i < i1; ++i) kernels::f32_max_pool_plane(g, x + i * in_plane, o + i * out_plane);
    };
    const size_t count = static_cast<size_t>(p.count);
    // Work: the plane read plus one comparison a tap.
    if (kernels::worth_parallel(double(count) * double(in_plane + out_plane * g.KH * g.KW)))
      kernels::parallel_for(count, run);
    else
      run(0, count);
    return restore_dtype(out, a.tensor(0).dtype());
  }
  dispatch_float(p.x.dtype(), name.c_str(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < p.count; ++i)
      kernels::max_pool_plane<T>(g, p.x.data<T>() + i * in_plane, out.data<T>() + i * out_plane,
                                 with_indices ? idx.data<int64_t>() + i * out_plane : nullptr);
  });
  Tensor values = restore_dtype(out, a.tensor(0).dtype());
  if (with_indices) return Object::tuple({values, idx});
  return values;
}

template <int kSp>
Object avg_pool_op(const OpCall& call) {
  static const Schema schema(std::string("avg_pool") + std::to_string(kSp) +
                             "d(input|self, kernel_size, stride=None, padding=0, ceil_mode=False, "
                             "count_include_pad=True" + (kSp == 2 ? ", divisor_override=None)" : ")"));
  Args a = schema.parse(call);
  const std::string name = "avg_pool" + std::to_string(kSp) + "d";
  Planes p = planes(a.tensor(0), kSp, name);
  check_nonempty(a.tensor(0), kSp, false);
  kernels::PoolGeom g = pool_geom(a, p, kSp, 1, 2, 3, -1, a.boolean(4), true, name);
  int64_t divisor = 0;
  if (kSp == 2 && !a.is_none(6)) {
    divisor = a.integer(6);
    if (divisor == 0) throw FxError("divisor must be not zero");
  }
  Tensor out = Tensor::empty(out_shape(p, kSp, g.OH, g.OW), p.x.dtype());
  dispatch_float(p.x.dtype(), name.c_str(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < p.count; ++i)
      kernels::avg_pool_plane<T>(g, p.x.data<T>() + i * p.H * p.W, out.data<T>() + i * g.OH * g.OW, a.boolean(5),
                                 divisor);
  });
  return restore_dtype(out, a.tensor(0).dtype());
}

// output_size: an int or a tuple whose None entries keep the input size.
std::vector<int64_t> adaptive_size(const Object& o, const Planes& p, int64_t sp) {
  std::vector<int64_t> out;
  std::vector<Object> items = o.is_sequence() ? o.items() : std::vector<Object>(static_cast<size_t>(sp), o);
  if (static_cast<int64_t>(items.size()) != sp)
    throw FxError("adaptive pool: output_size must be " + std::to_string(sp) + " values");
  for (int64_t i = 0; i < sp; ++i) {
    const Object& it = items[i];
    const int64_t in = (sp == 2 && i == 0) ? p.H : p.W;
    if (it.is_value() && it.value().is_none()) out.push_back(in);
    else out.push_back(it.value().as_int());
  }
  for (int64_t v : out)
    if (v < 0) throw FxError("adaptive pool: elements of output_size must be greater than or equal to 0");
  return out;
}

template <int kSp>
Object adaptive_avg_op(const OpCall& call) {
  static const Schema schema(std::string("adaptive_avg_pool") + std::to_string(kSp) + "d(input|self, output_size)");
  Args a = schema.parse(call);
  const std::string name = "adaptive_avg_pool" + std::to_string(kSp) + "d";
  Planes p = planes(a.tensor(0), kSp, name);
  std::vector<int64_t> os = adaptive_size(a[1], p, kSp);
  const int64_t OH = kSp == 2 ? os[0] : 1, OW = os.back();
  Tensor out = Tensor::empty(out_shape(p, kSp, OH, OW), p.x.dtype());
  dispatch_float(p.x.dtype(), name.c_str(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < p.count; ++i)
      kernels::adaptive_avg_plane<T>(p.x.data<T>() + i * p.H * p.W, p.H, p.W, OH, OW, out.data<T>() + i * OH * OW);
  });
  return restore_dtype(out, a.tensor(0).dtype());
}

template <int kSp, int kIndices>
Object adaptive_max_op(const OpCall& call) {
  static const Schema schema(std::string("adaptive_max_pool") + std::to_string(kSp) + "d(input|self, output_size" +
                             (kIndices != 0 ? ", return_indices=False)" : ")"));
  Args a = schema.parse(call);
  const std::string name = "adaptive_max_pool" + std::to_string(kSp) + "d";
  Planes p = planes(a.tensor(0), kSp, name);
  std::vector<int64_t> os = adaptive_size(a[1], p, kSp);
  const int64_t OH = kSp == 2 ? os[0] : 1, OW = os.back();
  const bool with_indices = kIndices == 1 || (kIndices == 2 && a.boolean(2));
  const Shape shape = out_shape(p, kSp, OH, OW);
  Tensor out = Tensor::empty(shape, p.x.dtype());
  Tensor idx = Tensor::empty(shape, DType::Int64);
  dispatch_float(p.x.dtype(), name.c_str(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < p.count; ++i)
      kernels::adaptive_max_plane<T>(p.x.data<T>() + i * p.H * p.W, p.H, p.W, OH, OW, out.data<T>() + i * OH * OW,
                                     idx.data<int64_t>() + i * OH * OW);
  });
  Tensor values = restore_dtype(out, a.tensor(0).dtype());
  if (with_indices) return Object::tuple({values, idx});
  return values;
}

const OpRow kOps[] = {
    {"torch.nn.functional.max_pool1d", "torch.max_pool1d aten.max_pool1d.default", "", max_pool_op<1, 2>},
    {"torch.nn.functional.max_pool1d_with_indices", "aten.max_pool1d_with_indices.default", "", max_pool_op<1, 1>},
    {"torch.nn.functional.max_pool2d", "torch.max_pool2d aten.max_pool2d.default", "", max_pool_op<2, 2>},
    {"torch.nn.functional.max_pool2d_with_indices", "torch._C._nn.max_pool2d_with_indices aten.max_pool2d_with_indices.default", "", max_pool_op<2, 1>},
    {"torch.nn.functional.avg_pool1d", "torch.avg_pool1d aten.avg_pool1d.default", "", avg_pool_op<1>},
    {"torch.nn.functional.avg_pool2d", "torch._C._nn.avg_pool2d aten.avg_pool2d.default", "", avg_pool_op<2>},
    {"torch.nn.functional.adaptive_avg_pool1d", "torch.adaptive_avg_pool1d aten.adaptive_avg_pool1d.default", "", adaptive_avg_op<1>},
    {"torch.nn.functional.adaptive_avg_pool2d", "torch._C._nn.adaptive_avg_pool2d aten.adaptive_avg_pool2d.default aten._adaptive_avg_pool2d.default", "", adaptive_avg_op<2>},
    {"torch.nn.functional.adaptive_max_pool1d", "", "", adaptive_max_op<1, 2>},
    {"torch.nn.functional.adaptive_max_pool1d_with_indices", "torch.adaptive_max_pool1d aten.adaptive_max_pool1d.default", "", adaptive_max_op<1, 1>},
    {"torch.nn.functional.adaptive_max_pool2d", "", "", adaptive_max_op<2, 2>},
    {"torch.nn.functional.adaptive_max_pool2d_with_indices", "torch._C._nn.adaptive_max_pool2d aten.adaptive_max_pool2d.default", "", adaptive_max_op<2, 1>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
