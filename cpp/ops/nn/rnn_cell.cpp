// One recurrent step as aten runs it: aten.rnn_tanh_cell, rnn_relu_cell, lstm_cell and gru_cell (what
// torch.export records for nn.RNNCell / LSTMCell / GRUCell, and what those leaf modules call). Input
// [B, I], hidden [B, H]; gates = input·W_ihᵀ + b_ih and hidden·W_hhᵀ + b_hh (two GEMMs), then the
// cell's pointwise step in the order of aten's RNN.cpp (SimpleCell, LSTMCell, GRUCell).
#include <algorithm>
#include <cmath>

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

template <typename T>
T sigmoid(T x) { return T(1) / (T(1) + std::exp(-x)); }

std::string lower_type(DType t) {  // c10's scalar type names as addmm's messages spell them
  switch (t) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    default: return dtype_name(t);
  }
}

// torch's check_rnn_cell_forward_input / _hidden.
void check_shapes(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh, const char* label) {
  if (input.dim() != 2) throw FxError("Expected 2D input (batch x feature), but got " + std::to_string(input.dim()) + "D input");
  if (w_ih.dim() != 2 || w_hh.dim() != 2) throw FxError("rnn cell: weights must be 2-D");
  if (input.shape()[1] != w_ih.shape()[1])
    throw FxError("input has inconsistent input_size: got " + std::to_string(input.shape()[1]) + " expected " +
                  std::to_string(w_ih.shape()[1]));
  if (hx.dim() != 2) throw FxError(std::string("Expected 2D hidden") + label + " (batch x hidden), but got " +
                                   std::to_string(hx.dim()) + "D");
  if (input.shape()[0] != hx.shape()[0])
    throw FxError("Input batch size " + std::to_string(input.shape()[0]) + " doesn't match hidden" + label +
                  " batch size " + std::to_string(hx.shape()[0]));
  if (hx.shape()[1] != w_hh.shape()[1])
    throw FxError(std::string("hidden") + label + " has inconsistent hidden_size: got " + std::to_string(hx.shape()[1]) +
                  ", expected " + std::to_string(w_hh.shape()[1]));
}

// Returns hy (and cy for the LSTM) in the input's dtype.
std::vector<Tensor> run_cell(Cell cell, const Tensor& input, const Tensor& hx0, const Tensor& cx0, const Tensor& w_ih0,
                             const Tensor& w_hh0, const Tensor& b_ih0, const Tensor& b_hh0, const char* op) {
  check_shapes(input, hx0, w_ih0, w_hh0, "0");
  if (cx0.defined()) check_shapes(input, cx0, w_ih0, w_hh0, "1");
  for (const Tensor* t : {&w_ih0, &hx0})
    if (t->dtype() != input.dtype())
      throw FxError("expected m1 and m2 to have the same dtype, but got: " + lower_type(input.dtype()) +
                    " != " + lower_type(t->dtype()));
  const DType original = input.dtype();
  Tensor x = float_contiguous(input, op);
  const DType dt = x.dtype();
  auto packed = [&](const Tensor& t) { return t.defined() ? to_dtype(t, dt).contiguous() : Tensor(); };
  Tensor h = packed(hx0), c = packed(cx0), wih = packed(w_ih0), whh = packed(w_hh0), bih = packed(b_ih0),
         bhh = packed(b_hh0);
  const int64_t B = x.shape()[0], I = x.shape()[1], Hin = h.shape()[1], G = wih.shape()[0];
  const int64_t H = G / gates(cell);
  if (G % gates(cell) || whh.shape()[0] != G)
    throw FxError(std::string(op) + ": weight_ih and weight_hh must have " + std::to_string(gates(cell)) +
                  " × hidden_size rows");
  for (const Tensor* b : {&bih, &bhh})
    if (b->defined() && b->numel() != G)
      throw FxError(std::string(op) + ": bias must have " + std::to_string(G) + " values, got " + std::to_string(b->numel()));
  if (H != Hin) throw FxError("hidden has inconsistent hidden_size: got " + std::to_string(Hin) + ", expected " + std::to_string(H));
  Tensor hy = Tensor::empty({B, H}, dt), cy = cell == Cell::Lstm ? Tensor::empty({B, H}, dt) : Tensor();
  dispatch_float(dt, op, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> gi(static_cast<size_t>(B * G)), gh(static_cast<size_t>(B * G));
    gemm_views<T>(B, G, I, x.data<T>(), I, 1, wih.data<T>(), 1, I, gi.data(), G, bih.defined() ? bih.data<T>() : nullptr);
    gemm_views<T>(B, G, H, h.data<T>(), H, 1, whh.data<T>(), 1, H, gh.data(), G, bhh.defined() ? bhh.data<T>() : nullptr);
    for (int64_t b = 0; b < B; ++b) {
      const T* a = gi.data() + b * G;
      const T* r = gh.data() + b * G;
      const T* hp = h.data<T>() + b * H;
      T* out = hy.data<T>() + b * H;
      for (int64_t j = 0; j < H; ++j) {
        switch (cell) {
          case Cell::Tanh: out[j] = std::tanh(r[j] + a[j]); break;
          case Cell::Relu: {  // relu keeps NaN, as torch's (std::max(0, NaN) would give 0)
            const T v = r[j] + a[j];
            out[j] = v > T(0) || v != v ? v : T(0);
            break;
          }
          case Cell::Gru: {
            const T reset = sigmoid(r[j] + a[j]), update = sigmoid(r[H + j] + a[H + j]);
            const T n = std::tanh(a[2 * H + j] + r[2 * H + j] * reset);
            out[j] = (hp[j] - n) * update + n;
            break;
          }
          case Cell::Lstm: {
            const T i = sigmoid(r[j] + a[j]), f = sigmoid(r[H + j] + a[H + j]);
            const T g = std::tanh(r[2 * H + j] + a[2 * H + j]), o = sigmoid(r[3 * H + j] + a[3 * H + j]);
            const T cc = f * c.data<T>()[b * H + j] + i * g;
            cy.data<T>()[b * H + j] = cc;
            out[j] = o * std::tanh(cc);
            break;
          }
        }
      }
    }
  });
  std::vector<Tensor> r{restore_dtype(hy, original)};
  if (cy.defined()) r.push_back(restore_dtype(cy, original));
  return r;
}

Tensor opt_tensor(const Args& a, size_t i) { return a.is_none(i) ? Tensor() : a.tensor(i); }

template <Cell kCell>
Object simple_cell_op(const OpCall& call) {
  static const Schema schema(std::string(kCell == Cell::Tanh ? "rnn_tanh_cell" : kCell == Cell::Relu ? "rnn_relu_cell"
                                                                                                     : "gru_cell") +
                             "(input, hx, w_ih, w_hh, b_ih=None, b_hh=None)");
  Args a = schema.parse(call);
  return run_cell(kCell, a.tensor(0), a.tensor(1), Tensor(), a.tensor(2), a.tensor(3), opt_tensor(a, 4),
                  opt_tensor(a, 5), schema.op().c_str())[0];
}

Object lstm_cell_op(const OpCall& call) {
  static const Schema schema("lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None)");
  Args a = schema.parse(call);
  if (!a[1].is_sequence() || a[1].items().size() != 2) throw FxError("lstm_cell expects two hidden states");
  auto r = run_cell(Cell::Lstm, a.tensor(0), a[1].items()[0].tensor(), a[1].items()[1].tensor(), a.tensor(2),
                    a.tensor(3), opt_tensor(a, 4), opt_tensor(a, 5), "lstm_cell");
  return Object::tuple({r[0], r[1]});
}

const OpRow kOps[] = {
    {"aten.rnn_tanh_cell.default", "torch.rnn_tanh_cell torch._VF.rnn_tanh_cell", "", simple_cell_op<Cell::Tanh>},
    {"aten.rnn_relu_cell.default", "torch.rnn_relu_cell torch._VF.rnn_relu_cell", "", simple_cell_op<Cell::Relu>},
    {"aten.gru_cell.default", "torch.gru_cell torch._VF.gru_cell", "", simple_cell_op<Cell::Gru>},
    {"aten.lstm_cell.default", "torch.lstm_cell torch._VF.lstm_cell", "", lstm_cell_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
