// Graph: the ordered nodes of an FX program and FX's editing API (torch/fx/graph.py).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/naming.h"
#include "ir/node.h"

namespace fx {

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Nodes in order. The vector is a snapshot: editing the graph while walking it is safe.
  std::vector<Node*> nodes() const;
  size_t size() const { return count_; }
  Node* find(const std::string& name) const;  // nullptr when absent
  Node* output_node() const;                   // the output node, or nullptr

  // Create a node at the insertion point (the end by default). A name is made from `name` if given, else
  // from the target, unique in this graph, following FX's rules (ir/naming.h).
  Node* create_node(Op op, std::string target, ValueList args = {}, Kwargs kwargs = {},
                    std::optional<std::string> name = std::nullopt, std::string type_expr = {});
  Node* placeholder(const std::string& name, std::string type_expr = {});
  Node* get_attr(const std::string& qualified_name);
  Node* call_function(const std::string& target, ValueList args = {}, Kwargs kwargs = {});
  Node* call_method(const std::string& method, ValueList args = {}, Kwargs kwargs = {});
  Node* call_module(const std::string& module_path, ValueList args = {}, Kwargs kwargs = {});
  Node* output(Value result, std::string type_expr = {});

  // Insertion point, as FX's `with graph.inserting_before(n):`. The guard restores the old point.
  // As in FX, inserting_after(n) puts each new node right after n, so several come out in reverse order.
  class InsertGuard {
   public:
    InsertGuard(Graph& g, Node* anchor, bool after = false);  // new nodes go before (or after) anchor
    ~InsertGuard();
    InsertGuard(const InsertGuard&) = delete;
    InsertGuard& operator=(const InsertGuard&) = delete;
   private:
    Graph& g_;
    Node* saved_;
    Node* saved_after_;
  };
  InsertGuard inserting_before(Node* n);               // nullptr: at the start
  InsertGuard inserting_after(Node* n);                // nullptr: at the end

  // Remove a node with no users (throws FxError naming it otherwise).
  void erase_node(Node* n);

  // Copy `node` (of any graph) into this one; arg_transform maps each referenced node to its counterpart.
  Node* node_copy(const Node& node, const std::function<Value(Node*)>& arg_transform);
  // Copy every node of `other` but its output; fills val_map (old → new) and returns the copied output
  // value (the output node's argument mapped), or None when `other` has no output.
  Value graph_copy(const Graph& other, std::unordered_map<const Node*, Node*>& val_map);

  // Remove nodes with no users that are not impure, last to first; returns whether anything changed.
  bool eliminate_dead_code();

  // Check ownership, unique names, that every input is defined before use, users in sync, one output last.
  // Throws FxError naming the offending node.
  void lint() const;

  Namespace& names() { return names_; }

 private:
  friend class Node;
  void link_before(Node* position, Node* x);  // position == root_ means at the end
  void unlink(Node* x);

  std::unique_ptr<Node> root_;  // sentinel: root_->next_ is the first node
  std::unordered_map<const Node*, std::unique_ptr<Node>> owned_;
  std::unordered_map<std::string, Node*> by_name_;
  size_t count_ = 0;
  Node* insert_before_;  // new nodes go just before this (root_ = append)...
  Node* insert_after_ = nullptr;  // ...unless this is set: then just after it (FX's n.append)
  Namespace names_;
};

}  // namespace fx
