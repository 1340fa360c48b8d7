// Leaf modules of modules/unpool_bag.cpp through call_module, with the arguments their forward takes by
// keyword (EmbeddingBag's offsets / per_sample_weights, MaxUnpool's output_size) and the hyperparameters
// they refuse. Numbers against torch: tests/golden/modules/sampling_bags*.fxw.
#include <gtest/gtest.h>

#include "exec/interpreter.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor f32(const Shape& shape, std::vector<float> v) {
  return Tensor::from_bytes(shape, DType::Float32, v.data(), v.size() * sizeof(float));
}
Tensor i64(const Shape& shape, std::vector<int64_t> v) {
  return Tensor::from_bytes(shape, DType::Int64, v.data(), v.size() * sizeof(int64_t));
}

void build_bag(GraphModule& gm, Kwargs hparams) {
  gm.modules()["bag"] = ModuleInfo{"torch.nn.modules.sparse.EmbeddingBag", std::move(hparams)};
  gm.tensors()["bag.weight"] = NamedTensor{TensorKind::Parameter, f32({3, 2}, {1, 2, 3, 4, 5, 6})};
  Graph& g = gm.graph();
  Node* ids = g.placeholder("ids");
  Node* off = g.placeholder("offsets");
  Node* psw = g.placeholder("psw");
  Node* m = g.call_module("bag", {Value::node(ids)},
                          {{"offsets", Value::node(off)}, {"per_sample_weights", Value::node(psw)}});
  g.output(Value::node(m));
}

TEST(UnpoolBagModules, EmbeddingBagTakesOffsetsAndWeightsByKeyword) {
  GraphModule gm;
  build_bag(gm, {{"mode", Value::str("sum")}, {"include_last_offset", Value::boolean(false)},
                 {"padding_idx", Value::integer(1)}});
  Interpreter interp(gm);
  // Bags [0, 1, 2] and [2]; row 1 is padding; weights 1, 10, 100, 1000.
  Object y = interp.run({Object(i64({4}, {0, 1, 2, 2})), Object(i64({2}, {0, 3})),
                         Object(f32({4}, {1, 10, 100, 1000}))});
  const float* d = y.tensor().data<float>();
  ASSERT_EQ(y.tensor().shape(), (Shape{2, 2}));
  EXPECT_FLOAT_EQ(d[0], 1 + 500);
  EXPECT_FLOAT_EQ(d[1], 2 + 600);
  EXPECT_FLOAT_EQ(d[2], 5000);
  EXPECT_FLOAT_EQ(d[3], 6000);
}

TEST(UnpoolBagModules, EmbeddingBagRefusesMaxNorm) {
  GraphModule gm;
  build_bag(gm, {{"mode", Value::str("mean")}, {"max_norm", Value::floating(1.0)}});
  try {
    Interpreter interp(gm);
    FAIL();
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("max_norm"), std::string::npos) << e.what();
  }
}

TEST(UnpoolBagModules, MaxUnpool2dTakesOutputSize) {
  GraphModule gm;
  gm.modules()["up"] = ModuleInfo{"torch.nn.modules.pooling.MaxUnpool2d",
                                  {{"kernel_size", Value::integer(2)}, {"stride", Value::integer(2)},
                                   {"padding", Value::integer(0)}}};
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* i = g.placeholder("i");
  Node* m = g.call_module("up", {Value::node(x), Value::node(i)},
                          {{"output_size", Value::list({Value::integer(3), Value::integer(3)})}});
  g.output(Value::node(m));
  Interpreter interp(gm);
  Object y = interp.run({Object(f32({1, 1, 1, 1}, {7})), Object(i64({1, 1, 1, 1}, {4}))});
  ASSERT_EQ(y.tensor().shape(), (Shape{1, 1, 3, 3}));
  for (int k = 0; k < 9; ++k) EXPECT_EQ(y.tensor().data<float>()[k], k == 4 ? 7.0f : 0.0f);
  // An index outside the 3x3 output names torch's error.
  try {
    interp.run({Object(f32({1, 1, 1, 1}, {7})), Object(i64({1, 1, 1, 1}, {9}))});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("Found an invalid max index: 9"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fx
