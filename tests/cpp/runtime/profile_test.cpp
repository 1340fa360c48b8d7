// The profiler as a client of the executor (runtime/profile.h): per node time, shape, dtype, liveness.
#include "runtime/profile.h"

#include <gtest/gtest.h>

namespace fx {
namespace {

Tensor f32(const Shape& shape, std::vector<float> values) {
  return Tensor::from_bytes(shape, DType::Float32, values.data(), values.size() * sizeof(float));
}

// The seed graph: abs_1 = torch.abs(l_a_); add = abs_1 + 1; x = l_a_ / add; sum_1 = l_b_.sum();
// lt = sum_1 < 0; return (lt, x)
void build_seed(GraphModule& gm) {
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

TEST(Profiler, RecordsShapesDtypesAndTime) {
  GraphModule gm;
  build_seed(gm);
  Interpreter interp(gm);
  Profile p;
  Profiler profiler(p);
  interp.run({Object(f32({2, 3}, {1, 2, 3, 4, 5, 6})), Object(f32({1}, {1}))}, &profiler);
  profiler.finish(interp.memory());
  ASSERT_EQ(p.nodes.size(), 8u);
  EXPECT_EQ(p.nodes[2].name, "abs_1");
  EXPECT_EQ(p.nodes[2].target, "torch.abs");
  EXPECT_TRUE(p.nodes[2].is_tensor);
  EXPECT_EQ(p.nodes[2].shape, (Shape{2, 3}));
  EXPECT_EQ(p.nodes[6].dtype, DType::Bool);
  EXPECT_EQ(p.nodes[6].shape, Shape{});
  EXPECT_FALSE(p.nodes[7].is_tensor);  // the output tuple
  EXPECT_EQ(p.nodes[7].result, "tuple of 2");
  for (const auto& n : p.nodes) EXPECT_GE(n.ms, 0.0);
  EXPECT_GE(p.total_ms, 0.0);
}

}  // namespace
}  // namespace fx
