// Node: use-def bookkeeping and list moves, as torch/fx/node.py (and its C++ _NodeBase) does them.
#include "ir/node.h"

#include <algorithm>
#include <unordered_set>

#include "ir/graph.h"
#include "support/error.h"

namespace fx {

const char* op_name(Op op) {
  switch (op) {
    case Op::Placeholder: return "placeholder";
    case Op::GetAttr: return "get_attr";
    case Op::CallFunction: return "call_function";
    case Op::CallModule: return "call_module";
    case Op::CallMethod: return "call_method";
    case Op::Output: return "output";
  }
  return "?";
}

Op parse_op(const std::string& text) {
  if (text == "placeholder") return Op::Placeholder;
  if (text == "get_attr") return Op::GetAttr;
  if (text == "call_function") return Op::CallFunction;
  if (text == "call_module") return Op::CallModule;
  if (text == "call_method") return Op::CallMethod;
  if (text == "output") return Op::Output;
  throw FxError("unknown opcode '" + text +
                "' (expected placeholder, get_attr, call_function, call_module, call_method or output)");
}

Node::Node(Graph* graph, Op op, std::string name, std::string target)
    : graph_(graph), op_(op), name_(std::move(name)), target_(std::move(target)) {}

const Value* Node::kwarg(const std::string& key) const {
  for (const auto& kv : kwargs_) {
    if (kv.first == key) return &kv.second;
  }
  return nullptr;
}

std::vector<Node*> Node::all_input_nodes() const {
  std::vector<Node*> inputs;
  // Past a few inputs, duplicates are found with a hash set: a node may take a million (torch.cat of a
  // list a file spells out), and a linear search per input would make reading it quadratic.
  std::unordered_set<Node*> seen;
  auto visit = [&inputs, &seen](Node* n) {
    if (inputs.size() < 16) {
      if (std::find(inputs.begin(), inputs.end(), n) == inputs.end()) inputs.push_back(n);
      return;
    }
    if (seen.empty()) seen.insert(inputs.begin(), inputs.end());
    if (seen.insert(n).second) inputs.push_back(n);
  };
  for (const Value& v : args_) v.for_each_node(visit);
  for (const auto& kv : kwargs_) kv.second.for_each_node(visit);
  return inputs;
}

// As _NodeBase._update_args_kwargs: this node leaves the users of every old input, then joins the users of
// every new input at the end — so re-assigning args moves a node to the back of its inputs' user lists,
// exactly as in torch.
void Node::remove_uses() {
  for (Node* input : all_input_nodes()) input->remove_user(this);
}

void Node::add_uses() {
  // remove_uses() ran just before (or the node is new), so `this` is in none of these lists yet.
  for (Node* input : all_input_nodes()) input->add_user(this);
}

void Node::add_user(Node* user) {
  if (users_index_.empty() && users_.size() >= kIndexUsersFrom) {
    compact_users();
    for (size_t i = 0; i < users_.size(); ++i) users_index_.emplace(users_[i], i);
  }
  if (!users_index_.empty() || users_.size() >= kIndexUsersFrom) users_index_[user] = users_.size();
  users_.push_back(user);
}

void Node::remove_user(Node* user) {
  if (users_index_.empty()) {
    auto it = std::find(users_.begin(), users_.end(), user);
    if (it != users_.end()) users_.erase(it);
    return;
  }
  auto at = users_index_.find(user);
  if (at == users_index_.end()) return;
  users_[at->second] = nullptr;
  users_index_.erase(at);
  ++dead_users_;
}

void Node::compact_users() const {
  size_t kept = 0;
  for (Node* u : users_) {
    if (!u) continue;
    if (!users_index_.empty()) users_index_[u] = kept;
    users_[kept++] = u;
  }
  users_.resize(kept);
  dead_users_ = 0;
}

namespace {

bool contains_size(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Size:
      return true;
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Slice:
      for (const Value& item : v.items()) {
        if (contains_size(item)) return true;
      }
      return false;
    case ValueKind::Dict:
      for (const auto& kv : v.dict_items()) {
        if (contains_size(kv.second)) return true;
      }
      return false;
    default:
      return false;
  }
}

// torch's map_aggregate rebuilds every tuple subclass without _fields as a plain tuple, so a torch.Size
// passed as an argument is stored (and printed) as a tuple: (2, 3), not torch.Size([2, 3]).
Value sizes_to_tuples(const Value& v) {
  if (!contains_size(v)) return v;
  switch (v.kind()) {
    case ValueKind::Size:
    case ValueKind::Tuple:
    case ValueKind::List: {
      ValueList items;
      for (const Value& item : v.items()) items.push_back(sizes_to_tuples(item));
      return v.kind() == ValueKind::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case ValueKind::Slice: {
      const ValueList& p = v.items();
      return Value::slice(sizes_to_tuples(p[0]), sizes_to_tuples(p[1]), sizes_to_tuples(p[2]));
    }
    case ValueKind::Dict: {
      Kwargs items;
      for (const auto& kv : v.dict_items()) items.emplace_back(kv.first, sizes_to_tuples(kv.second));
      return Value::dict(std::move(items));
    }
    default:
      return v;
  }
}

}  // namespace

void Node::assign_args_kwargs(ValueList args, Kwargs kwargs) {
  for (Value& v : args) v = sizes_to_tuples(v);
  for (auto& kv : kwargs) kv.second = sizes_to_tuples(kv.second);
  remove_uses();
  args_ = std::move(args);
  kwargs_ = std::move(kwargs);
  add_uses();
}

void Node::set_args(ValueList args) { assign_args_kwargs(std::move(args), kwargs_); }

void Node::set_kwargs(Kwargs kwargs) { assign_args_kwargs(args_, std::move(kwargs)); }

void Node::update_arg(size_t index, Value value) {
  if (index >= args_.size()) {
    throw FxError("update_arg: index " + std::to_string(index) + " is out of range for " +
                      std::to_string(args_.size()) + " args",
                  name_);
  }
  ValueList args = args_;
  args[index] = std::move(value);
  set_args(std::move(args));
}

void Node::update_kwarg(const std::string& key, Value value) {
  // {**kwargs, key: value}: an existing key keeps its place, a new one goes last.
  Kwargs kwargs = kwargs_;
  auto it = std::find_if(kwargs.begin(), kwargs.end(), [&](const auto& kv) { return kv.first == key; });
  if (it != kwargs.end()) {
    it->second = std::move(value);
  } else {
    kwargs.emplace_back(key, std::move(value));
  }
  set_kwargs(std::move(kwargs));
}

std::vector<Node*> Node::replace_all_uses_with(Node* replacement, const std::function<bool(Node*)>& filter) {
  FX_CHECK(replacement != nullptr, "replace_all_uses_with: the replacement node is null");
  const std::vector<Node*> to_process = users();
  std::vector<Node*> changed;
  for (Node* user : to_process) {
    if (filter && !filter(user)) continue;
    changed.push_back(user);
    user->replace_input_with(this, replacement);
  }
  return changed;
}

void Node::replace_input_with(Node* old_input, Node* new_input) {
  FX_CHECK(new_input != nullptr, "replace_input_with: the new input is null");
  auto swap = [&](Node* n) { return Value::node(n == old_input ? new_input : n); };
  ValueList args;
  args.reserve(args_.size());
  for (const Value& v : args_) args.push_back(v.map_nodes(swap));
  Kwargs kwargs;
  kwargs.reserve(kwargs_.size());
  for (const auto& kv : kwargs_) kwargs.emplace_back(kv.first, kv.second.map_nodes(swap));
  // One update of both, as torch's _replace_input_with does.
  assign_args_kwargs(std::move(args), std::move(kwargs));
}

void Node::prepend(Node* x) {
  FX_CHECK(x != nullptr, "prepend: the node to move is null");
  if (x == this) return;  // torch only logs a warning: moving a node before itself changes nothing
  if (x->graph_ != graph_) throw FxError("cannot move a node of another graph before '" + name_ + "'", x->name_);
  if (x->erased_) throw FxError("cannot move an erased node", x->name_);
  if (erased_) throw FxError("cannot move a node before an erased node", name_);
  graph_->unlink(x);
  graph_->link_before(this, x);
}

void Node::append(Node* x) {
  FX_CHECK(x != nullptr, "append: the node to move is null");
  if (x == this || x == next_) return;  // already there: self._next._prepend(x) is a no-op
  if (erased_) throw FxError("cannot move a node after an erased node", name_);
  next_->prepend(x);
}

Node* Node::next() const {
  if (erased_ || next_ == graph_->root_.get()) return nullptr;
  return next_;
}

Node* Node::prev() const {
  if (erased_ || prev_ == graph_->root_.get()) return nullptr;
  return prev_;
}

const Value* Node::meta_value(const std::string& key) const {
  for (const auto& kv : meta_) {
    if (kv.first == key) return &kv.second;
  }
  return nullptr;
}

void Node::set_meta(const std::string& key, Value value) {
  for (auto& kv : meta_) {
    if (kv.first == key) {
      kv.second = std::move(value);
      return;
    }
  }
  meta_.emplace_back(key, std::move(value));
}

}  // namespace fx
