// max_unpool1d/2d/3d: the partial inverse of max_pool — each input value written into a zero output at
// the flat spatial index max_pool returned for it. F.max_unpool{1,2,3}d take the pooling geometry and
// compute output_size as torch.nn.functional._unpool_output_size does; aten.max_unpool2d/3d take it.
#include <cstring>

#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

std::string list_string(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Scalar reference kernel: `planes` planes of `in_plane` elements (each `elem` bytes) scattered into
// zeroed planes of `out_plane` elements at idx. Returns the first invalid index's position, or -1.
int64_t unpool_kernel(const uint8_t* in, const int64_t* idx, uint8_t* out, int64_t planes, int64_t in_plane,
                      int64_t out_plane, size_t elem) {
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < in_plane; ++i) {
      const int64_t k = idx[p * in_plane + i];
      if (k < 0 || k >= out_plane) return p * in_plane + i;
      std::memcpy(out + (p * out_plane + k) * elem, in + (p * in_plane + i) * elem, elem);
    }
  return -1;
}

// S spatial dims (2 or 3) at the end of input, which has S + 1 or S + 2 dims.
Tensor max_unpool_tensor(const Tensor& input, const Tensor& indices, const std::vector<int64_t>& out_size, int S) {
  const std::string name = S == 2 ? "max_unpooling2d" : "max_unpooling3d";
  if (S == 2) {
    if (indices.dtype() != DType::Int64)
      throw FxError(std::string("elements in indices should be type int64 but got: ") +
                    torch_type_name(indices.dtype()));
    if (out_size.size() != 2)
      throw FxError("There should be exactly two elements (height, width) in output_size, but got " +
                    std::to_string(out_size.size()) + " elements.");
  } else if (out_size.size() != 3) {
    throw FxError("There should be exactly three elements (depth, height, width) in output_size, but got " +
                  std::to_string(out_size.size()) + " elements.");
  }
  if (input.dim() != S + 1 && input.dim() != S + 2)
    throw FxError("Input to " + name + " should be a " + std::to_string(S + 1) + "d or " + std::to_string(S + 2) +
                  "d Tensor, but got a tensor with " + std::to_string(input.dim()) + " dimensions.");
  if (input.shape() != indices.shape())
    throw FxError("Expected shape of indices to be same as that of the input tensor (" +
                  shape_to_string(input.shape()) + ") but got indices tensor with shape: " +
                  shape_to_string(indices.shape()));
  if (S == 3 && indices.dtype() != DType::Int64)
    throw FxError(std::string("elements in indices should be type int64 but got: ") + torch_type_name(indices.dtype()));
  for (int64_t d = 1; d < input.dim(); ++d)
    if (input.shape()[d] == 0)
      throw FxError(name + "_forward_out_cpu(): Expected input to have non-zero size for non-batch dimensions, "
                    "but input has sizes " + shape_to_string(input.shape()) + " with dimension " + std::to_string(d) +
                    " being empty");
  if (!dtype_is_floating(input.dtype()))
    throw FxError(std::string("\"max_unpool") + std::to_string(S) + "d\" not implemented for '" +
                  torch_type_name(input.dtype()) + "'");
  Shape shape(input.shape().begin(), input.shape().end() - S);
  int64_t planes = 1, in_plane = 1, out_plane = 1;
  for (int64_t v : shape) planes *= v;
  for (int d = 0; d < S; ++d) in_plane *= input.shape()[input.dim() - S + d], out_plane *= out_size[d];
  shape.insert(shape.end(), out_size.begin(), out_size.end());
  Tensor out = Tensor::zeros(shape, input.dtype());
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  Tensor x = input.contiguous(), idx = indices.contiguous();
  const int64_t bad = unpool_kernel(static_cast<const uint8_t*>(x.raw_data()), idx.data<int64_t>(),
                                    static_cast<uint8_t*>(out.raw_data()), planes, in_plane, out_plane,
                                    dtype_size(x.dtype()));
  if (bad >= 0) {
    std::string sizes;
    for (int d = 0; d < S; ++d) sizes += (d ? (S == 2 ? "x" : " x ") : "") + std::to_string(out_size[d]);
    throw FxError("Found an invalid max index: " + std::to_string(idx.data<int64_t>()[bad]) +
                  " (output volumes are of size " + sizes + ")");
  }
  return out;
}

Object aten_unpool2d_op(const OpCall& call) {
  static const Schema schema("max_unpool2d(input|self, indices, output_size)");
  Args a = schema.parse(call);
  return max_unpool_tensor(a.tensor(0), a.tensor(1), *a.int_list(2), 2);
}

Object aten_unpool3d_op(const OpCall& call) {
  static const Schema schema("max_unpool3d(input|self, indices, output_size, stride, padding)");
  Args a = schema.parse(call);
  const std::vector<int64_t> stride = *a.int_list(3), padding = *a.int_list(4);
  if (stride.size() != 3)
    throw FxError("There should be exactly three elements (depth, height, width) in stride, but got: " +
                  std::to_string(stride.size()) + " elements.");
  if (padding.size() != 3)
    throw FxError("There should be exactly three elements (depth, height, width) in padding, but got: " +
                  std::to_string(padding.size()) + " elements.");
  for (int64_t s : stride)
    if (s <= 0) throw FxError("strides should be greater than zero, but got stride: " + list_string(stride));
  return max_unpool_tensor(a.tensor(0), a.tensor(1), *a.int_list(2), 3);
}

// F.max_unpool{sp}d(input, indices, kernel_size, stride=None, padding=0, output_size=None). (sp is an
// argument, not a template parameter: one copy of the code.)
Object f_unpool(const OpCall& call, int sp) {
  static const Schema schema("max_unpool(input, indices, kernel_size, stride=None, padding=0, output_size=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const std::vector<int64_t> k = arg_ints(a, 2, sp, "kernel_size");
  auto so = a.int_list(3);
  const std::vector<int64_t> s = so ? expand_ints(*so, sp, "stride") : k;
  const std::vector<int64_t> p = arg_ints(a, 4, sp, "padding");
  if (x.dim() < sp) throw FxError("max_unpool" + std::to_string(sp) + "d: input has too few dimensions");
  std::vector<int64_t> def(sp), out;
  for (int d = 0; d < sp; ++d) def[d] = (x.shape()[x.dim() - sp + d] - 1) * s[d] + k[d] - 2 * p[d];
  if (a.is_none(5)) {
    out = def;
  } else {
    out = *a.int_list(5);
    if (out.size() == static_cast<size_t>(sp + 2)) out.erase(out.begin(), out.begin() + 2);
    if (out.size() != static_cast<size_t>(sp))
      throw FxError("output_size should be a sequence containing " + std::to_string(sp) + " or " +
                    std::to_string(sp + 2) + " elements, but it has a length of '" + std::to_string(out.size()) + "'");
    for (int d = 0; d < sp; ++d)
      if (!(def[d] - s[d] < out[d] && out[d] < def[d] + s[d]))
        throw FxError("invalid output_size \"" + list_string(out) + "\" (dim " + std::to_string(d) +
                      " must be between " + std::to_string(def[d] - s[d]) + " and " +
                      std::to_string(def[d] + s[d]) + ")");
  }
  for (int d = 0; d < sp; ++d)
    if (out[d] < 0)
      throw FxError("max_unpooling: output_size must contain non-negative spatial dimensions, but got output_size[" +
                    std::to_string(d) + "]=" + std::to_string(out[d]));
  if (sp == 3) return max_unpool_tensor(x, a.tensor(1), out, 3);
  if (sp == 2) return max_unpool_tensor(x, a.tensor(1), out, 2);
  // 1-d: max_unpool2d on a trailing unit dim, as torch does.
  auto unsqueezed = [](const Tensor& t) {
    Shape sh = t.shape();
    sh.push_back(1);
    return view_as_shape(t.contiguous(), sh);
  };
  const Tensor& idx = a.tensor(1);
  Tensor r = max_unpool_tensor(unsqueezed(x), unsqueezed(idx), {out[0], 1}, 2);
  Shape sh = r.shape();
  sh.pop_back();
  return view_as_shape(r, sh);
}

template <int kSp>
Object f_unpool_op(const OpCall& call) {
  return f_unpool(call, kSp);
}

const OpRow kOps[] = {
    {"torch.nn.functional.max_unpool1d", "", "", f_unpool_op<1>},
    {"torch.nn.functional.max_unpool2d", "", "", f_unpool_op<2>},
    {"torch.nn.functional.max_unpool3d", "", "", f_unpool_op<3>},
    {"torch._C._nn.max_unpool2d", "aten.max_unpool2d.default", "", aten_unpool2d_op},
    {"torch._C._nn.max_unpool3d", "aten.max_unpool3d.default", "", aten_unpool3d_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
