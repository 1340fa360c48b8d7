#include "runtime/shape_static.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "exec/interpreter.h"
#include "passes/mutation.h"

namespace fx {
namespace {

Tensor f32(const Shape& shape, float start) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = start + static_cast<float>(i);
  return t;
}

// x [B, T]: T = x.size(1); pos = arange(T); future = pos.view(T, 1) < pos.view(1, T); y = x.unsqueeze(1) +
// future (a causal mask from positions, as the bench's decoder block builds it); returns y.
struct MaskGraph {
  GraphModule gm;
  Node *x, *size, *t, *arange, *col, *row, *future, *xu, *y;
  MaskGraph() {
    Graph& g = gm.graph();
    x = g.placeholder("x");
    size = g.call_method("size", {Value::node(x)});
    t = g.call_function("operator.getitem", {Value::node(size), Value::integer(1)});
    arange = g.call_function("torch.arange", {Value::node(t)});
    col = g.call_method("view", {Value::node(arange), Value::node(t), Value::integer(1)});
    row = g.call_method("view", {Value::node(arange), Value::integer(1), Value::node(t)});
    future = g.call_function("operator.lt", {Value::node(col), Value::node(row)});
    xu = g.call_method("unsqueeze", {Value::node(x), Value::integer(1)});
    y = g.call_function("operator.add", {Value::node(xu), Value::node(future)});
    g.output(Value::node(y));
  }
  size_t index(const Node* n) const {
    const std::vector<Node*> all = gm.graph().nodes();
    return static_cast<size_t>(std::find(all.begin(), all.end(), n) - all.begin());
  }
};

TEST(ShapeStatic, ShapeValuesAndWhatIsComputedFromThemAlone) {
  MaskGraph m;
  Interpreter interp(m.gm);
  const std::vector<bool> s = shape_static_nodes(interp, m.gm, {Object(f32({2, 4}, 0))});
  for (const Node* n : {m.size, m.t, m.arange, m.col, m.row, m.future}) EXPECT_TRUE(s[m.index(n)]) << n->name();
  for (const Node* n : {m.x, m.xu, m.y}) EXPECT_FALSE(s[m.index(n)]) << n->name();
}

// Runs reuse the static values for inputs of the same shapes and recompute them for new ones.
TEST(ShapeStatic, RunsMatchAFreshInterpreterWhateverTheShapes) {
  MaskGraph m;
  Interpreter interp(m.gm);
  for (const Shape& shape : {Shape{2, 4}, Shape{2, 4}, Shape{3, 5}, Shape{3, 5}, Shape{2, 4}}) {
    const Object x(f32(shape, 1.5f));
    const Tensor got = interp.run({x}).tensor();
    const Tensor want = Interpreter(m.gm).run({x}).tensor();  // its first run: nothing reused
    ASSERT_EQ(got.shape(), want.shape());
    const int64_t T = shape[1];
    ASSERT_EQ(got.shape(), (Shape{shape[0], T, T}));
    for (int64_t i = 0; i < got.numel(); ++i) {
      ASSERT_EQ(got.data<float>()[i], want.data<float>()[i]) << i;
      const int64_t b = i / (T * T), r = (i / T) % T, c = i % T;  // x[b, c] + (r < c)
      ASSERT_EQ(got.data<float>()[i], 1.5f + static_cast<float>(b * T + c) + (r < c ? 1.0f : 0.0f)) << i;
    }
  }
}

// A memo only for graphs with something static computed from shapes: a graph computing from its inputs
// alone (a decoding step) is analysed once, not once per new input shape.
TEST(ShapeStatic, AGraphWithOnlyAttributesStaticIsAnalysedOnce) {
  GraphModule gm;
  gm.tensors()["w"] = NamedTensor{TensorKind::Parameter, f32({4}, 0)};
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* w = g.get_attr("w");
  g.output(Value::node(g.call_function("operator.add", {Value::node(x), Value::node(w)})));
  Interpreter interp(gm);
  EXPECT_TRUE(shape_static_nodes(interp, gm, {Object(f32({2, 4}, 0))})[1]);  // the attribute is
  ShapeStaticCache memo(interp);
  for (int64_t rows = 1; rows <= 12; ++rows) {
    EXPECT_FALSE(memo.start({Object(f32({rows, 4}, 0))})) << rows;
    EXPECT_EQ(memo.find(1), nullptr);
  }
  const Tensor y = interp.run({Object(f32({3, 4}, 1))}, nullptr, &memo).tensor();
  for (int64_t i = 0; i < y.numel(); ++i) EXPECT_EQ(y.data<float>()[i], 1.0f + static_cast<float>(i) + (i % 4));

  MaskGraph m;  // a causal mask from the sequence length: a memo for each length
  Interpreter masks(m.gm);
  ShapeStaticCache memo2(masks);
  for (int64_t T = 1; T <= 4; ++T) EXPECT_TRUE(memo2.start({Object(f32({2, T}, 0))})) << T;
}

TEST(ShapeStatic, UninitialisedOrReturnedTensorsAreNot) {
  GraphModule gm;
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* size = g.call_method("size", {Value::node(x), Value::integer(0)});
  Node* noise = g.call_function("torch.empty", {Value::node(size)});  // uninitialised: whatever memory held
  Node* ones = g.call_function("torch.ones", {Value::node(size)});
  Node* sum = g.call_function("operator.add", {Value::node(x), Value::node(noise)});
  g.output(Value::tuple({Value::node(sum), Value::node(ones), Value::node(size)}));
  Interpreter interp(gm);
  const std::vector<bool> s = shape_static_nodes(interp, gm, {Object(f32({3}, 0))});
  EXPECT_TRUE(s[1]);   // size: a Python int, returned as it is
  EXPECT_FALSE(s[2]);  // empty: a value that is no function of its arguments (as torch.rand's)
  EXPECT_FALSE(s[3]);  // ones: static, but returned to the caller
  EXPECT_FALSE(s[4]);
}

TEST(ShapeStatic, AGraphWritingInPlaceHasNone) {
  for (const char* method : {"add_", "__setitem__", "masked_fill_"}) {
    MaskGraph m;
    EXPECT_FALSE(graph_mutates_in_place(m.gm));
    {
      auto at = m.gm.graph().inserting_before(m.y);
      m.gm.graph().call_method(method, {Value::node(m.col), Value::integer(1)});
    }
    EXPECT_TRUE(graph_mutates_in_place(m.gm)) << method;
    Interpreter interp(m.gm);
    for (bool flag : shape_static_nodes(interp, m.gm, {Object(f32({2, 4}, 0))})) EXPECT_FALSE(flag) << method;
  }
  GraphModule gm;
  Node* x = gm.graph().placeholder("x");
  gm.graph().output(Value::node(gm.graph().call_function("torch.nn.functional.relu", {Value::node(x)},
                                                           {{"inplace", Value::boolean(true)}})));
  EXPECT_TRUE(graph_mutates_in_place(gm));
  GraphModule iadd;
  Node* a = iadd.graph().placeholder("a");
  iadd.graph().output(Value::node(iadd.graph().call_function("operator.iadd", {Value::node(a), Value::integer(1)})));
  EXPECT_TRUE(graph_mutates_in_place(iadd));
}

}  // namespace
}  // namespace fx
