// conv3d and conv_transpose3d under torch's, torch.nn.functional's and aten's names (aten.convolution with
// a 5-D weight comes here from conv_ops.cpp), with torch's argument checks and messages.
#include "ops/nn/conv3d.h"

#include <type_traits>

#include "kernels/conv3d.h"
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/checked.h"

namespace fx {

Tensor conv3d_tensor(const Tensor& input0, const Tensor& weight0, const Tensor& bias0, const Conv3dArgs& args) {
  if (weight0.dim() != 5) throw FxError("conv3d: weight must be 5-D, got " + shape_to_string(weight0.shape()));
  if (input0.dim() != 4 && input0.dim() != 5)
    throw FxError("Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: " +
                  shape_to_string(input0.shape()));
  if (input0.dtype() != weight0.dtype())
    throw FxError(std::string("Input type (") + dtype_name(input0.dtype()) + ") and weight type (" +
                  dtype_name(weight0.dtype()) + ") should be the same");
  const bool unbatched = input0.dim() == 4;
  Tensor input = unbatched ? view_as_shape(input0.contiguous(), [&] {
    Shape s{1};
    s.insert(s.end(), input0.shape().begin(), input0.shape().end());
    return s;
  }()) : input0;
  const int64_t groups = args.groups;
  if (groups <= 0) throw FxError("non-positive groups is not supported");
  const Shape& ws = weight0.shape();
  kernels::Conv3dGeom g;
  g.N = input.shape()[0], g.C = input.shape()[1], g.groups = groups;
  std::vector<int64_t> stride = expand_ints(args.stride, 3, "stride"), dil = expand_ints(args.dilation, 3, "dilation");
  for (int64_t s : stride)
    if (s <= 0) throw FxError("non-positive stride is not supported");
  for (int64_t d : dil)
    if (d <= 0) throw FxError("dilation should be greater than zero, but got " + shape_to_string(dil));
  std::vector<int64_t> pad_lo(3, 0), pad_hi(3, 0);
  if (args.padding_str == "valid") {
  } else if (args.padding_str == "same") {
    if (args.transposed) throw FxError("padding='same' is not supported for transposed convolutions");
    for (int64_t s : stride)
      if (s != 1) throw FxError("padding='same' is not supported for strided convolutions");
    for (int i = 0; i < 3; ++i) {
      const int64_t total = dil[i] * (ws[2 + i] - 1);
      pad_lo[i] = total / 2, pad_hi[i] = total - total / 2;
    }
  } else if (!args.padding_str.empty()) {
    throw FxError("Invalid padding string: '" + args.padding_str + "'");
  } else {
    pad_lo = pad_hi = expand_ints(args.padding, 3, "padding");
    for (int64_t q : pad_lo)
      if (q < 0) throw FxError("negative padding is not supported");
  }
  if (ws[0] < groups)  // (also keeps ws[1] * groups below from overflowing)
    throw FxError("Given groups=" + std::to_string(groups) + ", expected weight to be at least " +
                  std::to_string(groups) + " at dimension 0, but got weight of size " + shape_to_string(ws) +
                  " instead");
  const int64_t wc = args.transposed ? ws[0] : ws[1] * groups;
  if (g.C != wc) {
    if (args.transposed)
      throw FxError("Given transposed=1, weight of size " + shape_to_string(ws) + ", expected input" +
                    shape_to_string(input.shape()) + " to have " + std::to_string(ws[0]) + " channels, but got " +
                    std::to_string(g.C) + " channels instead");
    throw FxError("Given groups=" + std::to_string(groups) + ", weight of size " + shape_to_string(ws) +
                  ", expected input" + shape_to_string(input.shape()) + " to have " + std::to_string(wc) +
                  " channels, but got " + std::to_string(g.C) + " channels instead");
  }
  if (!args.transposed && ws[0] % groups != 0)
    throw FxError("Given groups=" + std::to_string(groups) + ", expected weight to be divisible by " +
                  std::to_string(groups) + " at dimension 0, but got weight of size " + shape_to_string(ws) +
                  " instead");
  g.OC = args.transposed ? ws[1] * groups : ws[0];
  std::vector<int64_t> out_pad = args.transposed ? expand_ints(args.output_padding, 3, "output_padding")
                                                 : std::vector<int64_t>(3, 0);
  for (int i = 0; i < 3; ++i) {
    const char* what = "conv3d output size";
    g.in[i] = checked_sub(checked_add(input.shape()[2 + i], pad_hi[i], what), pad_lo[i], what);  // an asymmetric 'same' pad extends the input's end
    g.k[i] = ws[2 + i], g.s[i] = stride[i], g.d[i] = dil[i], g.p[i] = pad_lo[i];
    const int64_t span = checked_add(checked_mul(dil[i], ws[2 + i] - 1, what), 1, what);  // dilated kernel
    const int64_t padded = checked_add(g.in[i], checked_mul(2, pad_lo[i], what), what);
    g.out[i] = args.transposed
                   ? checked_add(checked_sub(checked_mul(input.shape()[2 + i] - 1, stride[i], what),
                                             checked_mul(2, pad_lo[i], what), what),
                                 checked_add(span, out_pad[i], what), what)
                   : checked_window_out(g.in[i], checked_mul(2, pad_lo[i], what), ws[2 + i], stride[i], dil[i], what);
    if (g.out[i] <= 0 || (!args.transposed && padded < span))
      throw FxError("Calculated padded input size per channel: (" + std::to_string(g.in[0] + 2 * pad_lo[0]) + " x " +
                    std::to_string(g.in[1] + 2 * pad_lo[1]) + " x " + std::to_string(g.in[2] + 2 * pad_lo[2]) +
                    "). Kernel size: (" + std::to_string(ws[2]) + " x " + std::to_string(ws[3]) + " x " +
                    std::to_string(ws[4]) + "). Kernel size can't be greater than actual input size");
  }
  if (input.dtype() == DType::Bool) throw FxError("\"slow_conv3d_cpu\" not implemented for 'Bool'");
  // Integers compute in int64 (wrapping sums of products: the same low bits as torch's narrower ones).
  // A transposed convolution scatters each product into its output, so one output sums its terms in no
  // helpful order: float32 ones are summed in float64 (OpInfo's conv_transpose3d sample of 108 terms of
  // ±80 drifted 2.4e-4 from torch in float32).
  const DType kdt = args.transposed && input.dtype() != DType::Float64 && dtype_is_floating(input.dtype())
                        ? DType::Float64 : wide_dtype(input.dtype());
  Tensor x = to_dtype(input, kdt).contiguous();
  if (pad_hi != pad_lo) {  // 'same' with an even kernel: one more zero at the end of the dims that need it
    Tensor padded = Tensor::zeros({g.N, g.C, g.in[0], g.in[1], g.in[2]}, x.dtype());
    dispatch_wide(x.dtype(), "conv3d", [&](auto tag) {
      using T = decltype(tag);
      const int64_t D = input.shape()[2], H = input.shape()[3], W = input.shape()[4];
      for (int64_t p = 0; p < g.N * g.C; ++p)
        for (int64_t d = 0; d < D; ++d)
          for (int64_t h = 0; h < H; ++h)
            for (int64_t w = 0; w < W; ++w)
              padded.data<T>()[((p * g.in[0] + d) * g.in[1] + h) * g.in[2] + w] =
                  x.data<T>()[((p * D + d) * H + h) * W + w];
    });
    x = padded;
  }
  Tensor w = to_dtype(weight0, x.dtype()).contiguous();
  Tensor b = bias0.defined() ? to_dtype(bias0, x.dtype()).contiguous() : Tensor();
  if (b.defined() && b.numel() != g.OC)
    throw FxError("conv3d: bias must have " + std::to_string(g.OC) + " values, got " + shape_to_string(b.shape()));
  Shape shape{g.N, g.OC, g.out[0], g.out[1], g.out[2]};
  Tensor out = Tensor::empty(shape, x.dtype());
  dispatch_wide(x.dtype(), "conv3d", [&](auto tag) {
    using T = decltype(tag);
    const T* bp = b.defined() ? b.data<T>() : nullptr;
    if constexpr (std::is_same_v<T, bool>) (void)bp;  // refused above
    else if (args.transposed) kernels::conv_transpose3d_forward<T>(g, x.data<T>(), w.data<T>(), bp, out.data<T>());
    else kernels::conv3d_forward<T>(g, x.data<T>(), w.data<T>(), bp, out.data<T>());
  });
  out = restore_dtype(out, input0.dtype());
  if (unbatched) out = view_as_shape(out, Shape(shape.begin() + 1, shape.end()));
  return out;
}

Tensor conv_as_3d(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t spatial,
                  const std::vector<int64_t>& stride, const std::vector<int64_t>& pad_begin,
                  const std::vector<int64_t>& pad_end, const std::vector<int64_t>& dilation,
                  const std::vector<int64_t>& output_padding, int64_t groups, bool transposed) {
  const int64_t extra = 3 - spatial;
  auto lift = [extra](const Tensor& t, int64_t at) {
    Shape s = t.shape();
    s.insert(s.begin() + at, static_cast<size_t>(extra), 1);
    return view_as_shape(t.contiguous(), s);
  };
  auto ints = [extra](const std::vector<int64_t>& v, int64_t fill) {
    std::vector<int64_t> out(static_cast<size_t>(extra), fill);
    out.insert(out.end(), v.begin(), v.end());
    return out;
  };
  Conv3dArgs c;
  c.stride = ints(stride, 1), c.dilation = ints(dilation, 1), c.groups = groups, c.transposed = transposed;
  if (pad_begin != pad_end) c.padding_str = "same";
  else c.padding = ints(pad_begin, 0);
  if (transposed) c.output_padding = ints(output_padding, 0);
  const bool unbatched = input.dim() == spatial + 1;
  Tensor y = conv3d_tensor(lift(input, unbatched ? 1 : 2), lift(weight, 2), bias, c);
  Shape s = y.shape();
  s.erase(s.begin() + (unbatched ? 1 : 2), s.begin() + (unbatched ? 1 : 2) + extra);
  return view_as_shape(y, s);
}

namespace {

Tensor opt_tensor(const Args& a, size_t i) { return a.is_none(i) ? Tensor() : a.tensor(i); }

Object conv3d_op(const OpCall& call) {
  static const Schema schema("conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)");
  Args a = schema.parse(call);
  Conv3dArgs c;
  c.stride = *a.int_list(3);
  if (a[4].is_value() && a[4].value().kind() == ValueKind::Str) c.padding_str = a.str(4);
  else c.padding = *a.int_list(4);
  c.dilation = *a.int_list(5);
  c.groups = a.integer(6);
  return conv3d_tensor(a.tensor(0), a.tensor(1), opt_tensor(a, 2), c);
}

Object conv_transpose3d_op(const OpCall& call) {
  static const Schema schema("conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, "
                             "groups=1, dilation=1)");
  Args a = schema.parse(call);
  Conv3dArgs c;
  c.transposed = true;
  c.stride = *a.int_list(3);
  c.padding = *a.int_list(4);
  c.output_padding = *a.int_list(5);
  c.groups = a.integer(6);
  c.dilation = *a.int_list(7);
  return conv3d_tensor(a.tensor(0), a.tensor(1), opt_tensor(a, 2), c);
}

const OpRegistrar reg_conv3d{OpDef{"torch.nn.functional.conv3d",
                                   {"torch.conv3d", "aten.conv3d.default", "aten.conv3d.padding"}, {}, conv3d_op}};
const OpRegistrar reg_convt3d{OpDef{"torch.nn.functional.conv_transpose3d",
                                    {"torch.conv_transpose3d", "aten.conv_transpose3d.input"}, {},
                                    conv_transpose3d_op}};

}  // namespace
}  // namespace fx
