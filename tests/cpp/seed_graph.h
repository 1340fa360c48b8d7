// The seed document's graph (Dynamo's toy_example), built with the Graph API, and a float32 tensor maker:
// shared by the executor's and the profiler's tests.
//   abs_1 = torch.abs(l_a_); add = abs_1 + 1; x = l_a_ / add; sum_1 = l_b_.sum(); lt = sum_1 < 0
//   return (lt, x)
#pragma once
#include <vector>

#include "program/graph_module.h"

namespace fx::testing {

inline Tensor f32(const Shape& shape, std::vector<float> values) {
  return Tensor::from_bytes(shape, DType::Float32, values.data(), values.size() * sizeof(float));
}

inline void build_seed(GraphModule& gm) {
  Graph& g = gm.graph();
  Node* a = g.placeholder("l_a_");
  Node* b = g.placeholder("l_b_");
  Node* abs1 = g.call_function("torch.abs", {Value::node(a)});
  Node* add = g.call_function("operator.add", {Value::node(abs1), Value::integer(1)});
  Node* x = g.create_node(Op::CallFunction, "operator.truediv", {Value::node(a), Value::node(add)}, {}, "x");
  Node* sum1 = g.call_method("sum", {Value::node(b)});
  Node* lt = g.call_function("operator.lt", {Value::node(sum1), Value::integer(0)});
  g.output(Value::tuple({Value::node(lt), Value::node(x)}));
}

}  // namespace fx::testing
