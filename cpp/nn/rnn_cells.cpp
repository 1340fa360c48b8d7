// nn.RNNCell, nn.LSTMCell and nn.GRUCell leaf modules: torch's forward — 1-D (unbatched) input and
// hidden state taken as a batch of one, a missing hidden state as zeros — around the aten cell op it
// calls (_VF.rnn_tanh_cell, ... in ops/nn/rnn_cell.cpp).
#include "nn/module_util.h"
#include "ops/nn/nn_util.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor reshaped(const Tensor& t, const Shape& s) { return view_as_shape(t.contiguous(), s); }

BoundModule bind_cell(const ModuleBinding& b) {
  Hparams h(b);
  const std::string& type = b.info.type;
  const bool lstm = type == "torch.nn.modules.rnn.LSTMCell";
  const std::string cls = type.substr(type.rfind('.') + 1);
  std::string target = lstm ? "aten.lstm_cell.default" : "aten.gru_cell.default";
  if (type == "torch.nn.modules.rnn.RNNCell") {
    const std::string nl = h.str_or("nonlinearity", "tanh");
    if (nl == "tanh") target = "aten.rnn_tanh_cell.default";
    else if (nl == "relu") target = "aten.rnn_relu_cell.default";
    else throw FxError("Unknown nonlinearity: " + nl);
  }
  const int64_t hidden = h.integer("hidden_size");
  const Tensor w_ih = h.tensor("weight_ih"), w_hh = h.tensor("weight_hh");
  const Tensor b_ih = h.tensor("bias_ih", false), b_hh = h.tensor("bias_hh", false);
  const Object bias_ih = b_ih.defined() ? Object(b_ih) : Object(), bias_hh = b_hh.defined() ? Object(b_hh) : Object();
  OpRef op(target);
  return [=](const OpCall& call) -> Object {
    static const Schema schema("forward(input, hx=None)");
    Args a = schema.parse(call);
    const Tensor& input = a.tensor(0);
    if (input.dim() != 1 && input.dim() != 2)
      throw FxError(cls + ": Expected input to be 1D or 2D, got " + std::to_string(input.dim()) + "D instead");
    const bool batched = input.dim() == 2;
    const Tensor x = batched ? input : reshaped(input, {1, input.shape()[0]});
    const int64_t batch = x.shape()[0];
    auto state = [&](const Object& o) -> Object {
      if (o.is_value() && o.value().is_none()) return Tensor::zeros({batch, hidden}, input.dtype());
      const Tensor& t = o.tensor();
      if (!lstm && t.dim() != 1 && t.dim() != 2)
        throw FxError(cls + ": Expected hidden to be 1D or 2D, got " + std::to_string(t.dim()) + "D instead");
      return batched ? t : reshaped(t, {1, t.numel()});
    };
    Object hx;
    if (lstm) {
      if (a.is_none(1)) {
        const Object z = state(Object());
        hx = Object::tuple({z, z});
      } else {
        if (!a[1].is_sequence() || a[1].items().size() != 2) throw FxError("LSTMCell: hx must be a tuple (h_0, c_0)");
        hx = Object::tuple({state(a[1].items()[0]), state(a[1].items()[1])});
      }
    } else {
      hx = state(a[1]);
    }
    Object r = op({x, hx, w_ih, w_hh, bias_ih, bias_hh});
    auto out = [&](const Object& t) -> Object {
      return batched ? t : Object(reshaped(t.tensor(), {t.tensor().shape()[1]}));
    };
    if (lstm) return Object::tuple({out(r.items()[0]), out(r.items()[1])});
    return out(r);
  };
}

const ModuleRegistrar reg_cells{
    {"torch.nn.modules.rnn.RNNCell", "torch.nn.modules.rnn.LSTMCell", "torch.nn.modules.rnn.GRUCell"}, bind_cell};

}  // namespace
}  // namespace fx
