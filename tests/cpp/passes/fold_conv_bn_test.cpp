// Conv-BatchNorm folding on models exported by the real exporter (tests/golden/passes/gen_conv_bn.py):
// the graph loses its BatchNorms and the folded model still gives torch's outputs.
#include "passes/fold_conv_bn.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "passes_testing.h"
#include "exec/interpreter.h"

namespace fx {
namespace {

// Runs the stored reference inputs; false when this build cannot run the model yet.
bool run_reference(const GraphModule& gm, Object& out) {
  if (!find_unsupported(gm).empty()) return false;
  out = Interpreter(gm).run(gm.reference().inputs);
  return true;
}

TEST(FoldConvBnTest, ModuleFormFoldsBothPairs) {
  auto gm = testing::load_fixture("tests/golden/passes/conv_bn.fxw");
  Object before;
  const bool runnable = run_reference(*gm, before);
  FoldConvBatchNorm pass;
  EXPECT_TRUE(run_pass(pass, *gm));
  std::vector<std::string> names;
  for (const Node* n : gm->graph().nodes()) names.push_back(n->name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "conv1", "relu", "conv2", "output"}));
  EXPECT_EQ(gm->modules().count("bn1"), 0u);
  EXPECT_EQ(gm->modules().count("bn2"), 0u);
  EXPECT_EQ(gm->tensors().count("bn1.running_mean"), 0u);
  ASSERT_EQ(gm->tensors().count("conv2.bias"), 1u);  // conv2 had no bias: the fold adds one
  EXPECT_EQ(gm->tensors().at("conv2.bias").tensor.shape(), (Shape{5}));
  bool has_bias = false;
  for (const auto& [k, v] : gm->modules().at("conv2").hparams)
    if (k == "bias") has_bias = v.as_bool();
  EXPECT_TRUE(has_bias);
  EXPECT_FALSE(run_pass(pass, *gm));

  ASSERT_TRUE(runnable) << "the unfolded Conv2d/BatchNorm2d graph must run";
  Object after;
  ASSERT_TRUE(run_reference(*gm, after)) << "the folded graph must run";
  EXPECT_LT(testing::max_abs_diff(after, before), 1e-4);
  EXPECT_LT(testing::max_abs_diff(after, gm->reference().outputs), 1e-4);
}

TEST(FoldConvBnTest, FunctionalFormFoldsIntoNewConstants) {
  auto gm = testing::load_fixture("tests/golden/passes/conv_bn_functional.fxw");
  Object before;
  const bool runnable = run_reference(*gm, before);
  FoldConvBatchNorm pass;
  EXPECT_TRUE(run_pass(pass, *gm));
  std::vector<std::string> names;
  for (const Node* n : gm->graph().nodes()) names.push_back(n->name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "conv2d_weight_folded", "conv2d_bias_folded", "conv2d", "output"}));
  EXPECT_EQ(gm->tensors().count("mean"), 0u);  // statistics nobody uses any more
  EXPECT_EQ(gm->tensors().count("w"), 0u);
  EXPECT_EQ(gm->tensors().at("conv2d_weight_folded").tensor.shape(), (Shape{4, 3, 3, 3}));

  ASSERT_TRUE(runnable) << "the unfolded conv2d/batch_norm graph must run";
  Object after;
  ASSERT_TRUE(run_reference(*gm, after)) << "the folded graph must run";
  EXPECT_LT(testing::max_abs_diff(after, before), 1e-4);
  EXPECT_LT(testing::max_abs_diff(after, gm->reference().outputs), 1e-4);
}

// A direct 2-D convolution (groups 1, no dilation) for checking folded weights without the runtime.
std::vector<float> conv2d(const std::vector<float>& x, Shape xs, const Tensor& w, const Tensor* b, int stride, int pad,
                          Shape* out_shape) {
  const int64_t C = xs[1], H = xs[2], W = xs[3], O = w.shape()[0], K = w.shape()[2];
  const int64_t OH = (H + 2 * pad - K) / stride + 1, OW = (W + 2 * pad - K) / stride + 1;
  std::vector<float> y(O * OH * OW);
  const float* wd = w.data<float>();
  for (int64_t o = 0; o < O; ++o)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j) {
        double acc = b ? b->data<float>()[o] : 0.0;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t ki = 0; ki < K; ++ki)
            for (int64_t kj = 0; kj < K; ++kj) {
              const int64_t r = i * stride - pad + ki, q = j * stride - pad + kj;
              if (r < 0 || r >= H || q < 0 || q >= W) continue;
              acc += double(wd[((o * C + c) * K + ki) * K + kj]) * x[(c * H + r) * W + q];
            }
        y[(o * OH + i) * OW + j] = static_cast<float>(acc);
      }
  *out_shape = {1, O, OH, OW};
  return y;
}

TEST(FoldConvBnTest, FoldedWeightsReproduceTorchWithoutTheRuntime) {
  // conv1(pad 1) → relu → conv2(stride 2) with the folded weights gives torch's conv-bn-relu-conv-bn output.
  auto gm = testing::load_fixture("tests/golden/passes/conv_bn.fxw");
  FoldConvBatchNorm pass;
  ASSERT_TRUE(run_pass(pass, *gm));
  const Tensor& x = gm->reference().inputs[0].tensor();
  Shape s1, s2;
  std::vector<float> h = conv2d(testing::values(Object(x)), x.shape(), *gm->find_tensor("conv1.weight"),
                                gm->find_tensor("conv1.bias"), 1, 1, &s1);
  for (float& v : h) v = std::max(v, 0.0f);
  const std::vector<float> y =
      conv2d(h, s1, *gm->find_tensor("conv2.weight"), gm->find_tensor("conv2.bias"), 2, 0, &s2);
  const Object& expected = gm->reference().outputs;
  EXPECT_EQ(s2, expected.tensor().shape());
  const std::vector<float> e = testing::values(expected);
  ASSERT_EQ(y.size(), e.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], e[i], 1e-4) << i;
}

TEST(FoldConvBnTest, LeavesTrainingModeAndSharedConvsAlone) {
  auto gm = testing::load_fixture("tests/golden/passes/conv_bn.fxw");
  for (auto& [k, v] : gm->modules().at("bn1").hparams)
    if (k == "training") v = Value::boolean(true);
  FoldConvBatchNorm pass;
  EXPECT_TRUE(run_pass(pass, *gm));  // only bn2 folds
  EXPECT_NE(gm->graph().find("bn1"), nullptr);
  EXPECT_EQ(gm->graph().find("bn2"), nullptr);
}

}  // namespace
}  // namespace fx
