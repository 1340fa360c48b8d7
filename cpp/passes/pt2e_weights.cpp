#include "passes/pt2e_weights.h"

#include <algorithm>

#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "passes/attributes.h"
#include "support/error.h"
#include "tensor/quantized.h"

namespace fx {
namespace {

const Value* argument(const Node* n, size_t index, const char* name) {
  if (index < n->args().size()) return &n->args()[index];
  return n->kwarg(name);
}

// The tensor a get_attr argument names, or nullptr.
const Tensor* attribute(const GraphModule& gm, const Value* v) {
  if (!v || !v->is_node() || v->as_node()->op() != Op::GetAttr) return nullptr;
  return gm.find_tensor(v->as_node()->target());
}

bool int_is(const Value* v, int64_t expected) { return v && v->kind() == ValueKind::Int && v->as_int() == expected; }

bool all_zero(const Tensor& t) {
  const Tensor c = to_dtype(t, DType::Int64).contiguous();
  const int64_t* d = c.data<int64_t>();
  return std::all_of(d, d + c.numel(), [](int64_t z) { return z == 0; });
}

// The int8 weight `n` dequantises, when the int8 kernels can take it as it is.
std::shared_ptr<const QuantizedWeight> int8_weight(const GraphModule& gm, const Node* n) {
  if (!is_op(n, {"quantized_decomposed.dequantize_per_channel"})) return nullptr;
  const Tensor* data = attribute(gm, argument(n, 0, "input"));
  const Tensor* scales = attribute(gm, argument(n, 1, "scales"));
  if (!data || !scales || data->dtype() != DType::Int8 || data->dim() != 2 || scales->dtype() != DType::Float32 ||
      scales->dim() != 1 || scales->shape()[0] != data->shape()[0])
    return nullptr;
  const Value* axis = argument(n, 3, "axis");
  if (!int_is(axis, 0) && !int_is(axis, -2)) return nullptr;
  const Value* zps = argument(n, 2, "zero_points");
  if (zps && !zps->is_none()) {
    const Tensor* z = attribute(gm, zps);
    if (!z || z->numel() != data->shape()[0] || !all_zero(*z)) return nullptr;
  }
  const Value* out_dtype = n->kwarg("out_dtype");
  if (out_dtype && !out_dtype->is_none() &&
      !(out_dtype->kind() == ValueKind::Dtype && dtype_from_name(out_dtype->as_str()) == DType::Float32))
    return nullptr;
  auto q = std::make_shared<QuantizedWeight>();
  q->scheme = QScheme::Int8;
  q->shape = data->shape();
  q->data = data->contiguous();
  const int8_t* d = q->data.data<int8_t>();
  if (std::any_of(d, d + q->data.numel(), [](int8_t v) { return v == -128; })) return nullptr;
  q->scale = scales->contiguous();
  q->scale_f32 = q->scale;
  return q;
}

// Any other dequantize_per_channel of constants (a convolution's 4-D weight): its float32 value, computed
// here once by the op itself rather than at every run; undefined when an argument is not a constant.
Tensor dequantized_once(const GraphModule& gm, const Node* n) {
  if (!is_op(n, {"quantized_decomposed.dequantize_per_channel"})) return {};
  std::vector<Object> args;
  for (const Value& v : n->args()) {
    if (v.is_node()) {
      const Tensor* t = attribute(gm, &v);
      if (!t) return {};
      args.emplace_back(*t);
    } else {
      args.emplace_back(v);
    }
  }
  std::vector<std::pair<std::string, Object>> kwargs;
  for (const auto& [k, v] : n->kwargs()) {
    if (v.is_node()) return {};
    kwargs.emplace_back(k, Object(v));
  }
  try {
    Tensor t = OpRegistry::global().call(n->target(), std::move(args), std::move(kwargs)).tensor();
    return t.is_contiguous() ? t : Tensor();  // torch's layout for axis 0; others keep the op
  } catch (const FxError&) {
    return {};  // the op reports it when the node runs, naming the node
  }
}

// linear(dequantize_per_tensor(q, scale, zero_point, ...), int8 weight, bias) → fxwasm.fused_linear(same,
// act_scale=scale): the int8 kernels then take the activation's integers as they are.
bool takes_activation_scale(GraphModule& gm, Node* n) {
  if (!is_op(n, {"torch.nn.functional.linear"}) || n->args().size() < 2 || n->args().size() > 3) return false;
  for (const auto& [k, v] : n->kwargs())
    if (k != "bias") return false;
  const Value& x = n->args()[0];
  const Tensor* w = attribute(gm, &n->args()[1]);
  if (!x.is_node() || !w || !quantized_of(*w) || quantized_of(*w)->scheme != QScheme::Int8) return false;
  const Node* dq = x.as_node();
  if (!is_op(dq, {"quantized_decomposed.dequantize_per_tensor"}) || dq->args().size() < 2 ||
      (dq->kwarg("out_dtype") && !dq->kwarg("out_dtype")->is_none()))
    return false;
  const Value& scale = dq->args()[1];
  if (!scale.is_node() && scale.kind() != ValueKind::Float && scale.kind() != ValueKind::Int) return false;
  n->set_target("fxwasm.fused_linear");
  n->update_kwarg("act_scale", scale);
  return true;
}

}  // namespace

bool Pt2eWeights::run(GraphModule& gm) {
  Graph& g = gm.graph();
  const std::vector<Node*> nodes = g.nodes();  // a copy: the loop adds and erases nodes
  bool changed = false;
  for (Node* n : nodes) {
    if (n->op() != Op::CallFunction) continue;
    std::shared_ptr<const QuantizedWeight> q = int8_weight(gm, n);
    Tensor value;
    if (q) value = quantized_tensor(std::move(q));
    else if (!(value = dequantized_once(gm, n)).defined()) continue;
    const std::string name = unique_attribute_name(gm, n->name() + (quantized_of(value) ? "_int8" : "_dequantized"));
    gm.tensors()[name] = NamedTensor{TensorKind::Constant, value};
    Node* w;
    {
      auto guard = g.inserting_before(n);
      w = g.get_attr(name);
    }
    std::vector<Node*> inputs;  // the int8 data, scales and zero points, dropped below when unused
    for (const Value& v : n->args())
      if (v.is_node() && std::find(inputs.begin(), inputs.end(), v.as_node()) == inputs.end())
        inputs.push_back(v.as_node());
    n->replace_all_uses_with(w);
    g.erase_node(n);
    for (Node* in : inputs)
      if (in->users().empty() && in->op() == Op::GetAttr) g.erase_node(in);
    changed = true;
  }
  for (Node* n : g.nodes())
    if (n->op() == Op::CallFunction && takes_activation_scale(gm, n)) changed = true;
  return changed;
}

}  // namespace fx
