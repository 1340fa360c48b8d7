#include "passes/quantize_weights.h"

#include <set>

#include "support/error.h"
#include "tensor/quantized.h"

namespace fx {
namespace {

const std::set<std::string> kLinearModules = {"torch.nn.modules.linear.Linear",
                                              "torch.nn.modules.linear.NonDynamicallyQuantizableLinear"};
const std::set<std::string> kEmbeddingModules = {"torch.nn.modules.sparse.Embedding"};
// call_function targets and the position of their weight argument.
const std::vector<std::pair<std::string, size_t>> kWeightFunctions = {
    {"torch._C._nn.linear", 1},         {"torch.nn.functional.linear", 1}, {"aten.linear.default", 1},
    {"fxwasm.fused_linear", 1},         {"torch.nn.functional.embedding", 1}, {"aten.embedding.default", 0}};

}  // namespace

std::vector<std::string> linear_and_embedding_weights(const GraphModule& gm) {
  std::set<std::string> names;
  for (const Node* n : gm.graph().nodes()) {
    if (n->op() == Op::CallModule) {
      auto m = gm.modules().find(n->target());
      if (m != gm.modules().end() && (kLinearModules.count(m->second.type) || kEmbeddingModules.count(m->second.type)))
        names.insert(n->target().empty() ? "weight" : n->target() + ".weight");
      continue;
    }
    if (n->op() != Op::CallFunction) continue;
    // make_fx's Linear: addmm(bias, x, t(w)) and mm(x, t(w)).
    if (n->target() == "aten.addmm.default" || n->target() == "aten.mm.default") {
      const size_t pos = n->target() == "aten.addmm.default" ? 2 : 1;
      if (n->args().size() > pos && n->args()[pos].is_node()) {
        const Node* t = n->args()[pos].as_node();
        if (t->op() == Op::CallFunction && t->target() == "aten.t.default" && !t->args().empty() &&
            t->args()[0].is_node() && t->args()[0].as_node()->op() == Op::GetAttr)
          names.insert(t->args()[0].as_node()->target());
      }
      continue;
    }
    for (const auto& [target, pos] : kWeightFunctions) {
      if (n->target() != target) continue;
      const Value* w = n->args().size() > pos ? &n->args()[pos] : n->kwarg("weight");
      if (w && w->is_node() && w->as_node()->op() == Op::GetAttr) names.insert(w->as_node()->target());
    }
  }
  std::vector<std::string> out;
  for (const std::string& name : names) {
    auto t = gm.tensors().find(name);
    if (t != gm.tensors().end() && t->second.tensor.dtype() == DType::Float32 && t->second.tensor.dim() == 2)
      out.push_back(name);
  }
  return out;
}

QuantizeSummary quantize_weights(GraphModule& gm, const std::string& mode) {
  QScheme weights_scheme = QScheme::Float16;
  const bool back_to_fp32 = mode == "fp32";
  if (!back_to_fp32 && !parse_qscheme(mode, &weights_scheme))
    throw FxError("quantize: unknown weights '" + mode + "' (expected int8, int4, fp16 or fp32)");
  std::set<std::string> weights;
  if (weights_scheme != QScheme::Float16)
    for (const std::string& name : linear_and_embedding_weights(gm)) weights.insert(name);
  QuantizeSummary summary;
  for (auto& [name, named] : gm.tensors()) {
    Tensor& t = named.tensor;
    if (t.dtype() != DType::Float32) continue;
    // Start from the float32 values (a quantized tensor's, dequantised), as stored in an fp32 file.
    if (quantized_of(t) || !t.is_contiguous() || t.offset() != 0) t = t.clone();
    if (back_to_fp32) {
      ++summary.fp32;
      continue;
    }
    std::shared_ptr<const QuantizedWeight> q;
    if (weights.count(name)) q = quantize_weight(t, weights_scheme);
    if (!q) q = quantize_weight(t, QScheme::Float16);
    if (!q) {
      ++summary.fp32;
      continue;
    }
    const QScheme s = q->scheme;
    t = quantized_tensor(std::move(q));
    (s == QScheme::Int8 ? summary.int8 : s == QScheme::Int4 ? summary.int4 : summary.fp16)++;
  }
  return summary;
}

}  // namespace fx
