// Graph-level view semantics through the interpreter: an in-place op on a view node changes the value
// of the node it views (FX graphs from symbolic_trace rely on this: `x.t().add_(1); return x`), and
// Python-value nodes (size, getitem, math) feed shape arguments.
#include <gtest/gtest.h>

#include <cmath>

#include "ops/tensor_util.h"
#include "exec/interpreter.h"

namespace fx {
namespace {

Tensor f32(const Shape& shape, std::vector<float> values) {
  return Tensor::from_bytes(shape, DType::Float32, values.data(), values.size() * sizeof(float));
}

TEST(ShapeGraph, InPlaceOnAViewChangesTheBase) {
  GraphModule gm;
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* t = g.call_method("t", {Value::node(x)});
  Node* row = g.call_function("operator.getitem", {Value::node(t), Value::integer(0)});  // x[:, 0]
  g.call_method("mul_", {Value::node(row), Value::integer(10)});
  g.output(Value::node(x));
  Interpreter interp(gm);
  Tensor in = f32({2, 2}, {1, 2, 3, 4});
  Tensor out = interp.run({Object(in)}).tensor();
  Tensor d = to_dtype(out, DType::Float64);
  EXPECT_EQ(std::vector<double>(d.data<double>(), d.data<double>() + 4), (std::vector<double>{10, 2, 30, 4}));
}

TEST(ShapeGraph, SizesFlowIntoViews) {
  // b = x.size(0); n = x.numel(); y = x.view(b, -1) * math.sqrt(n); return (y.shape, y)
  GraphModule gm;
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* b = g.call_method("size", {Value::node(x), Value::integer(0)});
  Node* n = g.call_method("numel", {Value::node(x)});
  Node* s = g.call_function("math.sqrt", {Value::node(n)});
  Node* v = g.call_method("view", {Value::node(x), Value::node(b), Value::integer(-1)});
  Node* y = g.call_function("operator.mul", {Value::node(v), Value::node(s)});
  Node* shape = g.call_function("builtins.getattr", {Value::node(y), Value::str("shape")});
  g.output(Value::tuple({Value::node(shape), Value::node(y)}));
  Interpreter interp(gm);
  Object out = interp.run({Object(f32({2, 1, 2}, {1, 1, 1, 1}))});
  const auto& items = out.items();
  ASSERT_EQ(items[0].items().size(), 2u);
  EXPECT_EQ(items[0].items()[1].value(), Value::integer(2));
  Tensor d = to_dtype(items[1].tensor(), DType::Float64);
  EXPECT_DOUBLE_EQ(d.data<double>()[3], 2.0);
}

}  // namespace
}  // namespace fx
