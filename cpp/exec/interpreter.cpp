#include "exec/interpreter.h"

#include <algorithm>
#include <unordered_map>

#include "nn/registry.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {

// A node's argument with node references replaced by env slots; constant parts are converted to
// Objects once, at construction.
struct Interpreter::ArgTree {
  enum class Kind { Const, Slot, Tuple, List, Dict, Slice } kind = Kind::Const;
  Object constant;
  size_t slot = 0;
  std::vector<ArgTree> children;
  std::vector<std::string> keys;  // Dict
};

struct Interpreter::Step {
  const Node* node = nullptr;
  const OpDef* def = nullptr;  // call_function / call_method
  std::vector<ArgTree> args;
  std::vector<std::pair<std::string, ArgTree>> kwargs;
  Object attr;                  // get_attr
  BoundModule module;           // call_module
  std::vector<size_t> free_after;

  // This step's call with its argument lists sized and keyword names set, values empty.
  OpCall empty_call() const {
    OpCall call;
    call.node = node;
    call.args.resize(args.size());
    for (const auto& kv : kwargs) call.kwargs.emplace_back(kv.first, Object());
    return call;
  }
};

// What a placeholder's meta says its input is. dims[i] < 0: a symbolic size (named dim_names[i]).
struct Interpreter::InputSpec {
  const Node* node = nullptr;
  bool has_shape = false;
  Shape dims;
  std::vector<std::string> dim_names;
  // meta "sym_dims" (torch.export dynamic_shapes, Dynamo's dynamic graphs): a size that may change from run
  // to run; sym_bound: whether its symbol binds (equal symbols must agree), sym_min/max its range.
  std::vector<bool> sym_bound;
  Shape sym_min, sym_max;  // -1: unbounded
  std::string dtype;  // empty when the meta has none
  bool varargs = false;
  // make_fx, torch.export and Dynamo specialise a graph to the sizes they traced (views carry them), so
  // those sizes are required; symbolic_trace and hand-built graphs record example sizes only, so there
  // the rank and dtype are required and any sizes accepted (a batch of 1 runs a graph traced with 16).
  bool sizes_fixed = true;

  bool says_anything() const { return has_shape || !dtype.empty(); }

  std::string expected() const {
    std::string s = dtype.empty() ? "a tensor" : dtype;
    if (has_shape) {
      s += " [";
      for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + (dims[i] < 0 ? dim_names[i] : std::to_string(dims[i]));
      s += "]";
      for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= 0 || i >= sym_min.size() || (sym_min[i] < 0 && sym_max[i] < 0)) continue;
        s += ", " + (sym_min[i] >= 0 ? std::to_string(sym_min[i]) + " <= " : "") + dim_names[i] +
             (sym_max[i] >= 0 ? " <= " + std::to_string(sym_max[i]) : "");
      }
      if (!sizes_fixed) s += " (any sizes of rank " + std::to_string(dims.size()) + ")";
    }
    return s;
  }
};

namespace {

Interpreter::InputSpec input_spec(const Node& n, bool sizes_fixed);

bool tracer_fixes_sizes(const std::string& tracer) {
  return tracer == "aten" || tracer == "export" || tracer == "dynamo";
}

std::string node_label(const Node& n) { return std::string(op_name(n.op())) + " " + n.target(); }

Object resolve_attr(const GraphModule& gm, const Node& n) {
  if (const Tensor* t = gm.find_tensor(n.target())) return Object(*t);
  // A non-tensor attribute: the hyperparameter `attr` of module `path` in "path.attr".
  const std::string& q = n.target();
  size_t dot = q.rfind('.');
  std::string path = dot == std::string::npos ? "" : q.substr(0, dot);
  std::string attr = dot == std::string::npos ? q : q.substr(dot + 1);
  auto it = gm.modules().find(path);
  if (it != gm.modules().end())
    for (const auto& [k, v] : it->second.hparams)
      if (k == attr) return Object(v);
  throw FxError("get_attr target '" + q + "' is not a tensor or attribute of the module", n.name());
}

}  // namespace

Interpreter::ArgTree Interpreter::compile(const Value& v) const {
  ArgTree t;
  bool has_node = false;
  v.for_each_node([&](Node*) { has_node = true; });
  if (!has_node) {
    t.constant = Object(v);
    return t;
  }
  switch (v.kind()) {
    case ValueKind::NodeRef: {
      auto it = slot_of_.find(v.as_node());
      FX_CHECK(it != slot_of_.end(), "argument refers to node '" + v.as_node()->name() + "' of another graph");
      t.kind = ArgTree::Kind::Slot;
      t.slot = it->second;
      return t;
    }
    case ValueKind::Tuple: case ValueKind::Size: t.kind = ArgTree::Kind::Tuple; break;
    case ValueKind::List: t.kind = ArgTree::Kind::List; break;
    case ValueKind::Slice: t.kind = ArgTree::Kind::Slice; break;
    case ValueKind::Dict:
      t.kind = ArgTree::Kind::Dict;
      for (const auto& [k, item] : v.dict_items()) {
        t.keys.push_back(k);
        t.children.push_back(compile(item));
      }
      return t;
    default: throw FxError("unexpected node reference inside " + v.repr());
  }
  for (const Value& item : v.items()) t.children.push_back(compile(item));
  return t;
}

Object Interpreter::eval(const ArgTree& t, const std::vector<Object>& env) const {
  switch (t.kind) {
    case ArgTree::Kind::Const: return t.constant;
    case ArgTree::Kind::Slot: return env[t.slot];
    case ArgTree::Kind::Tuple: case ArgTree::Kind::List: {
      std::vector<Object> items;
      items.reserve(t.children.size());
      for (const ArgTree& c : t.children) items.push_back(eval(c, env));
      return t.kind == ArgTree::Kind::Tuple ? Object::tuple(std::move(items)) : Object::list(std::move(items));
    }
    case ArgTree::Kind::Dict: {
      std::vector<std::pair<std::string, Object>> items;
      for (size_t i = 0; i < t.children.size(); ++i) items.emplace_back(t.keys[i], eval(t.children[i], env));
      return Object::dict(std::move(items));
    }
    case ArgTree::Kind::Slice: {
      // A slice bound by nodes (x[:n]) holds the nodes' scalar values.
      std::vector<Value> parts;
      for (const ArgTree& c : t.children) parts.push_back(eval(c, env).value());
      return Object(Value::slice(parts[0], parts[1], parts[2]));
    }
  }
  return Object();
}

Interpreter::Interpreter(const GraphModule& gm) : gm_(gm) {
  std::vector<UnsupportedOp> unsupported = find_unsupported(gm);
  if (!unsupported.empty()) throw FxError(format_unsupported(unsupported));

  const std::vector<Node*> nodes = gm.graph().nodes();
  for (size_t i = 0; i < nodes.size(); ++i) slot_of_[nodes[i]] = i;
  steps_.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = *nodes[i];
    Step& s = steps_[i];
    s.node = &n;
    for (const Value& a : n.args()) s.args.push_back(compile(a));
    for (const auto& [k, v] : n.kwargs()) s.kwargs.emplace_back(k, compile(v));
    if (n.op() == Op::Placeholder) {
      placeholders_.push_back(&n);
      input_specs_.push_back(input_spec(n, tracer_fixes_sizes(gm.producer().tracer)));
    }
    if (n.op() == Op::GetAttr) s.attr = resolve_attr(gm, n);
    if (n.op() == Op::CallFunction || n.op() == Op::CallMethod) s.def = OpRegistry::global().find(n.op(), n.target());
    if (n.op() == Op::CallModule) {
      const ModuleInfo& info = gm.modules().at(n.target());  // find_unsupported checked it exists
      try {
        s.module = ModuleRegistry::global().find(info.type)(ModuleBinding{gm, n.target(), info});
      } catch (const FxError& e) {
        throw FxError("call_module " + n.target() + " (" + info.type + "): " + e.bare_message(), n.name());
      }
    }
  }

  calls_.reserve(steps_.size());
  for (const Step& s : steps_) calls_.push_back(s.empty_call());

  // Last use, as torch.fx.Interpreter computes it: walking backwards, the first user met is the last.
  std::vector<bool> seen(nodes.size(), false);
  for (size_t i = nodes.size(); i-- > 0;) {
    for (Node* in : nodes[i]->all_input_nodes()) {
      size_t slot = slot_of_.at(in);
      if (!seen[slot]) {
        seen[slot] = true;
        steps_[i].free_after.push_back(slot);
      }
    }
  }
  // A value nobody reads is released as soon as it is made (FX keeps it to the end; no one can tell).
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!seen[i] && nodes[i]->op() != Op::Output) steps_[i].free_after.push_back(i);
}

Interpreter::~Interpreter() { pool_->retire(); }

namespace {

// meta "sym_dims": one entry per dim, None for a fixed size or [symbol or None, min or None, max or None]
// (docs/format.md): those sizes are free within their ranges, and dims of one symbol must agree.
void add_symbolic_dims(Interpreter::InputSpec& spec, const Node& n) {
  const Value* sym = n.meta_value("sym_dims");
  if (!sym || !spec.has_shape) return;
  auto bad = [&](const std::string& why) {
    throw FxError("placeholder meta sym_dims: " + why, n.name());
  };
  if (!sym->is_sequence() || sym->items().size() != spec.dims.size())
    bad("expected one entry per dim of the shape (" + std::to_string(spec.dims.size()) + ")");
  spec.sym_bound.assign(spec.dims.size(), false);
  spec.sym_min.assign(spec.dims.size(), -1);
  spec.sym_max.assign(spec.dims.size(), -1);
  auto bound = [&](const Value& v) -> int64_t {
    if (v.is_none()) return -1;
    if (v.kind() != ValueKind::Int || v.as_int() < 0) bad("a range bound must be a non-negative integer or None");
    return v.as_int();
  };
  for (size_t d = 0; d < spec.dims.size(); ++d) {
    const Value& e = sym->items()[d];
    if (e.is_none()) continue;
    if (!e.is_sequence() || e.items().size() != 3) bad("an entry must be None or [symbol, min, max]");
    const Value& name = e.items()[0];
    if (!name.is_none() && name.kind() != ValueKind::Str) bad("a symbol must be a string or None");
    spec.dims[d] = -1;
    spec.dim_names[d] = name.is_none() ? "?" : name.as_str();
    spec.sym_bound[d] = !name.is_none();
    spec.sym_min[d] = bound(e.items()[1]);
    spec.sym_max[d] = bound(e.items()[2]);
  }
}

Interpreter::InputSpec input_spec(const Node& n, bool sizes_fixed) {
  Interpreter::InputSpec spec;
  spec.node = &n;
  spec.sizes_fixed = sizes_fixed;
  spec.varargs = !n.target().empty() && n.target()[0] == '*';
  if (const Value* shape = n.meta_value("shape"); shape && shape->kind() == ValueKind::Size) {
    spec.has_shape = true;
    for (const Value& d : shape->items()) {
      if (d.kind() == ValueKind::Int) {
        spec.dims.push_back(d.as_int());
        spec.dim_names.emplace_back();
      } else {  // a $node: a symbolic size, any length
        spec.dims.push_back(-1);
        spec.dim_names.push_back(d.is_node() ? d.as_node()->name() : "?");
      }
    }
  }
  if (const Value* dtype = n.meta_value("dtype"); dtype && dtype->kind() == ValueKind::Dtype) spec.dtype = dtype->as_str();
  add_symbolic_dims(spec, n);
  return spec;
}

}  // namespace

void Interpreter::check_inputs(const std::vector<Object>& inputs) const {
  // symbol → (size, the input that set it): equal symbols must agree across inputs and dims
  std::vector<std::pair<const std::string*, std::pair<int64_t, const std::string*>>> symbols;
  for (size_t i = 0; i < input_specs_.size() && i < inputs.size(); ++i) {
    const InputSpec& spec = input_specs_[i];
    if (spec.varargs) return;  // takes the rest as a tuple; its meta describes no single input
    if (!spec.says_anything()) continue;
    const Object& x = inputs[i];
    const std::string& name = spec.node->name();
    if (!x.is_tensor())
      throw FxError("input '" + name + "' expects " + spec.expected() + ", got " + x.describe(), name);
    const Tensor& t = x.tensor();
    bool ok = spec.dtype.empty() || spec.dtype == dtype_name(t.dtype());
    if (spec.has_shape) {
      ok = ok && spec.dims.size() == t.shape().size();
      for (size_t d = 0; ok && spec.sizes_fixed && d < spec.dims.size(); ++d)
        ok = spec.dims[d] < 0 || spec.dims[d] == t.shape()[d];
    }
    for (size_t d = 0; ok && d < spec.sym_min.size(); ++d) {
      if (spec.dims[d] >= 0) continue;
      const int64_t size = t.shape()[d];
      const std::string& sym = spec.dim_names[d];
      if ((spec.sym_min[d] >= 0 && size < spec.sym_min[d]) || (spec.sym_max[d] >= 0 && size > spec.sym_max[d]))
        throw FxError("input '" + name + "' dim " + std::to_string(d) + " is " + std::to_string(size) + ", outside " +
                      sym + "'s range [" + (spec.sym_min[d] >= 0 ? std::to_string(spec.sym_min[d]) : "0") + ", " +
                      (spec.sym_max[d] >= 0 ? std::to_string(spec.sym_max[d]) : "inf") + "]", name);
      if (!spec.sym_bound[d]) continue;
      auto it = std::find_if(symbols.begin(), symbols.end(), [&](const auto& e) { return *e.first == sym; });
      if (it == symbols.end()) {
        symbols.push_back({&sym, {size, &name}});
      } else if (it->second.first != size) {
        throw FxError("input '" + name + "' dim " + std::to_string(d) + " is " + std::to_string(size) + ", but " +
                      sym + " is " + std::to_string(it->second.first) + " (from input '" + *it->second.second +
                      "'): sizes of one symbol must agree", name);
      }
    }
    if (!ok) {
      std::string got = std::string(dtype_name(t.dtype())) + " [";
      for (size_t d = 0; d < t.shape().size(); ++d) got += (d ? ", " : "") + std::to_string(t.shape()[d]);
      throw FxError("input '" + name + "' expects " + spec.expected() + ", got " + got + "]", name);
    }
  }
}

std::vector<const Node*> Interpreter::freed_after(const Node* node) const {
  auto it = slot_of_.find(node);
  if (it == slot_of_.end()) throw FxError("node is not in the interpreted graph");
  std::vector<const Node*> out;
  for (size_t slot : steps_[it->second].free_after) out.push_back(steps_[slot].node);
  return out;
}

namespace {

// Empties a reused OpCall's values when the call is over (however it ends), so that the run releases each
// value at its last use and the next run starts from empty lists.
struct ClearCall {
  OpCall& call;
  ~ClearCall() {
    for (Object& a : call.args) a = Object();
    for (auto& kv : call.kwargs) kv.second = Object();
  }
};

}  // namespace

Object Interpreter::run_step(const Step& s, const std::vector<Object>& inputs, size_t& next_input,
                             const std::vector<Object>& env, OpCall* reused) const {
  const Node& n = *s.node;
  switch (n.op()) {
    case Op::Placeholder:
      if (!n.target().empty() && n.target()[0] == '*') {  // *args: everything left
        std::vector<Object> rest(inputs.begin() + static_cast<std::ptrdiff_t>(next_input), inputs.end());
        next_input = inputs.size();
        return Object::tuple(std::move(rest));
      }
      if (next_input < inputs.size()) return inputs[next_input++];
      if (!s.args.empty()) return eval(s.args[0], env);  // the placeholder's default value
      throw FxError("missing input for placeholder '" + n.name() + "': the graph takes " +
                        std::to_string(placeholders_.size()) + " inputs, got " + std::to_string(inputs.size()),
                    n.name());
    case Op::GetAttr: return s.attr;
    case Op::Output:
      try {
        return s.args.empty() ? Object() : eval(s.args[0], env);
      } catch (const FxError& e) {
        if (!e.node().empty()) throw;
        throw FxError(node_label(n) + ": " + e.bare_message(), n.name());
      }
    case Op::CallFunction: case Op::CallMethod: case Op::CallModule: {
      OpCall local = reused ? OpCall() : s.empty_call();
      OpCall& call = reused ? *reused : local;
      const ClearCall clear{call};
      try {
        // Inside the try: building the arguments can fail too (a value nested past kMaxObjectDepth).
        for (size_t i = 0; i < s.args.size(); ++i) call.args[i] = eval(s.args[i], env);
        for (size_t i = 0; i < s.kwargs.size(); ++i) call.kwargs[i].second = eval(s.kwargs[i].second, env);
        if (s.def && meta_mode()) {
          if (s.def->data_dependent) throw_data_dependent();
          if (s.def->infer) return s.def->infer(call);
        }
        return s.def ? s.def->run(call) : s.module(call);
      } catch (const DataDependent&) {
        throw;  // inference: the node's result is unknown
      } catch (const FxError& e) {
        throw FxError(node_label(n) + ": " + (e.node().empty() ? e.bare_message() : e.what()), n.name());
      } catch (const std::exception& e) {
        throw FxError(node_label(n) + ": " + e.what(), n.name());
      }
    }
  }
  throw FxError("cannot run " + node_label(n), n.name());
}

Object Interpreter::run(const std::vector<Object>& inputs, RunObserver* observer, RunMemo* memo) const {
  bool varargs = false;
  for (const Node* p : placeholders_) varargs = varargs || (!p->target().empty() && p->target()[0] == '*');
  if (!varargs && inputs.size() > placeholders_.size()) {
    std::string names;
    for (const Node* p : placeholders_) names += (names.empty() ? "" : ", ") + p->name();
    throw FxError("the graph takes " + std::to_string(placeholders_.size()) + " inputs (" + names + "), got " +
                  std::to_string(inputs.size()));
  }
  BufferPool::Scope arena(pool_.get());
  pool_->reset_peak();
  struct Take {  // this run's claim on calls_ (see interpreter.h)
    std::atomic<bool>& busy;
    const bool taken = !busy.exchange(true);
    ~Take() {
      if (taken) busy.store(false);
    }
  } take{calls_busy_};
  RunMemo* const used_memo = memo && take.taken && memo->start(inputs) ? memo : nullptr;
  std::vector<Object> env(steps_.size());
  size_t next_input = 0, live = 0;
  Object result;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    if (observer) observer->before(*s.node);
    Object value;
    if (const Object* known = used_memo ? used_memo->find(i) : nullptr) {
      value = *known;
    } else {
      value = run_step(s, inputs, next_input, env, take.taken ? &calls_[i] : nullptr);
      if (used_memo) used_memo->store(i, value);
    }
    if (s.node->op() == Op::Output) result = value;
    env[i] = value;
    ++live;
    for (size_t slot : s.free_after) {
      env[slot] = Object();
      --live;
    }
    if (observer) observer->after(*s.node, value, live);
    if (hook_) hook_(*s.node, value);
  }
  return result;
}

void Interpreter::infer(const std::vector<Object>& inputs, const InferHook& hook) const {
  MetaScope meta;
  std::vector<Object> env(steps_.size());  // meta tensors are small: nothing is released early
  std::vector<bool> unknown(steps_.size(), false);
  size_t next_input = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    bool known = true;
    for (const Node* in : s.node->all_input_nodes()) known = known && !unknown[slot_of_.at(in)];
    if (known) {
      try {
        env[i] = run_step(s, inputs, next_input, env, nullptr);
      } catch (const DataDependent&) {
        known = false;
      }
    } else if (s.node->op() == Op::Placeholder) {
      ++next_input;
    }
    unknown[i] = !known;
    if (hook) hook(*s.node, known ? &env[i] : nullptr);
  }
}

}  // namespace fx
