// unfold (im2col) and fold (col2im) of torch.nn.functional for 4-D batched or 3-D unbatched inputs, and
// one_hot. unfold: [N, C, H, W] → [N, C·kh·kw, L] of the sliding blocks; fold sums blocks back into
// [N, C, H, W] (overlaps add).
#include <algorithm>
#include <cstring>

#include "ops/dispatch.h"
#include "ops/dispatch_order.h"
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/checked.h"
#include "tensor/meta.h"

namespace fx {
namespace {

struct Blocks {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
  int64_t H, W, OH, OW;  // image size and the block grid
};

Blocks blocks(const Args& a, size_t first, int64_t H, int64_t W, const char* op) {
  const std::vector<int64_t> k = arg_ints(a, first, 2, "kernel_size"), d = arg_ints(a, first + 1, 2, "dilation"),
                             p = arg_ints(a, first + 2, 2, "padding"), s = arg_ints(a, first + 3, 2, "stride");
  auto pair = [](const char* what, const std::vector<int64_t>& v, const char* a, const char* b) {
    return std::string(what) + " should be greater than zero, but got " + a + ": " + std::to_string(v[0]) + " " +
           b + ": " + std::to_string(v[1]);
  };
  // torch's order and wording (im2col_shape_check)
  if (k[0] <= 0 || k[1] <= 0) throw FxError(pair("kernel size", k, "kernel_height", "kernel_width"));
  if (s[0] <= 0 || s[1] <= 0) throw FxError(pair("stride", s, "stride_height", "stride_width"));
  if (d[0] <= 0 || d[1] <= 0) throw FxError(pair("dilation", d, "dilation_height", "dilation_width"));
  if (p[0] < 0 || p[1] < 0)
    throw FxError("padding should be non-negative, but got pad_height: " + std::to_string(p[0]) +
                  " pad_width: " + std::to_string(p[1]));
  Blocks b{k[0], k[1], d[0], d[1], p[0], p[1], s[0], s[1], H, W, 0, 0};
  const char* what = std::strcmp(op, "fold") == 0 ? "fold output size" : "unfold output size";
  b.OH = checked_window_out(H, checked_mul(2, b.ph, what), b.kh, b.sh, b.dh, what);
  b.OW = checked_window_out(W, checked_mul(2, b.pw, what), b.kw, b.sw, b.dw, what);
  if (b.OH <= 0 || b.OW <= 0)
    throw FxError("Given input with spatial size (" + std::to_string(H) + ", " + std::to_string(W) +
                  "), kernel_size=(" + std::to_string(b.kh) + ", " + std::to_string(b.kw) +
                  "), the calculated shape of the array of sliding blocks is (" + std::to_string(b.OH) + ", " +
                  std::to_string(b.OW) + "), but its components must be at least one.");
  return b;
}

// kFold false: cols[n, c·kh·kw + i·kw + j, oh·OW + ow] = img[n, c, ih, iw]; true: img += cols.
template <bool kFold, typename T>
void im2col(const Blocks& b, int64_t planes, T* img, T* cols) {
  const int64_t L = b.OH * b.OW;
  for (int64_t c = 0; c < planes; ++c)
    for (int64_t i = 0; i < b.kh; ++i)
      for (int64_t j = 0; j < b.kw; ++j) {
        T* row = cols + ((c * b.kh + i) * b.kw + j) * L;
        for (int64_t oh = 0; oh < b.OH; ++oh) {
          const int64_t ih = oh * b.sh - b.ph + i * b.dh;
          for (int64_t ow = 0; ow < b.OW; ++ow) {
            const int64_t iw = ow * b.sw - b.pw + j * b.dw;
            const bool in = ih >= 0 && ih < b.H && iw >= 0 && iw < b.W;
            if constexpr (kFold) {
              if (in) img[(c * b.H + ih) * b.W + iw] += row[oh * b.OW + ow];
            } else {
              row[oh * b.OW + ow] = in ? img[(c * b.H + ih) * b.W + iw] : T(0);
            }
          }
        }
      }
}

Object unfold_op(const OpCall& call) {
  static const Schema schema("unfold(input, kernel_size, dilation=1, padding=0, stride=1)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  if (x0.dim() != 3 && x0.dim() != 4)
    throw FxError("Input Error: Only 3D or 4D input Tensors are supported (got " + std::to_string(x0.dim()) + "D)");
  const bool batched = x0.dim() == 4;
  for (int64_t d = batched ? 1 : 0; d < x0.dim(); ++d)
    if (x0.shape()[d] == 0)
      throw FxError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
                    "for input, but got: " + shape_to_string(x0.shape()));
  const int64_t N = batched ? x0.shape()[0] : 1, C = x0.shape()[x0.dim() - 3];
  Blocks b = blocks(a, 1, x0.shape()[x0.dim() - 2], x0.shape()[x0.dim() - 1], "unfold");
  const DType kdt = compute_dtype(x0.dtype());
  Tensor x = to_dtype(x0, kdt).contiguous();
  Shape shape{C * b.kh * b.kw, b.OH * b.OW};
  if (batched) shape.insert(shape.begin(), N);
  Tensor out = Tensor::empty(shape, kdt);
  dispatch_width(dtype_size(kdt), [&](auto tag) {  // only copies: one instantiation per element width
    using T = decltype(tag);
    for (int64_t n = 0; n < N; ++n)
      im2col<false, T>(b, C, x.data<T>() + n * C * b.H * b.W, out.data<T>() + n * C * b.kh * b.kw * b.OH * b.OW);
  });
  return restore_dtype(out, x0.dtype());
}

Object fold_op(const OpCall& call) {
  static const Schema schema("fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  if (x0.dim() != 2 && x0.dim() != 3)
    throw FxError("Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got " +
                  std::to_string(x0.dim()) + "D)");
  const bool batched = x0.dim() == 3;
  const std::vector<int64_t> os = arg_ints(a, 1, 2, "output_size");
  Blocks b = blocks(a, 2, os[0], os[1], "fold");
  const int64_t N = batched ? x0.shape()[0] : 1, rows = x0.shape()[x0.dim() - 2], L = x0.shape()[x0.dim() - 1];
  const int64_t kk = checked_mul(b.kh, b.kw, "fold kernel_size");
  if (rows % kk != 0)
    throw FxError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
                  "input.size(1)=" + std::to_string(rows) + " and kernel_size=(" + std::to_string(b.kh) + ", " +
                  std::to_string(b.kw) + ").");
  if (L != checked_mul(b.OH, b.OW, "fold number of blocks"))
    throw FxError("Given output_size=(" + std::to_string(os[0]) + ", " + std::to_string(os[1]) + "), kernel_size=(" +
                  std::to_string(b.kh) + ", " + std::to_string(b.kw) + "), dilation=(" + std::to_string(b.dh) + ", " +
                  std::to_string(b.dw) + "), padding=(" + std::to_string(b.ph) + ", " + std::to_string(b.pw) +
                  "), stride=(" + std::to_string(b.sh) + ", " + std::to_string(b.sw) +
                  "), expected size of input's dimension 2 to match the calculated number of sliding blocks " +
                  std::to_string(b.OH) + " * " + std::to_string(b.OW) + " = " + std::to_string(b.OH * b.OW) +
                  ", but got input.size(2)=" + std::to_string(L) + ".");
  const int64_t C = rows / kk;
  const DType kdt = wide_dtype(x0.dtype());  // integers sum in int64 (wrapping: the same low bits)
  Tensor x = to_dtype(x0, kdt).contiguous();
  Shape shape{C, os[0], os[1]};
  if (batched) shape.insert(shape.begin(), N);
  Tensor out = Tensor::zeros(shape, kdt);
  dispatch_wide(kdt, "col2im", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t n = 0; n < N; ++n)
      im2col<true, T>(b, C, out.data<T>() + n * C * b.H * b.W, x.data<T>() + n * rows * L);
  });
  return restore_dtype(out, x0.dtype());
}

Object one_hot_op(const OpCall& call) {
  static const Schema schema("one_hot(input|self, num_classes=-1)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dtype() != DType::Int64) throw FxError("one_hot is only applicable to index tensor of type LongTensor.");
  Tensor idx = x.contiguous();
  int64_t classes = a.integer(1);
  const int64_t* p = idx.data<int64_t>();
  int64_t mx = -1;
  for (int64_t i = 0; i < idx.numel(); ++i) {
    if (p[i] < 0) throw FxError("Class values must be non-negative.");
    mx = std::max(mx, p[i]);
  }
  if (classes == -1) {
    if (idx.numel() == 0) throw FxError("Can not infer total number of classes from empty tensor.");
    classes = mx + 1;
  } else if (mx >= classes) {
    throw FxError("Class values must be smaller than num_classes.");
  }
  Shape shape = x.shape();
  shape.push_back(classes);
  Tensor out = Tensor::zeros(shape, DType::Int64);
  for (int64_t i = 0; i < idx.numel(); ++i) out.data<int64_t>()[i * classes + p[i]] = 1;
  return out;
}

// Inference: the shape is known when num_classes is given; counting classes needs the values.
Object one_hot_infer(const OpCall& call) {
  static const Schema schema("one_hot(input|self, num_classes=-1)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dtype() != DType::Int64) throw FxError("one_hot is only applicable to index tensor of type LongTensor.");
  if (a.integer(1) == -1) throw_data_dependent();
  Shape shape = x.shape();
  shape.push_back(a.integer(1));
  return Tensor::empty(shape, DType::Int64);
}

OpDef one_hot_def() noexcept {
  OpDef d{"torch.nn.functional.one_hot", {"torch._C._nn.one_hot", "aten.one_hot.default"}, {}, one_hot_op};
  d.infer = one_hot_infer;
  return d;
}

const OpRegistrar reg_unfold{OpDef{"torch.nn.functional.unfold", {"aten.im2col.default"}, {}, unfold_op}};
const OpRegistrar reg_fold{OpDef{"torch.nn.functional.fold", {"aten.col2im.default"}, {}, fold_op}};
const OpRegistrar reg_one_hot{one_hot_def()};

}  // namespace
}  // namespace fx
