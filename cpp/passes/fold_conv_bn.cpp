#include "passes/fold_conv_bn.h"

#include <cmath>
#include <optional>
#include <vector>

#include "passes/attributes.h"
#include "support/error.h"

namespace fx {
namespace {

const char* kConv2d = "torch.nn.modules.conv.Conv2d";
const char* kBatchNorm2d = "torch.nn.modules.batchnorm.BatchNorm2d";

std::vector<double> to_doubles(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<double> out(static_cast<size_t>(c.numel()));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = c.dtype() == DType::Float64 ? c.data<double>()[i] : static_cast<double>(c.data<float>()[i]);
  return out;
}

Tensor from_doubles(const std::vector<double>& v, const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  for (size_t i = 0; i < v.size(); ++i) {
    if (dtype == DType::Float64) t.data<double>()[i] = v[i];
    else t.data<float>()[i] = static_cast<float>(v[i]);
  }
  return t;
}

bool is_float(const Tensor* t) { return t && (t->dtype() == DType::Float32 || t->dtype() == DType::Float64); }

// The statistics of one BatchNorm; weight/bias null when not affine.
struct BatchNormParams {
  const Tensor* mean = nullptr;
  const Tensor* var = nullptr;
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;
  double eps = 1e-5;
};

// The per-channel map of a BatchNorm after a conv with `out` channels and bias `b` (see the header).
std::optional<ChannelAffine> affine(int64_t out, const Tensor* b, const BatchNormParams& bn) {
  if (!is_float(bn.mean) || !is_float(bn.var) || (b && !is_float(b))) return std::nullopt;
  if (bn.weight && !is_float(bn.weight)) return std::nullopt;
  if (bn.bias && !is_float(bn.bias)) return std::nullopt;
  auto channels = [out](const Tensor* t) { return !t || (t->dim() == 1 && t->shape()[0] == out); };
  if (out == 0 || !channels(b) || !channels(bn.mean) || !channels(bn.var) || !channels(bn.weight) ||
      !channels(bn.bias))
    return std::nullopt;
  const std::vector<double> mean = to_doubles(*bn.mean), var = to_doubles(*bn.var);
  const std::vector<double> gamma = bn.weight ? to_doubles(*bn.weight) : std::vector<double>(out, 1.0);
  const std::vector<double> beta = bn.bias ? to_doubles(*bn.bias) : std::vector<double>(out, 0.0);
  ChannelAffine a;
  a.shift = b ? to_doubles(*b) : std::vector<double>(out, 0.0);
  a.scale.resize(static_cast<size_t>(out));
  for (int64_t c = 0; c < out; ++c) {
    a.scale[c] = gamma[c] / std::sqrt(var[c] + bn.eps);
    a.shift[c] = (a.shift[c] - mean[c]) * a.scale[c] + beta[c];
  }
  return a;
}

// The folded (weight, bias) of a conv with weight `w` (out channels first) and optional bias `b`.
std::optional<std::pair<Tensor, Tensor>> fold(const Tensor& w, const Tensor* b, const BatchNormParams& bn) {
  if (!is_float(&w)) return std::nullopt;
  const int64_t out = w.dim() >= 1 ? w.shape()[0] : 0;
  const std::optional<ChannelAffine> a = affine(out, b, bn);
  if (!a) return std::nullopt;
  std::vector<double> wv = to_doubles(w);
  const size_t per_channel = wv.size() / static_cast<size_t>(out);
  for (int64_t c = 0; c < out; ++c)
    for (size_t i = 0; i < per_channel; ++i) wv[c * per_channel + i] *= a->scale[c];
  return std::make_pair(from_doubles(wv, w.shape(), w.dtype()), from_doubles(a->shift, {out}, w.dtype()));
}

const Value* hparam(const ModuleInfo& m, const std::string& key) {
  for (const auto& [k, v] : m.hparams)
    if (k == key) return &v;
  return nullptr;
}

void set_hparam(ModuleInfo& m, const std::string& key, Value v) {
  for (auto& [k, old] : m.hparams)
    if (k == key) {
      old = std::move(v);
      return;
    }
  m.hparams.emplace_back(key, std::move(v));
}

const ModuleInfo* module_of(const GraphModule& gm, const Node* n, const char* type) {
  if (n->op() != Op::CallModule) return nullptr;
  auto it = gm.modules().find(n->target());
  return it != gm.modules().end() && it->second.type == type ? &it->second : nullptr;
}

std::string member(const std::string& path, const char* name) { return path.empty() ? name : path + "." + name; }

// The statistics of a BatchNorm module (null where a tensor is missing).
BatchNormParams module_params(const GraphModule& gm, const Node& bn, const ModuleInfo& info) {
  BatchNormParams p;
  p.mean = gm.find_tensor(member(bn.target(), "running_mean"));
  p.var = gm.find_tensor(member(bn.target(), "running_var"));
  p.weight = gm.find_tensor(member(bn.target(), "weight"));
  p.bias = gm.find_tensor(member(bn.target(), "bias"));
  if (const Value* eps = hparam(info, "eps"); eps && (eps->kind() == ValueKind::Float || eps->kind() == ValueKind::Int))
    p.eps = eps->kind() == ValueKind::Int ? static_cast<double>(eps->as_int()) : eps->as_float();
  return p;
}

bool training_mode(const ModuleInfo& info) {
  const Value* training = hparam(info, "training");
  return training && training->kind() == ValueKind::Bool && training->as_bool();
}

bool fold_modules(GraphModule& gm, Node* bn) {
  const ModuleInfo* bn_info = module_of(gm, bn, kBatchNorm2d);
  if (!bn_info || bn->args().size() != 1 || !bn->kwargs().empty() || !bn->args()[0].is_node()) return false;
  Node* conv = bn->args()[0].as_node();
  if (!module_of(gm, conv, kConv2d) || conv->users().size() != 1) return false;
  if (training_mode(*bn_info)) return false;
  int calls = 0;  // a conv module called twice would change its other call too
  for (const Node* n : gm.graph().nodes())
    if (n->op() == Op::CallModule && n->target() == conv->target()) ++calls;
  if (calls != 1) return false;

  const BatchNormParams p = module_params(gm, *bn, *bn_info);
  const std::string w_name = member(conv->target(), "weight"), b_name = member(conv->target(), "bias");
  const Tensor* w = gm.find_tensor(w_name);
  if (!w || !p.mean || !p.var) return false;
  auto folded = fold(*w, gm.find_tensor(b_name), p);
  if (!folded) return false;

  gm.tensors()[w_name].tensor = folded->first;
  if (!gm.tensors().count(b_name)) gm.tensors()[b_name].kind = TensorKind::Parameter;
  gm.tensors()[b_name].tensor = folded->second;
  set_hparam(gm.modules()[conv->target()], "bias", Value::boolean(true));
  bn->replace_all_uses_with(conv);
  const std::string bn_path = bn->target();
  gm.graph().erase_node(bn);
  remove_module_if_unused(gm, bn_path);
  return true;
}

// F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum, eps)
// and conv2d(input, weight, bias=None, ...): an argument by position or keyword.
const Value* argument(const Node* n, size_t index, const char* name) {
  if (index < n->args().size()) return &n->args()[index];
  return n->kwarg(name);
}

// The tensor a get_attr argument names; `absent_ok` lets None/missing through (sets *t = nullptr).
bool tensor_arg(const GraphModule& gm, const Value* v, const Tensor** t, Node** node, bool absent_ok) {
  *t = nullptr;
  *node = nullptr;
  if (!v || v->is_none()) return absent_ok;
  if (!v->is_node() || v->as_node()->op() != Op::GetAttr) return false;
  *node = v->as_node();
  *t = gm.find_tensor((*node)->target());
  return *t != nullptr;
}

bool fold_functions(GraphModule& gm, Node* bn) {
  if (bn->op() != Op::CallFunction || bn->target() != "torch.nn.functional.batch_norm") return false;
  const Value* input = argument(bn, 0, "input");
  if (!input || !input->is_node()) return false;
  Node* conv = input->as_node();
  if (conv->op() != Op::CallFunction || conv->users().size() != 1 ||
      (conv->target() != "torch.conv2d" && conv->target() != "torch.nn.functional.conv2d"))
    return false;
  const Value* training = argument(bn, 5, "training");
  if (training && !(training->kind() == ValueKind::Bool && !training->as_bool())) return false;
  BatchNormParams p;
  Node *mean_n, *var_n, *gamma_n, *beta_n, *w_n, *b_n;
  if (!tensor_arg(gm, argument(bn, 1, "running_mean"), &p.mean, &mean_n, false) ||
      !tensor_arg(gm, argument(bn, 2, "running_var"), &p.var, &var_n, false) ||
      !tensor_arg(gm, argument(bn, 3, "weight"), &p.weight, &gamma_n, true) ||
      !tensor_arg(gm, argument(bn, 4, "bias"), &p.bias, &beta_n, true))
    return false;
  if (const Value* eps = argument(bn, 7, "eps")) {
    if (eps->kind() != ValueKind::Float && eps->kind() != ValueKind::Int) return false;
    p.eps = eps->as_float();
  }
  const Tensor *w, *b;
  if (!tensor_arg(gm, argument(conv, 1, "weight"), &w, &w_n, false) ||
      !tensor_arg(gm, argument(conv, 2, "bias"), &b, &b_n, true))
    return false;
  auto folded = fold(*w, b, p);
  if (!folded) return false;

  Graph& g = gm.graph();
  const std::string w_attr = unique_attribute_name(gm, conv->name() + "_weight_folded");
  gm.tensors()[w_attr] = NamedTensor{TensorKind::Constant, folded->first};
  const std::string b_attr = unique_attribute_name(gm, conv->name() + "_bias_folded");
  gm.tensors()[b_attr] = NamedTensor{TensorKind::Constant, folded->second};
  Node *new_w, *new_b;
  {
    auto guard = g.inserting_before(conv);
    new_w = g.get_attr(w_attr);
    new_b = g.get_attr(b_attr);
  }
  ValueList args = conv->args();
  Kwargs kwargs = conv->kwargs();
  auto place = [&](size_t index, const char* name, Node* n) {
    if (index < args.size()) {
      args[index] = Value::node(n);
      return;
    }
    for (auto& [k, v] : kwargs)
      if (k == name) {
        v = Value::node(n);
        return;
      }
    if (index == args.size() && kwargs.empty()) args.push_back(Value::node(n));
    else kwargs.emplace_back(name, Value::node(n));
  };
  place(1, "weight", new_w);
  place(2, "bias", new_b);
  conv->set_args(std::move(args));
  conv->set_kwargs(std::move(kwargs));
  bn->replace_all_uses_with(conv);
  g.erase_node(bn);
  for (Node* old : {mean_n, var_n, gamma_n, beta_n, w_n, b_n}) {
    if (!old || !old->users().empty()) continue;
    const std::string target = old->target();
    g.erase_node(old);
    remove_tensor_if_unused(gm, target);
  }
  return true;
}

}  // namespace

bool FoldConvBatchNorm::run(GraphModule& gm) {
  bool changed = false;
  for (Node* n : gm.graph().nodes()) {
    // Each fold erases only the BatchNorm being visited (and get_attr nodes before it), never a later node.
    if (fold_modules(gm, n) || fold_functions(gm, n)) changed = true;
  }
  return changed;
}

std::optional<ChannelAffine> batch_norm_affine(const GraphModule& gm, const Node& bn, const Tensor* conv_bias,
                                               int64_t channels) {
  const ModuleInfo* info = module_of(gm, &bn, kBatchNorm2d);
  if (!info || training_mode(*info)) return std::nullopt;
  const BatchNormParams p = module_params(gm, bn, *info);
  if (!p.mean || !p.var) return std::nullopt;
  return affine(channels, conv_bias, p);
}

}  // namespace fx
