// Interpreter: runs a GraphModule with torch.fx.Interpreter's semantics. Construction does the work that
// does not depend on inputs — resolves every node's op in the registry once, compiles args into slot
// references, resolves get_attr, and computes each value's last use — so a run is only dispatch.
// Values are released right after their last use (a node with no users: right after it runs).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "program/graph_module.h"
#include "program/object.h"
#include "ops/registry.h"
#include "runtime/profile.h"
#include "tensor/buffer_pool.h"

namespace fx {

// One op the runtime cannot run and the nodes that use it. kind: "function" (target is the qualified
// name), "method" (method name), "module" (module type) or "attribute" (missing get_attr target).
struct UnsupportedOp {
  std::string kind;
  std::string target;
  std::vector<std::string> nodes;
};

std::vector<UnsupportedOp> find_unsupported(const GraphModule& gm);
// "unsupported ops: torch.foo (nodes: foo, foo_1); method bar (nodes: bar)"
std::string format_unsupported(const std::vector<UnsupportedOp>& ops);

class Interpreter {
 public:
  // FxError listing every unsupported op (one message) if any node cannot run. `fuse`: run the chains
  // passes/fuse.h finds (FusionOptions::runtime(): conv + folded BatchNorm + residual add + clamp, Linear +
  // clamp) as one step each, without changing the graph; the
  // absorbed nodes then pass the chain's final value on, so a node hook or profile sees that value for
  // them. Off for callers that look at every intermediate value.
  explicit Interpreter(const GraphModule& gm, bool fuse = false);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Inputs bind to placeholders in order (a placeholder's default applies when inputs run out; a
  // "*args" placeholder takes the rest as a tuple). Returns the output node's structure. Any failure is
  // an FxError naming the node. Safe to call repeatedly; each run has its own values.
  Object run(const std::vector<Object>& inputs, Profile* profile = nullptr) const;

  // Shape and dtype inference: runs the graph in meta mode (tensor/meta.h) on `inputs` (meta tensors, or
  // real ones: only their shapes and dtypes matter), no kernel touching data. `hook` gets each node's
  // result — meta tensors for the tensors — or nullptr when it depends on tensor values (nonzero, item(),
  // anything computed from those). Other failures are FxErrors naming the node, as in run(). For an
  // interpreter built without fusion (absorbed nodes would show their chain's value).
  using InferHook = std::function<void(const Node&, const Object*)>;
  void infer(const std::vector<Object>& inputs, const InferHook& hook) const;

  // Called after each node runs (and after the values it last used were released), with its result.
  using NodeHook = std::function<void(const Node&, const Object&)>;
  void set_node_hook(NodeHook hook) { hook_ = std::move(hook); }

  // Checks inputs against what the placeholders' meta says they take (shape: a $size, a $node item
  // matching any length; dtype: a $dtype), as far as it says anything: FxError naming the placeholder,
  // "input 'l_a_' expects float32 [10], got float32 [3]". Separate from run() because shape propagation
  // runs a graph on inputs of other shapes on purpose; Model::run calls it.
  void check_inputs(const std::vector<Object>& inputs) const;
  struct InputSpec;  // (defined in interpreter.cpp)

  // The runs' tensor buffers (tensor/buffer_pool.h): each run allocates from this interpreter's arena, so
  // a run of shapes seen before reuses the blocks of earlier runs. peak_live_bytes: the most the last run
  // held at once; reserved_bytes: the arena's size; fresh_blocks: blocks the last run had to allocate.
  BufferPool::Stats memory() const { return pool_->stats(); }

  const std::vector<const Node*>& placeholders() const { return placeholders_; }
  // The nodes whose values are released right after `node` runs.
  std::vector<const Node*> freed_after(const Node* node) const;

 private:
  struct ArgTree;
  struct Step;
  Object eval(const ArgTree& t, const std::vector<Object>& env) const;
  ArgTree compile(const Value& v) const;
  Object run_step(const Step& s, const std::vector<Object>& inputs, size_t& next_input,
                  const std::vector<Object>& env, OpCall* call) const;

  const GraphModule& gm_;
  std::vector<Step> steps_;
  std::vector<const Node*> placeholders_;
  std::vector<InputSpec> input_specs_;  // one per placeholder, in order
  std::unordered_map<const Node*, size_t> slot_of_;  // node → its step and env slot
  NodeHook hook_;
  // One OpCall per step, its argument lists sized and keyword names set at construction: a run fills in
  // the values and empties them after the call, so a node's call allocates nothing. Taken by one run at a
  // time (calls_busy_); a run that finds it taken (a hook running the graph again, another thread) builds
  // its calls as it goes.
  mutable std::vector<OpCall> calls_;
  mutable std::atomic<bool> calls_busy_{false};
  // The shape-static values (runtime/shape_static.h) of the last input signature, kept by the run that
  // holds calls_ (others compute everything).
  struct StaticCache;
  std::unique_ptr<StaticCache> static_cache_;
  const std::vector<bool>* static_nodes(const std::vector<Object>& inputs) const;
  std::shared_ptr<BufferPool> pool_ = std::make_shared<BufferPool>();
};

}  // namespace fx
