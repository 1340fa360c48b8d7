// In-place metadata ops make_fx leaves in graphs (aten.as_strided_ after a keepdim reduction, as in
// ConvNeXt and Swin's norms over channels-last permutes; aten.transpose_ in nn.RNN). The runtime's values
// are immutable, so the node's result is the re-strided view and the op's input keeps its old strides; the graphs these come
// from only use the result.
#include "ops/op_table.h"
#include "ops/registry.h"

namespace fx {
namespace {

Object as_strided_inplace_op(const OpCall& call) {
  return OpRegistry::global().call("aten.as_strided.default", call.args, call.kwargs);
}

// make_fx's bidirectional batch-first nn.RNN ends with output.transpose_(0, 1).
Object transpose_inplace_op(const OpCall& call) {
  return OpRegistry::global().call("aten.transpose.int", call.args, call.kwargs);
}

// make_fx's quantile ends with values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1).
Object squeeze_inplace_op(const OpCall& call) {
  return OpRegistry::global().call("aten.squeeze.dim", call.args, call.kwargs);
}
Object unsqueeze_inplace_op(const OpCall& call) {
  return OpRegistry::global().call("aten.unsqueeze.default", call.args, call.kwargs);
}

const OpRow kOps[] = {
    {"aten.squeeze_.dim", "", "", squeeze_inplace_op},
    {"aten.unsqueeze_.default", "", "", unsqueeze_inplace_op},
    {"aten.as_strided_.default", "", "as_strided_", as_strided_inplace_op},
    {"aten.transpose_.default", "", "", transpose_inplace_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
