// aten.log_sigmoid_forward(self) -> (output, buffer), the form make_fx emits for F.logsigmoid (e.g. inside
// multilabel_soft_margin_loss): output = logsigmoid(x) and, as torch's CPU kernel keeps for the backward,
// buffer = exp(-|x|).
#include "ops/call_op.h"
#include "ops/registry.h"
#include "ops/schema.h"

namespace fx {
namespace {

Object log_sigmoid_forward_op(const OpCall& call) {
  static const Schema schema("log_sigmoid_forward(self)");
  Args a = schema.parse(call);
  Object out = call_op("torch.nn.functional.logsigmoid", {a[0]});
  Object buffer = call_op("torch.exp", {call_op("torch.neg", {call_op("torch.abs", {a[0]})})});
  return Object::tuple({out, buffer});
}

const OpRegistrar reg{OpDef{"aten.log_sigmoid_forward.default", {}, {}, log_sigmoid_forward_op}};

}  // namespace
}  // namespace fx
