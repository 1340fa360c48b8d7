// Recurrent layers as aten runs them: aten.lstm.input, aten.gru.input, aten.rnn_tanh.input,
// aten.rnn_relu.input (what torch.export records for nn.LSTM/GRU/RNN, and what the leaf modules call)
// and aten.mkldnn_rnn_layer (make_fx's CPU decomposition of one LSTM layer and direction).
// The input projection of all time steps is one GEMM; each step then adds h·W_hhᵀ (one small GEMM).
#include <cmath>
#include <cstring>

#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

enum class Cell { Tanh, Relu, Lstm, Gru };

int64_t gates(Cell c) { return c == Cell::Lstm ? 4 : c == Cell::Gru ? 3 : 1; }

struct LayerWeights {
  Tensor w_ih, w_hh, b_ih, b_hh, w_hr;  // biases / projection undefined when absent
};

template <typename T>
T sigmoid(T x) { return T(1) / (T(1) + std::exp(-x)); }

// One direction of one layer. x [S, B, I] (contiguous, dtype T); h0/c0 [B, H_out]/[B, H];
// writes y [S, B, H_out] at column offset `col` of a row of width `ystride`, and the final h/c.
template <typename T>
void run_direction(Cell cell, const Tensor& x, const LayerWeights& w, bool reverse, const T* h0, const T* c0, T* y,
                   int64_t ystride, int64_t col, T* h_out, T* c_out) {
  const int64_t S = x.shape()[0], B = x.shape()[1], I = x.shape()[2];
  const int64_t H = w.w_ih.shape()[0] / gates(cell);
  const int64_t Hout = w.w_hh.shape()[1];  // proj_size when projecting, else H
  const int64_t G = gates(cell) * H;
  Tensor wih = to_dtype(w.w_ih, x.dtype()).contiguous(), whh = to_dtype(w.w_hh, x.dtype()).contiguous();
  Tensor bih = w.b_ih.defined() ? to_dtype(w.b_ih, x.dtype()).contiguous() : Tensor();
  Tensor bhh = w.b_hh.defined() ? to_dtype(w.b_hh, x.dtype()).contiguous() : Tensor();
  Tensor whr = w.w_hr.defined() ? to_dtype(w.w_hr, x.dtype()).contiguous() : Tensor();
  if (wih.dim() != 2 || wih.shape()[1] != I)
    throw FxError("input.size(-1) must be equal to input_size. Expected " + std::to_string(wih.shape()[1]) +
                  ", got " + std::to_string(I));
  // xg [S*B, G] = x W_ihᵀ + b_ih
  std::vector<T> xg(static_cast<size_t>(S * B * G));
  gemm_views<T>(S * B, G, I, x.data<T>(), I, 1, wih.data<T>(), 1, I, xg.data(), G,
                bih.defined() ? bih.data<T>() : nullptr);
  std::vector<T> h(h0, h0 + B * Hout), hg(static_cast<size_t>(B * G));
  std::vector<T> c = c0 ? std::vector<T>(c0, c0 + B * H) : std::vector<T>(static_cast<size_t>(B * H), T(0));
  std::vector<T> hfull(cell == Cell::Lstm ? static_cast<size_t>(B * H) : 0);
  for (int64_t step = 0; step < S; ++step) {
    const int64_t t = reverse ? S - 1 - step : step;
    gemm_views<T>(B, G, Hout, h.data(), Hout, 1, whh.data<T>(), 1, Hout, hg.data(), G,
                  bhh.defined() ? bhh.data<T>() : nullptr);
    const T* xt = xg.data() + t * B * G;
    for (int64_t b = 0; b < B; ++b) {
      const T* gx = xt + b * G;
      const T* gh = hg.data() + b * G;
      for (int64_t j = 0; j < H; ++j) {
        switch (cell) {
          case Cell::Tanh: h[b * H + j] = std::tanh(gx[j] + gh[j]); break;
          case Cell::Relu: {  // relu keeps NaN, as torch's
            const T v = gx[j] + gh[j];
            h[b * H + j] = v > T(0) || v != v ? v : T(0);
            break;
          }
          case Cell::Gru: {
            const T r = sigmoid(gx[j] + gh[j]), z = sigmoid(gx[H + j] + gh[H + j]);
            const T n = std::tanh(gx[2 * H + j] + r * gh[2 * H + j]);
            h[b * H + j] = (T(1) - z) * n + z * h[b * H + j];
            break;
          }
          case Cell::Lstm: {
            const T i = sigmoid(gx[j] + gh[j]), f = sigmoid(gx[H + j] + gh[H + j]);
            const T g = std::tanh(gx[2 * H + j] + gh[2 * H + j]), o = sigmoid(gx[3 * H + j] + gh[3 * H + j]);
            T& cc = c[b * H + j];
            cc = f * cc + i * g;
            hfull[b * H + j] = o * std::tanh(cc);
            break;
          }
        }
      }
    }
    if (cell == Cell::Lstm) {
      if (whr.defined())  // h = hfull W_hrᵀ
        gemm_views<T>(B, Hout, H, hfull.data(), H, 1, whr.data<T>(), 1, H, h.data(), Hout);
      else
        h = hfull;
    }
    for (int64_t b = 0; b < B; ++b)
      std::memcpy(y + (t * B + b) * ystride + col, h.data() + b * Hout, sizeof(T) * static_cast<size_t>(Hout));
  }
  std::memcpy(h_out, h.data(), sizeof(T) * h.size());
  if (c_out) std::memcpy(c_out, c.data(), sizeof(T) * c.size());
}

// The whole stack: returns (output, h_n[, c_n]) as aten's rnn ops do.
Object run_rnn(Cell cell, const Tensor& input, const Tensor& hx0, const Tensor& cx0, const std::vector<Tensor>& params,
               bool has_biases, int64_t num_layers, bool bidirectional, bool batch_first, const char* op) {
  if (input.dim() != 3) throw FxError(std::string(op) + ": input must have 3 dimensions, got " + std::to_string(input.dim()));
  const DType original = input.dtype();
  Tensor x = float_contiguous(batch_first ? permute_view(input, {1, 0, 2}) : input, op);
  const int64_t dirs = bidirectional ? 2 : 1;
  const bool proj = cell == Cell::Lstm && cx0.defined() && hx0.shape().back() != cx0.shape().back();
  const size_t per = (has_biases ? 4 : 2) + (proj ? 1 : 0);
  if (params.size() != per * static_cast<size_t>(num_layers * dirs))
    throw FxError(std::string(op) + ": expected " + std::to_string(per * num_layers * dirs) + " weight tensors, got " +
                  std::to_string(params.size()));
  const int64_t S = x.shape()[0], B = x.shape()[1];
  const int64_t Hout = hx0.shape().back(), H = cell == Cell::Lstm ? cx0.shape().back() : Hout;
  if (hx0.dim() != 3 || hx0.shape()[0] != num_layers * dirs || hx0.shape()[1] != B)
    throw FxError(std::string(op) + ": Expected hidden size (" + std::to_string(num_layers * dirs) + ", " +
                  std::to_string(B) + ", " + std::to_string(Hout) + "), got " + shape_to_string(hx0.shape()));
  Tensor hx = to_dtype(hx0, x.dtype()).contiguous();
  Tensor cx = cx0.defined() ? to_dtype(cx0, x.dtype()).contiguous() : Tensor();
  Tensor hn = Tensor::empty(hx.shape(), x.dtype());
  Tensor cn = cx.defined() ? Tensor::empty(cx.shape(), x.dtype()) : Tensor();
  Tensor layer_in = x;
  // Shape inference skips the kernels below: the last layer's output shape is known.
  if (meta_mode() && num_layers > 0) layer_in = Tensor::meta({S, B, dirs * Hout}, x.dtype());
  dispatch_float(x.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t l = 0; l < num_layers; ++l) {
      Tensor y = Tensor::empty({S, B, dirs * Hout}, x.dtype());
      for (int64_t d = 0; d < dirs; ++d) {
        const size_t k = static_cast<size_t>(l * dirs + d) * per;
        LayerWeights w{params[k], params[k + 1], has_biases ? params[k + 2] : Tensor(),
                       has_biases ? params[k + 3] : Tensor(), proj ? params[k + per - 1] : Tensor()};
        const int64_t idx = l * dirs + d;
        run_direction<T>(cell, layer_in, w, d == 1, hx.data<T>() + idx * B * Hout,
                         cx.defined() ? cx.data<T>() + idx * B * H : nullptr, y.data<T>(), dirs * Hout, d * Hout,
                         hn.data<T>() + idx * B * Hout, cn.defined() ? cn.data<T>() + idx * B * H : nullptr);
      }
      layer_in = y;
    }
  });
  Tensor out = batch_first ? permute_view(layer_in, {1, 0, 2}).contiguous() : layer_in;
  std::vector<Object> r{restore_dtype(out, original), restore_dtype(hn, original)};
  if (cn.defined()) r.push_back(restore_dtype(cn, original));
  return Object::tuple(r);
}

std::vector<Tensor> tensor_list(const Object& o) {
  std::vector<Tensor> out;
  for (const Object& t : o.items()) out.push_back(t.tensor());
  return out;
}

Object lstm_op(const OpCall& call) {
  static const Schema schema("lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)");
  Args a = schema.parse(call);
  std::vector<Tensor> hx = tensor_list(a[1]);
  if (hx.size() != 2) throw FxError("lstm: hx must hold (h0, c0)");
  return run_rnn(Cell::Lstm, a.tensor(0), hx[0], hx[1], tensor_list(a[2]), a.boolean(3), a.integer(4), a.boolean(7),
                 a.boolean(8), "lstm");
}

template <Cell kCell>
Object rnn_op(const OpCall& call) {
  static const Schema schema("rnn(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)");
  Args a = schema.parse(call);
  const char* name = kCell == Cell::Gru ? "gru" : kCell == Cell::Tanh ? "rnn_tanh" : "rnn_relu";
  return run_rnn(kCell, a.tensor(0), a.tensor(1), Tensor(), tensor_list(a[2]), a.boolean(3), a.integer(4),
                 a.boolean(7), a.boolean(8), name);
}

// One LSTM layer, one direction; hx/cx hold B × H values ([B, H] or [1, B, H]). Returns (output, hy, cy, workspace).
Object mkldnn_rnn_layer_op(const OpCall& call) {
  static const Schema schema("mkldnn_rnn_layer(input, weight0, weight1, weight2, weight3, hx_, cx_, reverse, "
                             "batch_sizes, mode, hidden_size, num_layers, has_biases, bidirectional, batch_first, train)");
  Args a = schema.parse(call);
  if (a.integer(9) != 2) throw FxError("mkldnn_rnn_layer: only mode 2 (LSTM) is supported");
  const Tensor& input = a.tensor(0);
  if (input.dim() != 3) throw FxError("mkldnn_rnn_layer: input must have 3 dimensions");
  const DType original = input.dtype();
  // The input is always [S, B, I]: callers transpose first and pass batch_first only for the record.
  Tensor x = float_contiguous(input, "mkldnn_rnn_layer");
  const int64_t S = x.shape()[0], B = x.shape()[1], H = a.integer(10);
  Tensor hx = to_dtype(a.tensor(5), x.dtype()).contiguous(), cx = to_dtype(a.tensor(6), x.dtype()).contiguous();
  if (hx.numel() != B * H || cx.numel() != B * H) throw FxError("mkldnn_rnn_layer: hx and cx must hold batch × hidden_size values");
  LayerWeights w{a.tensor(1), a.tensor(2), a.boolean(12) ? a.tensor(3) : Tensor(), a.boolean(12) ? a.tensor(4) : Tensor(),
                 Tensor()};
  Tensor y = Tensor::empty({S, B, H}, x.dtype()), hy = Tensor::empty(hx.shape(), x.dtype()),
         cy = Tensor::empty(cx.shape(), x.dtype());
  dispatch_float(x.dtype(), "mkldnn_rnn_layer", [&](auto tag) {
    using T = decltype(tag);
    run_direction<T>(Cell::Lstm, x, w, a.boolean(7), hx.data<T>(), cx.data<T>(), y.data<T>(), H, 0, hy.data<T>(),
                     cy.data<T>());
  });
  return Object::tuple({restore_dtype(y, original), restore_dtype(hy, original), restore_dtype(cy, original),
                        Tensor::empty({0}, DType::UInt8)});
}

const OpRow kOps[] = {
    {"aten.lstm.input", "torch.lstm torch._VF.lstm", "", lstm_op},
    {"aten.gru.input", "torch.gru torch._VF.gru", "", rnn_op<Cell::Gru>},
    {"aten.rnn_tanh.input", "torch.rnn_tanh torch._VF.rnn_tanh", "", rnn_op<Cell::Tanh>},
    {"aten.rnn_relu.input", "torch.rnn_relu torch._VF.rnn_relu", "", rnn_op<Cell::Relu>},
    {"aten.mkldnn_rnn_layer.default", "", "", mkldnn_rnn_layer_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
