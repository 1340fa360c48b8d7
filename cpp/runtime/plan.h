// The runtime's one road from a GraphModule to runs, in two phases as XNNPACK (subgraph rewriting, then
// the runtime) and tract (declutter, then codegen) do it:
//  1. normalise: the passes a user can apply run on the plan's own copy of the graph — epilogue fusion
//     with Conv2d → BatchNorm2d folded (passes/fuse.h: one matcher, one fold) — so the user's graph is
//     never changed and no pattern is found twice; then caches that grow in place (passes/grow_caches.h);
//  2. lower: the executor (exec/interpreter.h) binds that graph's ops and leaf modules once and plans the
//     values' lifetimes; the shape-static cache (runtime/shape_static.h) serves it as a memo.
// A profile is reported in the user's graph's terms: a node the plan fused into another is listed with
// `fused_into` naming it (its time counted there).
#pragma once
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "exec/interpreter.h"
#include "program/graph_module.h"
#include "runtime/profile.h"
#include "runtime/shape_static.h"

namespace fx {

class Plan {
 public:
  // FxError (one message listing them) when the graph holds ops the runtime cannot run; FxError naming
  // the node when a module cannot be bound.
  explicit Plan(const GraphModule& gm);

  // Checks the inputs against the placeholders' meta (exec/interpreter.h check_inputs), then runs.
  Object run(const std::vector<Object>& inputs, Profile* profile = nullptr) const;

  BufferPool::Stats memory() const { return interpreter_->memory(); }
  // The normalised graph the executor runs (for tests and tools).
  const GraphModule& lowered() const { return *lowered_; }
  // Whether the graph writes into a tensor in place (passes/mutation.h): a caller that keeps tensors in the
  // runtime gives such a graph copies of them, since grown caches share blocks (ops/array/cat_grow.cpp).
  bool mutates_in_place() const { return mutates_in_place_; }

 private:
  std::unique_ptr<GraphModule> lowered_;
  std::unique_ptr<Interpreter> interpreter_;
  std::unique_ptr<ShapeStaticCache> statics_;
  // A fused node of the lowered graph (by name) as the user's graph has it: its producer (same name) and
  // the nodes it absorbed.
  struct Fused {
    struct Node {
      std::string name;
      Op op = Op::CallFunction;
      std::string target;
    };
    Node head;
    std::vector<Node> absorbed;
  };
  std::map<std::string, Fused> fused_;
  // Nodes the normalisation added (the get_attr of a fused module's weight, a folded bias): not the user's,
  // so not in a profile.
  std::set<std::string> added_;
  // Nodes the normalisation gave another target (torch.cat → fxwasm.cat_grow): the user's target.
  std::map<std::string, std::string> retargeted_;
  bool mutates_in_place_ = false;
};

}  // namespace fx
