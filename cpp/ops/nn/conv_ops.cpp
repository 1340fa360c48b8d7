// conv1d/conv2d, conv_transpose1d/2d and aten.convolution (3-D weights: ops/nn/conv3d.h) under the names FX records them with.
#include "ops/nn/conv.h"
#include "ops/nn/conv3d.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor opt_tensor(const Args& a, size_t i) { return a.is_none(i) ? Tensor() : a.tensor(i); }

template <int kSpatial>
Object conv_op(const OpCall& call) {
  static const Schema schema(std::string("conv") + std::to_string(kSpatial) +
                             "d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)");
  Args a = schema.parse(call);
  const Tensor& w = a.tensor(1);
  std::string pad_str;
  std::vector<int64_t> pad;
  if (a[4].is_value() && a[4].value().kind() == ValueKind::Str) pad_str = a.str(4);
  else pad = *a.int_list(4);
  ConvParams p = conv_params(kSpatial, *a.int_list(3), pad, pad_str, *a.int_list(5), a.integer(6), false, {},
                             w.shape());
  return conv_forward(a.tensor(0), w, opt_tensor(a, 2), p);
}

template <int kSpatial>
Object conv_transpose_op(const OpCall& call) {
  static const Schema schema(std::string("conv_transpose") + std::to_string(kSpatial) +
                             "d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)");
  Args a = schema.parse(call);
  const Tensor& w = a.tensor(1);
  ConvParams p = conv_params(kSpatial, *a.int_list(3), *a.int_list(4), "", *a.int_list(7), a.integer(6), true,
                             *a.int_list(5), w.shape());
  return conv_forward(a.tensor(0), w, opt_tensor(a, 2), p);
}

Object convolution_op(const OpCall& call) {
  static const Schema schema(
      "convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)");
  Args a = schema.parse(call);
  const Tensor& w = a.tensor(1);
  const int64_t spatial = w.dim() - 2;
  if (spatial == 3) {
    Conv3dArgs c;
    c.stride = *a.int_list(3), c.padding = *a.int_list(4), c.dilation = *a.int_list(5);
    c.transposed = a.boolean(6), c.output_padding = *a.int_list(7), c.groups = a.integer(8);
    return conv3d_tensor(a.tensor(0), w, opt_tensor(a, 2), c);
  }
  if (spatial != 1 && spatial != 2)
    throw FxError("convolution: only 1-D and 2-D convolutions are supported, got a weight of rank " +
                  std::to_string(w.dim()));
  ConvParams p = conv_params(spatial, *a.int_list(3), *a.int_list(4), "", *a.int_list(5), a.integer(8),
                             a.boolean(6), *a.int_list(7), w.shape());
  return conv_forward(a.tensor(0), w, opt_tensor(a, 2), p);
}

const OpRow kOps[] = {
    {"torch.nn.functional.conv1d", "torch.conv1d aten.conv1d.default aten.conv1d.padding", "", conv_op<1>},
    {"torch.nn.functional.conv2d", "torch.conv2d aten.conv2d.default aten.conv2d.padding", "", conv_op<2>},
    {"torch.nn.functional.conv_transpose1d", "torch.conv_transpose1d aten.conv_transpose1d.default", "", conv_transpose_op<1>},
    {"torch.nn.functional.conv_transpose2d", "torch.conv_transpose2d aten.conv_transpose2d.input", "", conv_transpose_op<2>},
    {"torch.convolution", "aten.convolution.default", "", convolution_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
