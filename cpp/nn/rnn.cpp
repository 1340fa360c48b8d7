// nn.RNN, nn.GRU and nn.LSTM leaf modules: the flat weight list is gathered once at bind time (in
// torch's _flat_weights order) and each call runs the aten op torch's forward calls (_VF.lstm, ...),
// after the module's own handling of unbatched input and missing initial states.
#include "nn/module_util.h"
#include "ops/nn/nn_util.h"
#include "ops/schema.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Tensor unsqueeze(const Tensor& t, int64_t dim) {
  Shape s = t.shape();
  s.insert(s.begin() + dim, 1);
  return view_as_shape(t.contiguous(), s);
}

Tensor squeeze(const Tensor& t, int64_t dim) {
  Shape s = t.shape();
  s.erase(s.begin() + dim);
  return view_as_shape(t.contiguous(), s);
}

BoundModule bind_rnn(const ModuleBinding& b) {
  Hparams h(b);
  const std::string mode = h.str_or("mode", "");
  const bool lstm = mode == "LSTM";
  std::string target;
  if (lstm) target = "aten.lstm.input";
  else if (mode == "GRU") target = "aten.gru.input";
  else if (mode == "RNN_TANH") target = "aten.rnn_tanh.input";
  else if (mode == "RNN_RELU") target = "aten.rnn_relu.input";
  else throw FxError("unknown RNN mode '" + mode + "'");
  const int64_t layers = h.integer("num_layers"), hidden = h.integer("hidden_size");
  const int64_t proj = h.integer_or("proj_size", 0);
  const bool bias = h.boolean_or("bias", true), bidir = h.boolean_or("bidirectional", false);
  const bool batch_first = h.boolean_or("batch_first", false);
  const int64_t dirs = bidir ? 2 : 1;
  std::vector<Object> params;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      const std::string sfx = "_l" + std::to_string(l) + (d ? "_reverse" : "");
      params.push_back(h.tensor("weight_ih" + sfx));
      params.push_back(h.tensor("weight_hh" + sfx));
      if (bias) {
        params.push_back(h.tensor("bias_ih" + sfx));
        params.push_back(h.tensor("bias_hh" + sfx));
      }
      if (proj > 0) params.push_back(h.tensor("weight_hr" + sfx));
    }
  const Object plist = Object::list(params);
  const int64_t hout = proj > 0 ? proj : hidden;
  OpRef op(target);
  auto B = [](bool v) { return Object(Value::boolean(v)); };
  return [=](const OpCall& call) -> Object {
    static const Schema schema("forward(input, hx=None)");
    Args a = schema.parse(call);
    const Tensor& input = a.tensor(0);
    const Object hx = a[1];
    if (input.dim() != 2 && input.dim() != 3)
      throw FxError(mode + ": Expected input to be 2D or 3D, got " + std::to_string(input.dim()) + "D instead");
    const bool batched = input.dim() == 3;
    Tensor x = batched ? input : unsqueeze(input, 1);
    const int64_t batch = batched ? x.shape()[batch_first ? 0 : 1] : 1;
    auto state = [&](const Object& o, int64_t width) {
      if (o.is_value() && o.value().is_none()) return Tensor::zeros({layers * dirs, batch, width}, input.dtype());
      const Tensor& t = o.tensor();
      if (!batched && t.dim() != 2)
        throw FxError("For unbatched 2-D input, hx should also be 2-D but got " + std::to_string(t.dim()) + "-D tensor");
      if (batched && t.dim() != 3)
        throw FxError("For batched 3-D input, hx should also be 3-D but got " + std::to_string(t.dim()) + "-D tensor");
      return batched ? t : unsqueeze(t, 1);
    };
    Object hx_arg;
    if (lstm) {
      Object h0, c0;
      if (!(hx.is_value() && hx.value().is_none())) {
        if (!hx.is_sequence() || hx.items().size() != 2) throw FxError("LSTM: hx must be a tuple (h_0, c_0)");
        h0 = hx.items()[0];
        c0 = hx.items()[1];
      }
      hx_arg = Object::list({state(h0, hout), state(c0, hidden)});
    } else {
      hx_arg = state(hx, hout);
    }
    Object r = op({x, hx_arg, plist, B(bias), Object(Value::integer(layers)), Object(Value::floating(0.0)), B(false),
                   B(bidir), B(batch_first)});
    std::vector<Tensor> t;
    for (const Object& o : r.items()) t.push_back(batched ? o.tensor() : squeeze(o.tensor(), 1));
    if (lstm) return Object::tuple({t[0], Object::tuple({t[1], t[2]})});
    return Object::tuple({t[0], t[1]});
  };
}

const ModuleRegistrar reg_rnn{{"torch.nn.modules.rnn.RNN", "torch.nn.modules.rnn.GRU", "torch.nn.modules.rnn.LSTM"},
                              bind_rnn};

}  // namespace
}  // namespace fx
