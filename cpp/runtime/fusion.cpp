#include "runtime/fusion.h"

#include <unordered_map>
#include <unordered_set>

namespace fx {
namespace {

const ModuleInfo* module_of(const GraphModule& gm, const Node* n) {
  if (n->op() != Op::CallModule) return nullptr;
  auto it = gm.modules().find(n->target());
  return it == gm.modules().end() ? nullptr : &it->second;
}

bool has_type(const GraphModule& gm, const Node* n, const char* type) {
  const ModuleInfo* m = module_of(gm, n);
  return m && m->type == type;
}

// The one user of n, or null.
const Node* sole_user(const Node* n) { return n->users().size() == 1 ? n->users()[0] : nullptr; }

// Whether `n` takes `x` as its first argument and nothing else that is a node.
bool unary_on(const Node* n, const Node* x) {
  if (n->args().empty() || !n->args()[0].is_node() || n->args()[0].as_node() != x) return false;
  return n->all_input_nodes().size() == 1;
}

double number(const Value& v, double fallback) {
  if (v.kind() == ValueKind::Int) return static_cast<double>(v.as_int());
  if (v.kind() == ValueKind::Float) return v.as_float();
  return fallback;
}

// The clamp bounds an activation node applies to x, if it is one the epilogue can take.
bool activation_bounds(const GraphModule& gm, const Node* n, const Node* x, float& lo, float& hi) {
  if (!unary_on(n, x)) return false;
  const std::string& t = n->target();
  std::string kind;
  if (const ModuleInfo* m = module_of(gm, n)) {
    const std::string prefix = "torch.nn.modules.activation.";
    if (m->type == prefix + "ReLU") kind = "relu";
    else if (m->type == prefix + "ReLU6") kind = "relu6";
    else if (m->type == prefix + "Hardtanh") {
      double a = -1, b = 1;
      for (const auto& [k, v] : m->hparams) {
        if (k == "min_val") a = number(v, a);
        if (k == "max_val") b = number(v, b);
      }
      lo = static_cast<float>(a), hi = static_cast<float>(b);
      return a <= b;
    }
  } else if (n->op() == Op::CallFunction) {
    static const std::unordered_set<std::string> relu = {"torch.relu", "torch.relu_", "torch.nn.functional.relu",
                                                         "aten.relu.default", "aten.relu_.default"};
    static const std::unordered_set<std::string> relu6 = {"torch.nn.functional.relu6", "aten.relu6.default"};
    if (relu.count(t)) kind = "relu";
    else if (relu6.count(t)) kind = "relu6";
    if (!kind.empty() && n->args().size() > 1) return false;  // F.relu(x, True) is fine as a kwarg only
  } else if (n->op() == Op::CallMethod && (t == "relu" || t == "relu_") && n->args().size() == 1) {
    kind = "relu";
  }
  if (kind == "relu") lo = 0.0f, hi = std::numeric_limits<float>::infinity();
  else if (kind == "relu6") lo = 0.0f, hi = 6.0f;
  else return false;
  return true;
}

// If n is `x + r` (no alpha) with r another node, returns r.
const Node* residual_operand(const Node* n, const Node* x) {
  static const std::unordered_set<std::string> fns = {"operator.add", "torch.add", "aten.add.Tensor",
                                                      "operator.iadd", "aten.add_.Tensor"};
  const bool fn = n->op() == Op::CallFunction && fns.count(n->target());
  const bool method = n->op() == Op::CallMethod && (n->target() == "add" || n->target() == "add_");
  if ((!fn && !method) || n->args().size() != 2 || !n->kwargs().empty()) return nullptr;
  const Value &a = n->args()[0], &b = n->args()[1];
  if (!a.is_node() || !b.is_node() || a.as_node() == b.as_node()) return nullptr;
  const bool inplace = n->target() == "operator.iadd" || n->target() == "aten.add_.Tensor" || n->target() == "add_";
  if (a.as_node() == x) return b.as_node();
  if (b.as_node() == x && !inplace) return a.as_node();  // r.add_(x) mutates r: keep it
  return nullptr;
}

}  // namespace

std::vector<FusedChain> plan_fusions(const GraphModule& gm) {
  std::vector<FusedChain> out;
  std::unordered_map<const Node*, size_t> index;
  const std::vector<Node*> nodes = gm.graph().nodes();
  for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  std::unordered_set<const Node*> taken;
  for (const Node* head : nodes) {
    const bool conv = has_type(gm, head, "torch.nn.modules.conv.Conv2d");
    const bool linear = has_type(gm, head, "torch.nn.modules.linear.Linear");
    if ((!conv && !linear) || taken.count(head) || head->all_input_nodes().size() != 1) continue;
    FusedChain c;
    c.head = head;
    const Node* last = head;
    const Node* next = sole_user(last);
    if (conv && next && !taken.count(next) && unary_on(next, last) &&
        has_type(gm, next, "torch.nn.modules.batchnorm.BatchNorm2d")) {
      c.batch_norm = next;
      c.absorbed.push_back(next);
      last = next;
      next = sole_user(last);
    }
    if (conv && next && !taken.count(next)) {
      const Node* r = residual_operand(next, last);
      if (r && index.at(r) < index.at(head)) {
        c.residual = r;
        c.epilogue.residual = true;
        c.absorbed.push_back(next);
        last = next;
        next = sole_user(last);
      }
    }
    float lo, hi;
    if (next && !taken.count(next) && activation_bounds(gm, next, last, lo, hi)) {
      c.epilogue.min = lo, c.epilogue.max = hi;
      c.absorbed.push_back(next);
    }
    if (c.absorbed.empty()) continue;
    taken.insert(head);
    for (const Node* n : c.absorbed) taken.insert(n);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace fx
