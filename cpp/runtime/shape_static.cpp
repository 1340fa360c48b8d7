#include "runtime/shape_static.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "exec/interpreter.h"
#include "passes/mutation.h"

namespace fx {
namespace {

// Ops whose value is not a function of their arguments.
bool random_or_uninitialised(const Node& n, const GraphModule& gm) {
  std::string what = n.target();
  if (n.op() == Op::CallModule) {
    auto it = gm.modules().find(n.target());
    what = it == gm.modules().end() ? "" : it->second.type;
  }
  std::transform(what.begin(), what.end(), what.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* word : {"rand", "bernoulli", "multinomial", "normal", "poisson", "dropout", "uniform",
                           "exponential", "cauchy", "geometric", "empty", "seed"})
    if (what.find(word) != std::string::npos) return true;
  return false;
}

bool holds_tensor(const Object& o) {
  switch (o.kind()) {
    case Object::Kind::Tensor: return true;
    case Object::Kind::Tuple: case Object::Kind::List:
      for (const Object& x : o.items())
        if (holds_tensor(x)) return true;
      return false;
    case Object::Kind::Dict:
      for (const auto& kv : o.dict_items())
        if (holds_tensor(kv.second)) return true;
      return false;
    case Object::Kind::Value: return false;
  }
  return true;
}

}  // namespace

std::vector<bool> shape_static_nodes(const Interpreter& interp, const GraphModule& gm,
                                     const std::vector<Object>& inputs) {
  const std::vector<Node*> nodes = gm.graph().nodes();
  std::vector<bool> out(nodes.size(), false);
  if (graph_mutates_in_place(gm)) return out;
  std::unordered_map<const Node*, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  std::vector<bool> known_value(nodes.size(), false);
  try {
    interp.infer(inputs, [&](const Node& n, const Object* r) {
      if (r && !holds_tensor(*r)) known_value[index.at(&n)] = true;
    });
  } catch (...) {
    return out;  // inference failed (the run reports the error, if it is one): nothing is static
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = *nodes[i];
    if (n.op() == Op::Placeholder || n.op() == Op::Output) continue;
    if (n.op() == Op::GetAttr) {
      out[i] = true;
      continue;
    }
    if (random_or_uninitialised(n, gm)) continue;
    bool all = true;
    for (const Node* in : n.all_input_nodes()) all = all && out[index.at(in)];
    out[i] = known_value[i] || all;
  }
  // A tensor the output returns goes to the caller, who may write into it: computed on every run.
  for (const Node* n : nodes)
    if (n->op() == Op::Output)
      for (const Node* in : n->all_input_nodes())
        if (!known_value[index.at(in)]) out[index.at(in)] = false;
  return out;
}

bool ShapeStaticCache::start(const std::vector<Object>& inputs) {
  if (misses_ > kMaxMisses) return false;
  bool same = ready_ && inputs.size() == signature_.size();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Object& x = inputs[i];
    if (!x.is_tensor() || x.tensor().is_meta()) return false;
    same = same && x.tensor().dtype() == signature_[i].first && x.tensor().shape() == signature_[i].second;
  }
  if (!same) {  // a new signature: built only now, so that a run of a known one allocates nothing here
    ++misses_;
    signature_.clear();
    for (const Object& x : inputs) signature_.emplace_back(x.tensor().dtype(), x.tensor().shape());
    is_static_ = shape_static_nodes(interp_, interp_.graph_module(), inputs);
    have_.assign(is_static_.size(), false);
    values_.assign(is_static_.size(), Object());
    // Worth a memo only when something computed is static: an attribute is at hand anyway (get_attr).
    const std::vector<Node*> nodes = interp_.graph_module().graph().nodes();
    bool analysed = false;
    any_ = false;
    for (size_t i = 0; i < is_static_.size() && i < nodes.size(); ++i)
      if (is_static_[i]) analysed = true, any_ = any_ || nodes[i]->op() != Op::GetAttr;
    // The analysis ran and found nothing computed from shapes alone (a decoding step, computed from its
    // inputs only): another signature would find no more, so none is analysed again. A decoding step
    // changes signature every token; each analysis is a meta-inference pass over the graph (0.4 ms warm,
    // ~7 ms for the first ones in V8's baseline code, for the bench's 243-node step).
    if (analysed && !any_) misses_ = kMaxMisses + 1;
    ready_ = true;
  }
  return any_;
}

const Object* ShapeStaticCache::find(size_t step) const {
  return step < have_.size() && have_[step] ? &values_[step] : nullptr;
}

void ShapeStaticCache::store(size_t step, const Object& value) {
  if (step < is_static_.size() && is_static_[step]) values_[step] = value, have_[step] = true;
}

}  // namespace fx
