#include "passes/fuse.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ops/registry.h"
#include "passes/attributes.h"
#include "passes/fold_conv_bn.h"
#include "support/error.h"

namespace fx {
namespace {

const std::string kConv2d = "torch.nn.modules.conv.Conv2d";
const std::string kLinear = "torch.nn.modules.linear.Linear";
const std::string kBatchNorm2d = "torch.nn.modules.batchnorm.BatchNorm2d";
const std::string kActivation = "torch.nn.modules.activation.";

const ModuleInfo* module_of(const GraphModule& gm, const Node* n) {
  if (n->op() != Op::CallModule) return nullptr;
  auto it = gm.modules().find(n->target());
  return it == gm.modules().end() ? nullptr : &it->second;
}

bool has_type(const GraphModule& gm, const Node* n, const std::string& type) {
  const ModuleInfo* m = module_of(gm, n);
  return m && m->type == type;
}

const Value* hparam(const ModuleInfo& m, const std::string& key) {
  for (const auto& [k, v] : m.hparams)
    if (k == key) return &v;
  return nullptr;
}

// The one user of n, or null.
const Node* sole_user(const Node* n) { return n->users().size() == 1 ? n->users()[0] : nullptr; }

// Whether `n` takes `x` as its first argument and no other node.
bool unary_on(const Node* n, const Node* x) {
  if (n->args().empty() || !n->args()[0].is_node() || n->args()[0].as_node() != x) return false;
  return n->all_input_nodes().size() == 1;
}

bool is_number(const Value& v) { return v.kind() == ValueKind::Int || v.kind() == ValueKind::Float; }
double number(const Value& v) { return v.kind() == ValueKind::Int ? static_cast<double>(v.as_int()) : v.as_float(); }

// Argument `index` / keyword `name` of a call, or null.
const Value* argument(const Node* n, size_t index, const char* name) {
  if (index < n->args().size()) return &n->args()[index];
  return n->kwarg(name);
}

// Whether every keyword of n is one of `allowed`.
bool kwargs_within(const Node* n, std::initializer_list<const char*> allowed) {
  for (const auto& [k, v] : n->kwargs()) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) return false;
  }
  return true;
}

// The activation node `n` applies to x, if the epilogue can take it.
bool activation_of(const GraphModule& gm, const Node* n, const Node* x, FusionActivation& a) {
  if (!unary_on(n, x)) return false;
  a = FusionActivation();
  if (const ModuleInfo* m = module_of(gm, n)) {
    if (n->args().size() != 1 || !n->kwargs().empty()) return false;
    if (m->type == kActivation + "ReLU") a.kind = "relu";
    else if (m->type == kActivation + "ReLU6") a.kind = "relu6";
    else if (m->type == kActivation + "SiLU") a.kind = "silu";
    else if (m->type == kActivation + "Hardtanh") {
      a.kind = "hardtanh";
      const Value* lo = hparam(*m, "min_val");
      const Value* hi = hparam(*m, "max_val");
      if ((lo && !is_number(*lo)) || (hi && !is_number(*hi))) return false;
      a.min = static_cast<float>(lo ? number(*lo) : -1.0), a.max = static_cast<float>(hi ? number(*hi) : 1.0);
    } else if (m->type == kActivation + "GELU") {
      a.kind = "gelu";
      const Value* approx = hparam(*m, "approximate");
      if (approx && approx->kind() != ValueKind::Str) return false;
      if (approx) a.approximate = approx->as_str();
    }
  } else if (is_op(n, {"torch.relu", "torch.relu_"})) {
    a.kind = "relu";
    if (!kwargs_within(n, {"inplace"}) || n->args().size() > 2) return false;
  } else if (is_op(n, {"torch.nn.functional.relu6"})) {
    a.kind = "relu6";
    if (!kwargs_within(n, {"inplace"}) || n->args().size() > 2) return false;
  } else if (is_op(n, {"torch.nn.functional.silu", "aten.silu_.default"})) {
    a.kind = "silu";
    if (!kwargs_within(n, {"inplace"}) || n->args().size() > 2) return false;
  } else if (is_op(n, {"torch.nn.functional.hardtanh", "torch.nn.functional.hardtanh_"})) {
    a.kind = "hardtanh";
    if (!kwargs_within(n, {"min_val", "max_val", "inplace"}) || n->args().size() > 4) return false;
    const Value* lo = argument(n, 1, "min_val");
    const Value* hi = argument(n, 2, "max_val");
    if ((lo && !is_number(*lo)) || (hi && !is_number(*hi))) return false;
    a.min = static_cast<float>(lo ? number(*lo) : -1.0), a.max = static_cast<float>(hi ? number(*hi) : 1.0);
  } else if (is_op(n, {"torch.nn.functional.gelu"})) {
    a.kind = "gelu";
    if (!kwargs_within(n, {"approximate"}) || n->args().size() > 2) return false;
    const Value* approx = argument(n, 1, "approximate");
    if (approx && approx->kind() != ValueKind::Str) return false;
    if (approx) a.approximate = approx->as_str();
  }
  if (a.kind == "relu") a.min = 0.0f;
  if (a.kind == "relu6") a.min = 0.0f, a.max = 6.0f;
  if (a.kind == "hardtanh" && !(a.min <= a.max)) return false;
  if (a.kind == "gelu" && a.approximate != "none" && a.approximate != "tanh") return false;
  return !a.kind.empty();
}

// If n is `x + r` (no alpha) with r another node, returns r.
const Node* residual_operand(const Node* n, const Node* x) {
  const bool inplace = is_op(n, {"operator.iadd", "aten.add_.Tensor"});
  if ((!inplace && !is_op(n, {"operator.add"})) || n->args().size() != 2 || !n->kwargs().empty()) return nullptr;
  const Value &a = n->args()[0], &b = n->args()[1];
  if (!a.is_node() || !b.is_node() || a.as_node() == b.as_node()) return nullptr;
  if (a.as_node() == x) return b.as_node();
  if (b.as_node() == x && !inplace) return a.as_node();  // r.add_(x) mutates r: keep it
  return nullptr;
}

const Tensor* attr_tensor(const GraphModule& gm, const Value* v) {
  if (!v || !v->is_node() || v->as_node()->op() != Op::GetAttr) return nullptr;
  return gm.find_tensor(v->as_node()->target());
}

bool is_false(const Value* v) { return v && v->kind() == ValueKind::Bool && !v->as_bool(); }
bool is_one(const Value* v) { return !v || (is_number(*v) && number(*v) == 1.0); }

// Whether `n` is a producer the fused ops can take; sets c.head_kind (and c.transpose for addmm).
bool match_head(const GraphModule& gm, const Node* n, FusionChain& c) {
  if (const ModuleInfo* m = module_of(gm, n)) {
    if (n->args().size() != 1 || !n->kwargs().empty() || !n->args()[0].is_node()) return false;
    if (m->type == kConv2d) {
      const Value* mode = hparam(*m, "padding_mode");
      if (mode && !(mode->kind() == ValueKind::Str && mode->as_str() == "zeros")) return false;
      c.head_kind = FusionHead::Conv2dModule;
      return true;
    }
    if (m->type == kLinear) {
      c.head_kind = FusionHead::LinearModule;
      return true;
    }
    return false;
  }
  if (n->op() != Op::CallFunction) return false;
  const Value* input = argument(n, 0, "input");
  if (!input || !input->is_node()) return false;
  if (is_op(n, {"torch.conv2d", "aten.conv2d.padding"})) {
    if (!kwargs_within(n, {"input", "weight", "bias", "stride", "padding", "dilation", "groups"}) || n->args().size() > 7)
      return false;
    c.head_kind = FusionHead::Conv2dFunction;
    return argument(n, 1, "weight") != nullptr;
  }
  if (is_op(n, {"aten.convolution.default"})) {
    const Tensor* w = attr_tensor(gm, argument(n, 1, "weight"));
    if (n->args().size() != 9 || !n->kwargs().empty() || !is_false(&n->args()[6]) || !w || w->dim() != 4) return false;
    c.head_kind = FusionHead::Conv2dFunction;
    return true;
  }
  if (is_op(n, {"torch.nn.functional.linear"})) {
    if (!kwargs_within(n, {"input", "weight", "bias"}) || n->args().size() > 3) return false;
    c.head_kind = FusionHead::LinearFunction;
    return argument(n, 1, "weight") != nullptr;
  }
  if (is_op(n, {"torch.addmm"})) {
    // addmm(bias, x, t(w)) with a 1-D bias tensor: bias + x @ w.T is F.linear(x, w, bias).
    if (n->args().size() != 3 || !kwargs_within(n, {"beta", "alpha"}) || !is_one(n->kwarg("beta")) ||
        !is_one(n->kwarg("alpha")))
      return false;
    const Tensor* bias = attr_tensor(gm, &n->args()[0]);
    if (!bias || bias->dim() != 1 || !n->args()[1].is_node() || !n->args()[2].is_node()) return false;
    const Node* tr = n->args()[2].as_node();
    const bool t_call = is_op(tr, {"torch.t"}) && tr->args().size() == 1;
    bool permute = is_op(tr, {"aten.permute.default"}) && tr->op() == Op::CallFunction && tr->args().size() == 2;
    if (permute) {
      const Value& dims = tr->args()[1];
      permute = (dims.kind() == ValueKind::List || dims.kind() == ValueKind::Tuple) && dims.items().size() == 2 &&
                dims.items()[0].kind() == ValueKind::Int && dims.items()[0].as_int() == 1 &&
                dims.items()[1].kind() == ValueKind::Int && dims.items()[1].as_int() == 0;
    }
    if ((!t_call && !permute) || !tr->kwargs().empty() || !tr->args()[0].is_node() || tr->users().size() != 1) return false;
    const Tensor* w = attr_tensor(gm, &tr->args()[0]);
    if (!w || w->dim() != 2 || w->shape()[0] != bias->shape()[0]) return false;
    c.head_kind = FusionHead::Addmm;
    c.transpose = tr;
    return true;
  }
  return false;
}

bool is_conv(FusionHead k) { return k == FusionHead::Conv2dModule || k == FusionHead::Conv2dFunction; }

// The weight and bias of a Conv2d module (null when missing).
const Tensor* module_tensor(const GraphModule& gm, const Node* n, const char* name) {
  return gm.find_tensor(n->target() + "." + name);
}

// Whether the BatchNorm2d module node `bn` after Conv2d module node `conv` folds.
bool folds(const GraphModule& gm, const Node* conv, const Node* bn) {
  const Tensor* w = module_tensor(gm, conv, "weight");
  return w && w->dim() == 4 && batch_norm_affine(gm, *bn, module_tensor(gm, conv, "bias"), w->shape()[0]);
}

}  // namespace

std::vector<FusionChain> find_fusion_chains(const GraphModule& gm, const FusionOptions& o) {
  std::vector<FusionChain> out;
  const std::vector<Node*> nodes = gm.graph().nodes();
  std::unordered_set<const Node*> taken;
  for (const Node* head : nodes) {
    FusionChain c;
    if (taken.count(head) || !match_head(gm, head, c)) continue;
    c.head = head;
    const Node* last = head;
    const Node* next = sole_user(last);
    if (o.batch_norm && c.head_kind == FusionHead::Conv2dModule && next && !taken.count(next) &&
        unary_on(next, last) && next->args().size() == 1 && next->kwargs().empty() &&
        has_type(gm, next, kBatchNorm2d) && folds(gm, head, next)) {
      c.batch_norm = next;
      c.absorbed.push_back(next);
      last = next;
      next = sole_user(last);
    }
    if (next && !taken.count(next)) {
      if (const Node* r = residual_operand(next, last)) {
        c.residual = r;
        c.absorbed.push_back(next);
        last = next;
        next = sole_user(last);
      }
    }
    FusionActivation a;
    if (next && !taken.count(next) && activation_of(gm, next, last, a)) {
      c.activation = a;
      c.absorbed.push_back(next);
    }
    if (c.absorbed.empty()) continue;
    taken.insert(head);
    for (const Node* n : c.absorbed) taken.insert(n);
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

// The BatchNorm of conv chain `c` folded as the fused op reads it (BatchNorm::AsScale): `bias` (the conv's
// get_attr bias or None) becomes a get_attr of the folded bias; returns a get_attr of the scale. Both are
// new float32 constants; the conv's weight is left as it is.
Value fold_batch_norm_as_scale(GraphModule& gm, const FusionChain& c, Value& bias) {
  const Tensor* w = module_tensor(gm, c.head, "weight");
  const Tensor* b = module_tensor(gm, c.head, "bias");
  const int64_t channels = w ? w->shape()[0] : 0;
  const std::optional<ChannelAffine> a = batch_norm_affine(gm, *c.batch_norm, b, channels);
  if (!a) throw FxError("the BatchNorm of the chain no longer folds", c.batch_norm->name());
  Tensor scale = Tensor::empty({channels}, DType::Float32), shift = Tensor::empty({channels}, DType::Float32);
  for (int64_t i = 0; i < channels; ++i) {
    scale.data<float>()[i] = static_cast<float>(a->scale[i]);
    shift.data<float>()[i] = static_cast<float>(a->shift[i]);
  }
  const std::string scale_name = unique_attribute_name(gm, c.head->name() + "_bn_scale");
  gm.tensors()[scale_name] = NamedTensor{TensorKind::Constant, scale};
  const std::string bias_name = unique_attribute_name(gm, c.head->name() + "_bn_bias");
  gm.tensors()[bias_name] = NamedTensor{TensorKind::Constant, shift};
  bias = Value::node(gm.graph().get_attr(bias_name));
  return Value::node(gm.graph().get_attr(scale_name));
}

// Rewrites one chain into a fused node placed where its last node was, named as its producer was.
void rewrite(GraphModule& gm, const FusionChain& c) {
  Graph& g = gm.graph();
  Node* head = const_cast<Node*>(c.head);
  Node* last = const_cast<Node*>(c.absorbed.back());
  const bool conv = is_conv(c.head_kind);
  ValueList args;
  Kwargs kwargs;
  Value scale;  // BatchNorm::AsScale: the folded BatchNorm's per-channel scale
  std::string module_path;
  {
    auto guard = g.inserting_before(last);
    switch (c.head_kind) {
      case FusionHead::Conv2dModule: case FusionHead::LinearModule: {
        module_path = head->target();
        const ModuleInfo& m = gm.modules().at(module_path);
        const std::string w = module_path + ".weight", b = module_path + ".bias";
        if (!gm.find_tensor(w)) throw FxError("module '" + module_path + "' has no weight", head->name());
        args.push_back(head->args()[0]);
        args.push_back(Value::node(g.get_attr(w)));
        args.push_back(gm.find_tensor(b) ? Value::node(g.get_attr(b)) : Value());
        if (c.batch_norm) scale = fold_batch_norm_as_scale(gm, c, args[2]);
        if (conv) {
          for (const char* k : {"stride", "padding", "dilation", "groups"}) {
            const Value* v = hparam(m, k);
            if (!v) throw FxError(std::string("Conv2d module '") + module_path + "' has no " + k, head->name());
            args.push_back(*v);
          }
        }
        break;
      }
      case FusionHead::Conv2dFunction: {
        if (is_op(head, {"aten.convolution.default"})) {  // (x, w, b, stride, padding, dilation, transposed, out_pad, groups)
          const ValueList& a = head->args();
          args = {a[0], a[1], a[2], a[3], a[4], a[5], a[8]};
        } else {
          static const char* names[] = {"input", "weight", "bias", "stride", "padding", "dilation", "groups"};
          const Value defaults[] = {Value(), Value(), Value(), Value::integer(1), Value::integer(0), Value::integer(1),
                                    Value::integer(1)};
          for (size_t i = 0; i < 7; ++i) {
            const Value* v = argument(head, i, names[i]);
            args.push_back(v ? *v : defaults[i]);
          }
        }
        break;
      }
      case FusionHead::LinearFunction: {
        static const char* names[] = {"input", "weight", "bias"};
        for (size_t i = 0; i < 3; ++i) {
          const Value* v = argument(head, i, names[i]);
          args.push_back(v ? *v : Value());
        }
        break;
      }
      case FusionHead::Addmm:
        args = {head->args()[1], c.transpose->args()[0], head->args()[0]};
        break;
    }
  }
  if (!scale.is_none()) kwargs.emplace_back("scale", scale);
  if (c.residual) {
    // Read from the add itself: an earlier rewrite may have replaced the node c.residual pointed to.
    const Node* add = c.absorbed[c.batch_norm ? 1 : 0];
    const Node* before = c.batch_norm ? c.batch_norm : c.head;
    const Node* r = residual_operand(add, before);
    if (!r) throw FxError("the residual add of the chain changed", add->name());
    kwargs.emplace_back("residual", Value::node(const_cast<Node*>(r)));
  }
  const FusionActivation& a = c.activation;
  if (!a.kind.empty()) {
    kwargs.emplace_back("activation", Value::str(a.kind));
    if (a.kind == "hardtanh") {
      kwargs.emplace_back("min_val", Value::floating(a.min));
      kwargs.emplace_back("max_val", Value::floating(a.max));
    }
    if (a.kind == "gelu" && a.approximate != "none") kwargs.emplace_back("approximate", Value::str(a.approximate));
  }
  const std::string target = conv ? "fxwasm.fused_conv2d" : "fxwasm.fused_linear";
  const std::string name = head->name();
  Kwargs meta;  // what is known of the chain's value (shape propagation, the exporter)
  for (const auto& [k, v] : last->meta())
    if (k == "shape" || k == "dtype" || k == "tensor_meta") meta.emplace_back(k, v);
  std::vector<std::string> absorbed_names;
  if (c.transpose) absorbed_names.push_back(c.transpose->name());
  for (const Node* n : c.absorbed) absorbed_names.push_back(n->name());
  Node* fused;
  {
    auto guard = g.inserting_before(last);
    fused = g.call_function(target, args, kwargs);
  }
  last->replace_all_uses_with(fused);
  const std::string bn_path = c.batch_norm ? c.batch_norm->target() : "";
  for (auto it = c.absorbed.rbegin(); it != c.absorbed.rend(); ++it) g.erase_node(const_cast<Node*>(*it));
  if (!bn_path.empty()) remove_module_if_unused(gm, bn_path);
  g.erase_node(head);
  if (c.transpose && c.transpose->users().empty()) g.erase_node(const_cast<Node*>(c.transpose));
  // The fused node takes the producer's name (names stay taken after an erase: release it first).
  g.names().release(name);
  Node* renamed;
  {
    auto guard = g.inserting_before(fused);
    renamed = g.create_node(Op::CallFunction, target, args, kwargs, name);
  }
  for (auto& [k, v] : meta) renamed->set_meta(k, std::move(v));
  ValueList absorbed;  // what the fused node stands for besides its producer (a profile reports them)
  for (const std::string& n : absorbed_names) absorbed.push_back(Value::str(n));
  renamed->set_meta("fused_nodes", Value::list(std::move(absorbed)));
  fused->replace_all_uses_with(renamed);
  g.erase_node(fused);
  if (!module_path.empty()) {
    bool called = false;
    for (const Node* n : g.nodes()) called = called || (n->op() == Op::CallModule && n->target() == module_path);
    bool parent = false;
    for (const auto& [p, info] : gm.modules())
      parent = parent || (p.size() > module_path.size() && p.compare(0, module_path.size() + 1, module_path + ".") == 0);
    if (!called && !parent) gm.modules().erase(module_path);
  }
}

}  // namespace

bool FuseEpilogues::run(GraphModule& gm) {
  bool changed = false;
  FusionOptions options;
  if (batch_norm_ == BatchNorm::IntoWeights) {
    FoldConvBatchNorm fold;
    changed = fold.run(gm);
  } else {
    options.batch_norm = true;
  }
  for (const FusionChain& c : find_fusion_chains(gm, options)) {
    rewrite(gm, c);
    changed = true;
  }
  return changed;
}

}  // namespace fx
