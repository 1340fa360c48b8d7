// Interpreter: runs a GraphModule with torch.fx.Interpreter's semantics — a plain executor. Construction
// does the work that does not depend on inputs — resolves every node's op in the registry once, binds each
// call_module to its leaf module (nn/registry.h), compiles args into slot references, resolves get_attr,
// and computes each value's last use — so a run is only dispatch. Values are released right after their
// last use (a node with no users: right after it runs).
//
// It knows no passes and no planning: it runs the graph it is given, node for node. Its clients, as
// torch's ShapeProp subclasses torch.fx.Interpreter, sit above it and watch or serve a run through two
// hooks: a RunObserver (the runtime's profiler, a node hook) and a RunMemo (the runtime's shape-static
// cache). The runtime's plan (runtime/plan.h) runs it on a copy of the graph the normalising passes
// (fusion, BatchNorm folding) have rewritten; passes/shape_prop.h runs it in meta mode.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/unsupported.h"
#include "ops/registry.h"
#include "program/graph_module.h"
#include "program/object.h"
#include "tensor/buffer_pool.h"

namespace fx {

// Watches a run node by node: before() right before a node runs, after() once it ran and the values it
// used for the last time were released (live_values: how many values the run then holds).
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void before(const Node&) {}
  virtual void after(const Node& node, const Object& value, size_t live_values) = 0;
};

// Values a run may take instead of computing them, by step (the node's position in the graph). start()
// is called once at the beginning of a run with its inputs; when it returns false the run neither asks nor
// offers. A memo is only used by one run at a time (the run that holds the interpreter's reusable calls).
class RunMemo {
 public:
  virtual ~RunMemo() = default;
  virtual bool start(const std::vector<Object>& inputs) = 0;
  virtual const Object* find(size_t step) const = 0;           // a value to take, or null: run the node
  virtual void store(size_t step, const Object& value) = 0;    // the value a node computed this run
};

class Interpreter {
 public:
  // FxError listing every unsupported op (one message) if any node cannot run.
  explicit Interpreter(const GraphModule& gm);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Inputs bind to placeholders in order (a placeholder's default applies when inputs run out; a
  // "*args" placeholder takes the rest as a tuple). Returns the output node's structure. Any failure is
  // an FxError naming the node. Safe to call repeatedly; each run has its own values.
  Object run(const std::vector<Object>& inputs, RunObserver* observer = nullptr, RunMemo* memo = nullptr) const;

  // Shape and dtype inference: runs the graph in meta mode (tensor/meta.h) on `inputs` (meta tensors, or
  // real ones: only their shapes and dtypes matter), no kernel touching data. `hook` gets each node's
  // result — meta tensors for the tensors — or nullptr when it depends on tensor values (nonzero, item(),
  // anything computed from those). Other failures are FxErrors naming the node, as in run().
  using InferHook = std::function<void(const Node&, const Object*)>;
  void infer(const std::vector<Object>& inputs, const InferHook& hook) const;

  // Called after each node runs (and after the values it last used were released), with its result; a
  // RunObserver given to run() is called too.
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

  const GraphModule& graph_module() const { return gm_; }
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
  std::shared_ptr<BufferPool> pool_ = std::make_shared<BufferPool>();
};

}  // namespace fx
