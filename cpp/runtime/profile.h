// What a profiled run records per node: time, and the shape and dtype of what the node produced. The
// Profiler fills it as a client of the executor (exec/interpreter.h's RunObserver).
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "exec/interpreter.h"
#include "ir/node.h"
#include "tensor/tensor.h"

namespace fx {

struct NodeProfile {
  const Node* node = nullptr;
  std::string name;
  Op op = Op::Placeholder;
  std::string target;
  double ms = 0.0;
  bool is_tensor = false;  // shape and dtype are set only for a tensor result
  Shape shape;
  DType dtype = DType::Float32;
  std::string result;      // Object::describe() of the result, for any kind
  size_t live_values = 0;  // values held after this node ran (after last-use freeing)
  // A node the runtime's plan fused into another (runtime/plan.h): that node's name. Its time is counted
  // there; shape and dtype are those of the fused node's value.
  std::string fused_into;
};

struct Profile {
  std::vector<NodeProfile> nodes;  // in execution order
  double total_ms = 0.0;
  size_t peak_bytes = 0;   // the most tensor bytes the run held at once (exec/interpreter.h memory())
  size_t arena_bytes = 0;  // the runtime's buffer arena after the run
};

// Times each node of one run and records what it produced; finish() adds the totals and the memory.
class Profiler : public RunObserver {
 public:
  explicit Profiler(Profile& profile);
  void before(const Node& node) override;
  void after(const Node& node, const Object& value, size_t live_values) override;
  void finish(const BufferPool::Stats& memory);

 private:
  using Clock = std::chrono::steady_clock;
  Profile& profile_;
  Clock::time_point run_start_, node_start_;
};

}  // namespace fx
