// 3-D pooling: max_pool3d (with indices), avg_pool3d, adaptive_avg_pool3d, adaptive_max_pool3d under
// torch's, torch.nn.functional's and aten's names. Inputs are [N, C, D, H, W] or unbatched [C, D, H, W];
// every leading dim is a volume for the kernels (kernels/pool3d.h).
#include "kernels/pool3d.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

struct Volumes {
  Tensor x;  // packed, compute dtype
  int64_t count = 1;
  Shape lead;
  int64_t in[3] = {1, 1, 1};
};

Volumes volumes(const Tensor& input, const std::string& name) {
  if (input.dim() != 4 && input.dim() != 5)
    throw FxError(name + ": Expected 4D or 5D input tensor, but got " + shape_to_string(input.shape()));
  Volumes v;
  v.x = float_contiguous(input, name.c_str());
  for (int64_t d = 0; d < input.dim() - 3; ++d) v.lead.push_back(input.shape()[d]), v.count *= input.shape()[d];
  for (int i = 0; i < 3; ++i) v.in[i] = input.shape()[input.dim() - 3 + i];
  return v;
}

// torch's 3-d pools take an empty batch but no other empty dim.
void check_nonempty(const Tensor& x, const std::string& where) {
  for (int64_t d = x.dim() == 5 ? 1 : 0; d < x.dim(); ++d)
    if (x.shape()[d] == 0)
      throw FxError(where + ": Expected input to have non-zero size for non-batch dimensions, but input has sizes " +
                    shape_to_string(x.shape()) + " with dimension " + std::to_string(d) + " being empty");
}

int64_t pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

Shape out_shape(const Volumes& v, const int64_t* out) {
  Shape s = v.lead;
  s.insert(s.end(), out, out + 3);
  return s;
}

kernels::Pool3dGeom geom(const Args& a, const Volumes& v, size_t ik, size_t is, size_t ip, int64_t id, bool ceil_mode,
                         bool avg, const std::string& name) {
  std::vector<int64_t> k = arg_ints(a, ik, 3, "kernel_size");
  auto so = a.int_list(is);
  std::vector<int64_t> s = (!so || so->empty()) ? k : expand_ints(*so, 3, "stride");
  std::vector<int64_t> pad = arg_ints(a, ip, 3, "padding");
  std::vector<int64_t> d = id >= 0 ? arg_ints(a, static_cast<size_t>(id), 3, "dilation") : std::vector<int64_t>(3, 1);
  kernels::Pool3dGeom g;
  for (int i = 0; i < 3; ++i)
    if (d[i] <= 0)
      throw FxError("dilation should be greater than zero, but got dilationT: " + std::to_string(d[0]) +
                    " dilationH: " + std::to_string(d[1]) + " dilationW: " + std::to_string(d[2]));
  for (int i = 0; i < 3; ++i) {
    // torch's pooling takes these as C++ int: a larger value is its overflow error (and keeps the
    // window arithmetic below far from int64's limits)
    for (int64_t v : {k[i], s[i], pad[i], d[i]})
      if (v > INT32_MAX || v < INT32_MIN) throw FxError("value cannot be converted to type int without overflow");
    if (s[i] == 0) throw FxError("stride should not be zero");
    if (k[i] <= 0) throw FxError(name + ": kernel_size must be greater than zero, but got " + std::to_string(k[i]));
    if (s[i] <= 0) throw FxError(name + ": stride must be greater than zero, but got " + std::to_string(s[i]));
    if (pad[i] < 0 || pad[i] * 2 > (avg ? k[i] : (k[i] - 1) * d[i] + 1))
      throw FxError("pad should be smaller than or equal to half of kernel size, but got padding=" +
                    std::to_string(pad[i]) + ", kernel_size=" + std::to_string(k[i]));
    g.in[i] = v.in[i], g.k[i] = k[i], g.s[i] = s[i], g.p[i] = pad[i], g.d[i] = d[i];
    g.out[i] = pool_out(v.in[i], k[i], pad[i], s[i], d[i], ceil_mode);
  }
  if (g.out[0] <= 0 || g.out[1] <= 0 || g.out[2] <= 0)
    throw FxError("Given input size: (" + std::to_string(v.lead.back()) + "x" + std::to_string(g.in[0]) + "x" +
                  std::to_string(g.in[1]) + "x" + std::to_string(g.in[2]) + "). Calculated output size: (" +
                  std::to_string(v.lead.back()) + "x" + std::to_string(g.out[0]) + "x" + std::to_string(g.out[1]) +
                  "x" + std::to_string(g.out[2]) + "). Output size is too small");
  return g;
}

template <int kIndices>  // 0 never, 1 always (a tuple), 2 per return_indices
Object max_pool3d_op(const OpCall& call) {
  static const Schema schema(std::string("max_pool3d(input|self, kernel_size, stride=None, padding=0, dilation=1, "
                                         "ceil_mode=False") + (kIndices != 0 ? ", return_indices=False)" : ")"));
  Args a = schema.parse(call);
  Volumes v = volumes(a.tensor(0), "max_pool3d");
  check_nonempty(a.tensor(0), "max_pool3d_with_indices_out_cpu_template()");
  kernels::Pool3dGeom g = geom(a, v, 1, 2, 3, 4, a.boolean(5), false, "max_pool3d");
  const bool with_indices = kIndices == 1 || (kIndices == 2 && a.boolean(6));
  const Shape shape = out_shape(v, g.out);
  Tensor out = Tensor::empty(shape, v.x.dtype());
  Tensor idx = with_indices ? Tensor::empty(shape, DType::Int64) : Tensor();
  const int64_t in_vol = v.in[0] * v.in[1] * v.in[2], out_vol = g.out[0] * g.out[1] * g.out[2];
  dispatch_float(v.x.dtype(), "max_pool3d", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < v.count; ++i)
      kernels::max_pool3d_volume<T>(g, v.x.data<T>() + i * in_vol, out.data<T>() + i * out_vol,
                                    with_indices ? idx.data<int64_t>() + i * out_vol : nullptr);
  });
  Tensor values = restore_dtype(out, a.tensor(0).dtype());
  if (with_indices) return Object::tuple({values, idx});
  return values;
}

Object avg_pool3d_op(const OpCall& call) {
  static const Schema schema("avg_pool3d(input|self, kernel_size, stride=None, padding=0, ceil_mode=False, "
                             "count_include_pad=True, divisor_override=None)");
  Args a = schema.parse(call);
  Volumes v = volumes(a.tensor(0), "avg_pool3d");
  check_nonempty(a.tensor(0), "avg_pool3d()");
  kernels::Pool3dGeom g = geom(a, v, 1, 2, 3, -1, a.boolean(4), true, "avg_pool3d");
  int64_t divisor = 0;
  if (!a.is_none(6)) {
    divisor = a.integer(6);
    if (divisor == 0) throw FxError("divisor must be not zero");
  }
  Tensor out = Tensor::empty(out_shape(v, g.out), v.x.dtype());
  const int64_t in_vol = v.in[0] * v.in[1] * v.in[2], out_vol = g.out[0] * g.out[1] * g.out[2];
  dispatch_float(v.x.dtype(), "avg_pool3d", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < v.count; ++i)
      kernels::avg_pool3d_volume<T>(g, v.x.data<T>() + i * in_vol, out.data<T>() + i * out_vol, a.boolean(5), divisor);
  });
  return restore_dtype(out, a.tensor(0).dtype());
}

// kMax: 0 average, 1 max returning (values, indices), 2 max per return_indices.
template <int kMax>
Object adaptive3d_op(const OpCall& call) {
  static const Schema schema(kMax == 0   ? "adaptive_avg_pool3d(input|self, output_size)"
                             : "adaptive_max_pool3d(input|self, output_size, return_indices=False)");
  Args a = schema.parse(call);
  const std::string name = kMax ? "adaptive_max_pool3d" : "adaptive_avg_pool3d";
  Volumes v = volumes(a.tensor(0), name);
  std::vector<Object> items = a[1].is_sequence() ? a[1].items() : std::vector<Object>(3, a[1]);
  if (items.size() != 3) throw FxError(name + ": output_size must be 3");
  kernels::Pool3dGeom g;
  for (int i = 0; i < 3; ++i) {
    g.in[i] = v.in[i];
    g.out[i] = items[i].is_value() && items[i].value().is_none() ? v.in[i] : items[i].value().as_int();
    if (g.out[i] < 0) throw FxError(name + ": elements of output_size must be greater than or equal to 0");
  }
  const bool with_indices = kMax == 1 || (kMax == 2 && a.boolean(2));
  const Shape shape = out_shape(v, g.out);
  Tensor out = Tensor::empty(shape, v.x.dtype());
  Tensor idx = kMax ? Tensor::empty(shape, DType::Int64) : Tensor();
  const int64_t in_vol = v.in[0] * v.in[1] * v.in[2], out_vol = g.out[0] * g.out[1] * g.out[2];
  dispatch_float(v.x.dtype(), name.c_str(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < v.count; ++i)
      kernels::adaptive_pool3d_volume<T>(g, v.x.data<T>() + i * in_vol, out.data<T>() + i * out_vol,
                                         kMax ? idx.data<int64_t>() + i * out_vol : nullptr);
  });
  Tensor values = restore_dtype(out, a.tensor(0).dtype());
  if (with_indices) return Object::tuple({values, idx});
  return values;
}

const OpRow kOps[] = {
    {"torch.nn.functional.max_pool3d", "torch.max_pool3d aten.max_pool3d.default", "", max_pool3d_op<2>},
    {"torch.nn.functional.max_pool3d_with_indices", "torch._C._nn.max_pool3d_with_indices aten.max_pool3d_with_indices.default", "", max_pool3d_op<1>},
    {"torch.nn.functional.avg_pool3d", "torch._C._nn.avg_pool3d aten.avg_pool3d.default", "", avg_pool3d_op},
    {"torch.nn.functional.adaptive_avg_pool3d", "torch._C._nn.adaptive_avg_pool3d aten.adaptive_avg_pool3d.default aten._adaptive_avg_pool3d.default", "", adaptive3d_op<0>},
    {"torch.nn.functional.adaptive_max_pool3d", "", "", adaptive3d_op<2>},
    {"torch.nn.functional.adaptive_max_pool3d_with_indices", "torch._C._nn.adaptive_max_pool3d aten.adaptive_max_pool3d.default", "", adaptive3d_op<1>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
