// Node: one operation of an FX graph. Mirrors torch/fx/node.py: the six op kinds, name, target, args,
// kwargs, meta, and use-def links (users) that stay in sync whenever args or kwargs change.
#pragma once
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/value.h"

namespace fx {

class Graph;

enum class Op { Placeholder, GetAttr, CallFunction, CallModule, CallMethod, Output };

const char* op_name(Op op);             // "placeholder", "call_function", ...
Op parse_op(const std::string& text);   // throws FxError on anything but the six

class Node {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  Graph& graph() const { return *graph_; }
  Op op() const { return op_; }
  const std::string& name() const { return name_; }
  // call_function: canonical qualified name ("torch.abs", "operator.add", "aten.convolution.default");
  // call_method: method name; call_module/get_attr: qualified attribute path; placeholder: argument name;
  // output: "output".
  const std::string& target() const { return target_; }
  void set_target(std::string target) { target_ = std::move(target); }
  // Python type annotation as code prints it ("torch.Tensor"), empty when none.
  const std::string& type_expr() const { return type_expr_; }
  void set_type_expr(std::string t) { type_expr_ = std::move(t); }

  const ValueList& args() const { return args_; }
  const Kwargs& kwargs() const { return kwargs_; }
  const Value* kwarg(const std::string& key) const;  // nullptr when absent
  // Setting args/kwargs updates the users of every old and new input node.
  void set_args(ValueList args);
  void set_kwargs(Kwargs kwargs);
  void update_arg(size_t index, Value value);
  void update_kwarg(const std::string& key, Value value);

  // Nodes that use this one, in the order they started using it (FX keeps a dict).
  const std::vector<Node*>& users() const {
    if (dead_users_) compact_users();
    return users_;
  }
  size_t num_users() const { return users_.size() - dead_users_; }
  // Distinct nodes among args and kwargs, in order of first appearance.
  std::vector<Node*> all_input_nodes() const;

  // Replace every use of this node by `replacement` (only in users where filter returns true, if given);
  // returns the users that changed.
  std::vector<Node*> replace_all_uses_with(Node* replacement,
                                           const std::function<bool(Node*)>& filter = {});
  void replace_input_with(Node* old_input, Node* new_input);

  // Move `x` (a node of the same graph) to just before / just after this node.
  void prepend(Node* x);
  void append(Node* x);
  Node* next() const;  // nullptr past the last node
  Node* prev() const;  // nullptr before the first node

  // FX's meta dict: "shape" (Size), "dtype" (Dtype), "stack_trace" (Str), and whatever else was exported.
  Kwargs& meta() { return meta_; }
  const Kwargs& meta() const { return meta_; }
  const Value* meta_value(const std::string& key) const;
  void set_meta(const std::string& key, Value value);

  // As torch.fx.Node.is_impure: placeholders, outputs and side-effectful calls (in-place ops, _assert...).
  bool is_impure() const;
  // "%name : [num_users=N] = call_function[target=torch.abs](args = (%x,), kwargs = {})"
  std::string format_node() const;

 private:
  friend class Graph;
  Node(Graph* graph, Op op, std::string name, std::string target);
  void add_uses();
  void remove_uses();
  void add_user(Node* user);
  void remove_user(Node* user);
  void compact_users() const;
  // Sets both, as torch's _update_args_kwargs: users updated, torch.Size arguments stored as plain tuples.
  void assign_args_kwargs(ValueList args, Kwargs kwargs);

  Graph* graph_;
  Op op_;
  std::string name_;
  std::string target_;
  std::string type_expr_;
  ValueList args_;
  Kwargs kwargs_;
  Kwargs meta_;
  // A user leaves in O(1), so that erasing or rewiring every user of a node with 200,000 of them is linear:
  // past kIndexUsersFrom users, users_index_ finds its place and the entry becomes null until the next
  // read of users() packs the list (in order) again.
  static constexpr size_t kIndexUsersFrom = 16;
  mutable std::vector<Node*> users_;
  mutable std::unordered_map<const Node*, size_t> users_index_;
  mutable size_t dead_users_ = 0;
  Node* prev_ = nullptr;  // intrusive list owned by Graph (a sentinel root closes the ring)
  Node* next_ = nullptr;
  bool erased_ = false;
};

}  // namespace fx
