// In-place metadata ops make_fx leaves in graphs (aten.as_strided_ after a keepdim reduction, as in
// ConvNeXt and Swin's norms over channels-last permutes). The runtime's values are immutable, so the
// node's result is the re-strided view and the op's input keeps its old strides; the graphs these come
// from only use the result.
#include "ops/registry.h"

namespace fx {
namespace {

Object as_strided_inplace_op(const OpCall& call) {
  return OpRegistry::global().call("aten.as_strided.default", call.args, call.kwargs);
}

const OpRegistrar reg_as_strided_{OpDef{"aten.as_strided_.default", {}, {"as_strided_"}, as_strided_inplace_op}};

}  // namespace
}  // namespace fx
