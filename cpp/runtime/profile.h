// What a profiled run records per node: time, and the shape and dtype of what the node produced.
#pragma once
#include <string>
#include <vector>

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
};

struct Profile {
  std::vector<NodeProfile> nodes;  // in execution order
  double total_ms = 0.0;
  size_t peak_bytes = 0;   // the most tensor bytes the run held at once (runtime/interpreter.h memory())
  size_t arena_bytes = 0;  // the runtime's buffer arena after the run
};

}  // namespace fx
