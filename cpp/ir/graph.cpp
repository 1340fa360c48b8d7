// Graph: torch/fx/graph.py's node list and editing API. Nodes live in an intrusive ring closed by a sentinel
// root, as in FX, so moves and inserts are O(1). Erased nodes stay allocated (flagged) until the graph goes:
// a caller — or the JS side — holding a Node* to an erased node reads stale data instead of freed memory.
#include "ir/graph.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "support/error.h"

namespace fx {

Graph::Graph() {
  root_.reset(new Node(this, Op::Placeholder, "", "root"));
  root_->prev_ = root_.get();
  root_->next_ = root_.get();
  insert_before_ = root_.get();
}

Graph::~Graph() = default;

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(count_);
  for (Node* n = root_->next_; n != root_.get(); n = n->next_) out.push_back(n);
  return out;
}

Node* Graph::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

Node* Graph::output_node() const {
  for (Node* n = root_->prev_; n != root_.get(); n = n->prev_) {
    if (n->op_ == Op::Output) return n;
  }
  return nullptr;
}

void Graph::link_before(Node* position, Node* x) {
  Node* p = position->prev_;
  p->next_ = x;
  x->prev_ = p;
  x->next_ = position;
  position->prev_ = x;
}

void Graph::unlink(Node* x) {
  if (x->prev_ == nullptr) return;  // not in the list
  x->prev_->next_ = x->next_;
  x->next_->prev_ = x->prev_;
  x->prev_ = nullptr;
  x->next_ = nullptr;
}

Node* Graph::create_node(Op op, std::string target, ValueList args, Kwargs kwargs,
                         std::optional<std::string> name, std::string type_expr) {
  if (target.empty() && op != Op::Placeholder) {
    throw FxError(std::string("a ") + op_name(op) + " node needs a target");
  }
  const std::string candidate = name ? *name : candidate_name_for_target(op_name(op), target);
  std::string unique = names_.create_name(candidate);
  std::unique_ptr<Node> owned(new Node(this, op, unique, std::move(target)));
  Node* n = owned.get();
  n->type_expr_ = std::move(type_expr);
  n->assign_args_kwargs(std::move(args), std::move(kwargs));
  owned_.emplace(n, std::move(owned));
  by_name_.emplace(std::move(unique), n);
  if (insert_after_ != nullptr) {
    link_before(insert_after_->next_, n);
  } else {
    link_before(insert_before_, n);
  }
  ++count_;
  return n;
}

Node* Graph::placeholder(const std::string& name, std::string type_expr) {
  // As torch: the name is the target, and the node's name is derived from it (so "myInput" → my_input).
  return create_node(Op::Placeholder, name, {}, {}, std::nullopt, std::move(type_expr));
}

Node* Graph::get_attr(const std::string& qualified_name) {
  return create_node(Op::GetAttr, qualified_name);
}

Node* Graph::call_function(const std::string& target, ValueList args, Kwargs kwargs) {
  return create_node(Op::CallFunction, target, std::move(args), std::move(kwargs));
}

Node* Graph::call_method(const std::string& method, ValueList args, Kwargs kwargs) {
  return create_node(Op::CallMethod, method, std::move(args), std::move(kwargs));
}

Node* Graph::call_module(const std::string& module_path, ValueList args, Kwargs kwargs) {
  return create_node(Op::CallModule, module_path, std::move(args), std::move(kwargs));
}

Node* Graph::output(Value result, std::string type_expr) {
  return create_node(Op::Output, "output", {std::move(result)}, {}, std::nullopt, std::move(type_expr));
}

Graph::InsertGuard::InsertGuard(Graph& g, Node* anchor, bool after)
    : g_(g), saved_(g.insert_before_), saved_after_(g.insert_after_) {
  if (after) {
    g.insert_after_ = anchor;
  } else {
    g.insert_before_ = anchor;
    g.insert_after_ = nullptr;
  }
}

Graph::InsertGuard::~InsertGuard() {
  g_.insert_before_ = saved_;
  g_.insert_after_ = saved_after_;
}

Graph::InsertGuard Graph::inserting_before(Node* n) {
  if (n == nullptr) return InsertGuard(*this, root_.get(), /*after=*/true);  // FX: inserting_after(root)
  if (n->graph_ != this || n->erased_) throw FxError("cannot insert before a node not in this graph", n->name_);
  return InsertGuard(*this, n, /*after=*/false);
}

Graph::InsertGuard Graph::inserting_after(Node* n) {
  if (n == nullptr) return InsertGuard(*this, root_.get(), /*after=*/false);  // FX: inserting_before(root)
  if (n->graph_ != this || n->erased_) throw FxError("cannot insert after a node not in this graph", n->name_);
  return InsertGuard(*this, n, /*after=*/true);
}

void Graph::erase_node(Node* n) {
  FX_CHECK(n != nullptr, "erase_node: the node is null");
  if (n->num_users() != 0) {
    std::string users;
    for (Node* u : n->users()) users += (users.empty() ? "" : ", ") + u->name_;
    throw FxError("cannot erase: it still has " + std::to_string(n->num_users()) + " user(s): " + users,
                  n->name_);
  }
  if (n->graph_ != this) throw FxError("cannot erase a node of another graph", n->name_);
  if (n->erased_) return;  // torch only warns
  // Keep a pending insertion point valid: it moves to where the node was.
  if (insert_before_ == n) insert_before_ = n->next_;
  if (insert_after_ == n) insert_after_ = n->prev_;
  unlink(n);
  n->erased_ = true;
  --count_;
  auto it = by_name_.find(n->name_);
  if (it != by_name_.end() && it->second == n) by_name_.erase(it);
  // As torch: the name stays taken, and the node lets go of its inputs so their users update.
  n->remove_uses();
  auto to_none = [](Node*) { return Value(); };
  for (Value& v : n->args_) v = v.map_nodes(to_none);
  for (auto& kv : n->kwargs_) kv.second = kv.second.map_nodes(to_none);
}

Node* Graph::node_copy(const Node& node, const std::function<Value(Node*)>& arg_transform) {
  ValueList args;
  args.reserve(node.args_.size());
  for (const Value& v : node.args_) args.push_back(v.map_nodes(arg_transform));
  Kwargs kwargs;
  kwargs.reserve(node.kwargs_.size());
  for (const auto& kv : node.kwargs_) kwargs.emplace_back(kv.first, kv.second.map_nodes(arg_transform));
  Node* copy = create_node(node.op_, node.target_, std::move(args), std::move(kwargs), node.name_,
                           node.type_expr_);
  copy->meta_ = node.meta_;
  return copy;
}

Value Graph::graph_copy(const Graph& other, std::unordered_map<const Node*, Node*>& val_map) {
  auto lookup = [&val_map](Node* n) {
    auto it = val_map.find(n);
    if (it == val_map.end()) throw FxError("graph_copy: used before it was copied", n->name_);
    return Value::node(it->second);
  };
  for (Node* node : other.nodes()) {
    if (val_map.count(node)) continue;
    if (node->op_ == Op::Output) {
      return node->args_.empty() ? Value() : node->args_[0].map_nodes(lookup);
    }
    val_map[node] = node_copy(*node, lookup);
  }
  return Value();
}

bool Graph::eliminate_dead_code() {
  lint();  // DCE relies on topological order
  bool changed = false;
  std::vector<Node*> order = nodes();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node* n = *it;
    if (n->num_users() == 0 && !n->is_impure()) {
      erase_node(n);
      changed = true;
    }
  }
  return changed;
}

void Graph::lint() const {
  // Use lists are checked through hash sets built on first need, so lint stays linear in the number of
  // uses even for a node with a million users or inputs (a file can spell out such a graph).
  std::unordered_map<const Node*, std::unordered_set<const Node*>> users_sets, inputs_sets;
  auto lists_user = [&](const Node* input, const Node* user) {
    const auto& users = input->users();
    if (users.size() <= 16) return std::find(users.begin(), users.end(), user) != users.end();
    auto it = users_sets.find(input);
    if (it == users_sets.end()) it = users_sets.emplace(input, std::unordered_set<const Node*>(users.begin(), users.end())).first;
    return it->second.count(user) > 0;
  };
  auto uses = [&](const Node* user, const Node* input) {
    auto it = inputs_sets.find(user);
    if (it != inputs_sets.end()) return it->second.count(input) > 0;
    const std::vector<Node*> inputs = user->all_input_nodes();
    if (inputs.size() > 16) return inputs_sets.emplace(user, std::unordered_set<const Node*>(inputs.begin(), inputs.end())).first->second.count(input) > 0;
    return std::find(inputs.begin(), inputs.end(), input) != inputs.end();
  };
  std::unordered_set<const Node*> seen;
  std::unordered_set<std::string> names;
  const Node* output = nullptr;
  size_t walked = 0;
  for (Node* n = root_->next_; n != root_.get(); n = n->next_) {
    ++walked;
    const std::string& name = n->name_;
    if (n->graph_ != this || !owned_.count(n)) throw FxError("does not belong to this graph", name);
    if (n->erased_) throw FxError("was erased but is still in the node list", name);
    if (n->next_->prev_ != n) throw FxError("the node list is broken after this node", name);
    if (!names.insert(name).second) throw FxError("redefines the name '" + name + "'", name);
    if (find(name) != n) throw FxError("is not registered under its name", name);
    if (output != nullptr) {
      throw FxError("comes after the output node '" + output->name_ + "'; the output must be last", name);
    }
    if (n->op_ == Op::Output) output = n;

    for (Node* input : n->all_input_nodes()) {
      const std::string arg = "argument '" + input->name_ + "' ";
      if (input->graph_ != this || !owned_.count(input)) {
        throw FxError(arg + "does not belong to this graph (copy nodes with node_copy and an arg_transform)",
                      name);
      }
      if (input->erased_) throw FxError(arg + "was erased from the graph", name);
      if (!seen.count(input)) {
        throw FxError(arg + "is used before it is defined: nodes must be in topological order", name);
      }
      if (!lists_user(input, n)) {
        throw FxError("is missing from the users of its " + arg, name);
      }
    }
    std::unordered_set<const Node*> distinct_users;
    for (Node* user : n->users()) {
      if (!distinct_users.insert(user).second) {
        throw FxError("lists user '" + user->name_ + "' more than once", name);
      }
      if (user->graph_ != this || user->erased_ || !owned_.count(user)) {
        throw FxError("lists user '" + user->name_ + "', which is not a live node of this graph", name);
      }
      if (!uses(user, n)) {
        throw FxError("lists user '" + user->name_ + "', which does not use it", name);
      }
    }
    seen.insert(n);
  }
  if (walked != count_) {
    throw FxError("the graph counts " + std::to_string(count_) + " nodes but its list holds " +
                  std::to_string(walked));
  }
}

}  // namespace fx
