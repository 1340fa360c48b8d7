// torchvision's Swin Transformer functions, which torchvision marks with torch.fx.wrap so symbolic traces
// record them as call_function nodes: _patch_merging_pad, _get_relative_position_bias and
// shifted_window_attention (torchvision/models/swin_transformer.py). Each is composed from the registry's
// ops in the order torchvision's Python runs them, so the numbers follow the same path.
#include <algorithm>
#include <cmath>

#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/shape_ops.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object ints(const std::vector<int64_t>& v) {
  std::vector<Object> items;
  for (int64_t x : v) items.push_back(Object(Value::integer(x)));
  return Object::list(std::move(items));
}

Tensor op(const std::string& target, std::vector<Object> args,
          std::vector<std::pair<std::string, Object>> kwargs = {}) {
  return OpRegistry::global().call(target, std::move(args), std::move(kwargs)).tensor();
}

Tensor pad_hw(const Tensor& x, int64_t right, int64_t bottom) {
  return op("torch.nn.functional.pad", {x, ints({0, 0, 0, right, 0, bottom})});
}

// x [..., H, W, C] → [..., ceil(H/2), ceil(W/2), 4C]: the four 2x2 phases concatenated on channels.
Object patch_merging_pad_op(const OpCall& call) {
  static const Schema schema("_patch_merging_pad(x)");
  Args a = schema.parse(call);
  const Tensor& in = a.tensor(0);
  if (in.dim() < 3) throw FxError("_patch_merging_pad: expected at least 3 dims, got " + std::to_string(in.dim()));
  const int64_t H = in.shape()[in.dim() - 3], W = in.shape()[in.dim() - 2];
  Tensor x = pad_hw(in, W % 2, H % 2);
  const int64_t d = x.dim();
  auto phase = [&](int64_t h0, int64_t w0) {
    return slice_view(slice_view(x, d - 3, h0, std::nullopt, 2), d - 2, w0, std::nullopt, 2);
  };
  std::vector<Object> parts = {phase(0, 0), phase(1, 0), phase(0, 1), phase(1, 1)};
  return op("torch.cat", {Object::list(std::move(parts)), Object(Value::integer(-1))});
}

// table[index].view(N, N, -1).permute(2, 0, 1).contiguous().unsqueeze(0), N = window area.
Object relative_position_bias_op(const OpCall& call) {
  static const Schema schema(
      "_get_relative_position_bias(relative_position_bias_table, relative_position_index, window_size)");
  Args a = schema.parse(call);
  std::vector<int64_t> ws = *a.int_list(2);
  if (ws.size() < 2) throw FxError("_get_relative_position_bias: window_size needs 2 values");
  const int64_t N = ws[0] * ws[1];
  Tensor bias = tensor_getitem(a.tensor(0), a[1]);
  bias = op("torch.Tensor.view", {bias, ints({N, N, -1})});
  bias = op("torch.permute", {bias, ints({2, 0, 1})}).contiguous();
  return op("torch.unsqueeze", {bias, Object(Value::integer(0))});
}

// Inference: indexing the table reads the index, but the result's shape is [1, heads, N, N].
Object relative_position_bias_infer(const OpCall& call) {
  static const Schema schema(
      "_get_relative_position_bias(relative_position_bias_table, relative_position_index, window_size)");
  Args a = schema.parse(call);
  std::vector<int64_t> ws = *a.int_list(2);
  if (ws.size() < 2) throw FxError("_get_relative_position_bias: window_size needs 2 values");
  const Tensor& table = a.tensor(0);
  const int64_t N = ws[0] * ws[1];
  if (table.dim() != 2 || a.tensor(1).numel() != N * N)
    throw FxError("_get_relative_position_bias: expected a 2-D table and " + std::to_string(N * N) + " indices");
  return Tensor::empty({1, table.shape()[1], N, N}, table.dtype());
}

// The shifted-window mask torchvision builds with slice assignments: windows' cells get the id of the
// (h, w) band they fall in after the cyclic shift; pairs of cells from different bands get -100.
Tensor window_mask(int64_t pad_H, int64_t pad_W, const std::vector<int64_t>& ws, const std::vector<int64_t>& shift,
                   DType dtype) {
  auto band = [](int64_t i, int64_t size, int64_t w, int64_t s) {
    // the slices (0, -w), (-w, -s), (-s, None) of a dim of `size` with Python's index rules; a later
    // slice's assignment overwrites an earlier one, so a cell gets the last slice holding it
    auto py = [size](int64_t v) { return v < 0 ? std::max<int64_t>(v + size, 0) : std::min(v, size); };
    const int64_t lo[3] = {0, py(-w), py(-s)}, hi[3] = {py(-w), py(-s), size};
    int64_t b = -1;
    for (int64_t j = 0; j < 3; ++j)
      if (i >= lo[j] && i < hi[j]) b = j;
    return b;
  };
  const int64_t nh = pad_H / ws[0], nw = pad_W / ws[1], area = ws[0] * ws[1];
  Tensor mask = Tensor::empty({nh * nw, area, area}, DType::Float64);
  dispatch_compute(DType::Float64, "shifted_window_attention", [&](double) {
    std::vector<int64_t> id(static_cast<size_t>(nh * nw * area));
    for (int64_t h = 0; h < pad_H; ++h)
      for (int64_t w = 0; w < pad_W; ++w) {
        const int64_t win = (h / ws[0]) * nw + w / ws[1], cell = (h % ws[0]) * ws[1] + w % ws[1];
        const int64_t bh = band(h, pad_H, ws[0], shift[0]), bw = band(w, pad_W, ws[1], shift[1]);
        id[win * area + cell] = bh * 3 + bw;  // every cell lies in some band of each dim
      }
    double* m = mask.data<double>();
    for (int64_t n = 0; n < nh * nw; ++n)
      for (int64_t i = 0; i < area; ++i)
        for (int64_t j = 0; j < area; ++j)
          m[(n * area + i) * area + j] = id[n * area + i] != id[n * area + j] ? -100.0 : 0.0;
  });
  return to_dtype(mask, dtype);
}

Object shifted_window_attention_op(const OpCall& call) {
  static const Schema schema(
      "shifted_window_attention(input, qkv_weight, proj_weight, relative_position_bias, window_size, num_heads, "
      "shift_size, attention_dropout=0.0, dropout=0.0, qkv_bias=None, proj_bias=None, logit_scale=None, "
      "training=True)");
  Args a = schema.parse(call);
  const Tensor& input = a.tensor(0);
  if (input.dim() != 4) throw FxError("shifted_window_attention: input must be [N, H, W, C]");
  std::vector<int64_t> ws = *a.int_list(4), shift = *a.int_list(6);
  if (ws.size() != 2 || shift.size() != 2) throw FxError("window_size and shift_size must be of length 2");
  const int64_t heads = a.integer(5);
  // (torchvision divides by both in Python: ZeroDivisionError there, a wasm trap here without the check)
  if (ws[0] <= 0 || ws[1] <= 0)
    throw FxError("integer modulo by zero (window_size [" + std::to_string(ws[0]) + ", " + std::to_string(ws[1]) + "])");
  if (heads <= 0) throw FxError("integer division or modulo by zero (num_heads " + std::to_string(heads) + ")");
  const bool training = a.boolean(12);
  if (training && (a.number(7).as_double() != 0.0 || a.number(8).as_double() != 0.0))
    throw FxError("shifted_window_attention with dropout in training mode is random; export in eval mode");
  const int64_t B = input.shape()[0], H = input.shape()[1], W = input.shape()[2], C = input.shape()[3];
  const int64_t pad_r = (ws[1] - W % ws[1]) % ws[1], pad_b = (ws[0] - H % ws[0]) % ws[0];
  Tensor x = pad_hw(input, pad_r, pad_b);
  const int64_t pad_H = x.shape()[1], pad_W = x.shape()[2];
  if (ws[0] >= pad_H) shift[0] = 0;
  if (ws[1] >= pad_W) shift[1] = 0;
  const bool shifted = shift[0] + shift[1] > 0;
  if (shifted) x = op("torch.roll", {x}, {{"shifts", ints({-shift[0], -shift[1]})}, {"dims", ints({1, 2})}});
  const int64_t nW = (pad_H / ws[0]) * (pad_W / ws[1]), area = ws[0] * ws[1];
  x = op("torch.Tensor.view", {x, ints({B, pad_H / ws[0], ws[0], pad_W / ws[1], ws[1], C})});
  x = op("torch.reshape", {op("torch.permute", {x, ints({0, 1, 3, 2, 4, 5})}), ints({B * nW, area, C})});

  Object qkv_bias = a[9];
  const bool cosine = !a.is_none(11);
  if (cosine && !a.is_none(9)) {  // v2 zeroes the key bias
    Tensor b = a.tensor(9).contiguous().clone();
    const int64_t len = b.numel() / 3;
    op("torch.Tensor.zero_", {slice_view(b, 0, len, 2 * len, 1)});
    qkv_bias = b;
  }
  Tensor qkv = op("torch.nn.functional.linear", {x, a[1], qkv_bias});
  qkv = op("torch.permute", {op("torch.reshape", {qkv, ints({x.shape()[0], x.shape()[1], 3, heads, C / heads})}),
                             ints({2, 0, 3, 1, 4})});
  Tensor q = select_view(qkv, 0, 0), k = select_view(qkv, 0, 1), v = select_view(qkv, 0, 2);
  Tensor attn;
  if (cosine) {
    auto norm = [](const Tensor& t) {
      return op("torch.nn.functional.normalize", {t}, {{"dim", Object(Value::integer(-1))}});
    };
    attn = matmul_tensor(norm(q), op("torch.transpose", {norm(k), Object(Value::integer(-2)),
                                                         Object(Value::integer(-1))}));
    Tensor scale = op("torch.clamp", {a[11]}, {{"max", Object(Value::floating(std::log(100.0)))}});
    attn = op("torch.mul", {attn, op("torch.exp", {scale})});
  } else {
    q = op("torch.mul", {q, Object(Value::floating(std::pow(static_cast<double>(C / heads), -0.5)))});
    attn = matmul_tensor(q, op("torch.transpose", {k, Object(Value::integer(-2)), Object(Value::integer(-1))}));
  }
  attn = op("torch.add", {attn, a[3]});
  if (shifted) {
    Tensor mask = window_mask(pad_H, pad_W, ws, shift, x.dtype());
    const int64_t L = x.shape()[1];
    attn = op("torch.Tensor.view", {attn, ints({x.shape()[0] / nW, nW, heads, L, L})});
    mask = op("torch.unsqueeze", {op("torch.unsqueeze", {mask, Object(Value::integer(1))}), Object(Value::integer(0))});
    attn = op("torch.add", {attn, mask});
    attn = op("torch.Tensor.view", {attn, ints({-1, heads, L, L})});
  }
  attn = op("torch.softmax", {attn, Object(Value::integer(-1))});
  x = op("torch.reshape", {op("torch.transpose", {matmul_tensor(attn, v), Object(Value::integer(1)),
                                                  Object(Value::integer(2))}),
                           ints({x.shape()[0], x.shape()[1], C})});
  x = op("torch.nn.functional.linear", {x, a[2], a[10]});
  x = op("torch.Tensor.view", {x, ints({B, pad_H / ws[0], pad_W / ws[1], ws[0], ws[1], C})});
  x = op("torch.reshape", {op("torch.permute", {x, ints({0, 1, 3, 2, 4, 5})}), ints({B, pad_H, pad_W, C})});
  if (shifted) x = op("torch.roll", {x}, {{"shifts", ints({shift[0], shift[1]})}, {"dims", ints({1, 2})}});
  return slice_view(slice_view(x, 1, 0, H, 1), 2, 0, W, 1).contiguous();
}

const std::string kSwin = "torchvision.models.swin_transformer.";
const OpRegistrar reg_pmp{OpDef{kSwin + "_patch_merging_pad", {}, {}, patch_merging_pad_op}};
const OpRegistrar reg_rpb{OpDef{kSwin + "_get_relative_position_bias", {}, {}, relative_position_bias_op,
                                 relative_position_bias_infer}};
const OpRegistrar reg_swa{OpDef{kSwin + "shifted_window_attention", {}, {}, shifted_window_attention_op}};

}  // namespace
}  // namespace fx
