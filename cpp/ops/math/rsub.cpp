// torch.rsub(input, other, *, alpha=1) = other - alpha·input (make_fx emits aten.rsub.Scalar for `1 - t`,
// e.g. in multilabel_soft_margin_loss): sub with its operands swapped, so promotion is sub's.
#include "ops/call_op.h"
#include "ops/registry.h"
#include "ops/schema.h"

namespace fx {
namespace {

Object rsub_op(const OpCall& call) {
  static const Schema schema("rsub(input|self, other, *, alpha=1)");
  Args a = schema.parse(call);
  return call_op("torch.sub", {a[1], a[0]}, {{"alpha", a[2]}});
}

const OpRegistrar reg_rsub{OpDef{"torch.rsub", {"aten.rsub.Scalar", "aten.rsub.Tensor"}, {}, rsub_op}};

}  // namespace
}  // namespace fx
