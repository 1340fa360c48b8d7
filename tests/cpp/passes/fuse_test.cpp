// Epilogue fusion (passes/fuse.h, ops/nn/fused.cpp): on the corpus models and on hand-built graphs the fused
// graph has fewer calls, computes what the original did (rtol 1e-4), and survives save + load, table and
// code; the runtime's plan runs the same pass on its own copy (BatchNorm as a scale).
#include "passes/fuse.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "api/check.h"
#include "ir/python_code.h"
#include "ir/tabular.h"
#include "passes_testing.h"
#include "exec/interpreter.h"
#include "runtime/plan.h"
#include "serialize/writer.h"

namespace fx {
namespace {

namespace fs = std::filesystem;

struct Counts {
  size_t nodes = 0, calls = 0, fused = 0;
};

Counts count(const GraphModule& gm) {
  Counts c;
  for (const Node* n : gm.graph().nodes()) {
    ++c.nodes;
    if (n->op() == Op::CallFunction || n->op() == Op::CallMethod || n->op() == Op::CallModule) ++c.calls;
    if (n->op() == Op::CallFunction && n->target().compare(0, 13, "fxwasm.fused_") == 0) ++c.fused;
  }
  return c;
}

// "" when `actual` matches `expected` within rtol 1e-4 (atol 1e-5), else what differs.
std::string mismatch(const Object& actual, const Object& expected) {
  std::string msg;
  for (const LeafCheck& c : compare_outputs(actual, expected, 1e-4, 1e-5))
    if (!c.pass) msg += "output" + c.path + ": max_abs " + std::to_string(c.max_abs) + " max_rel " + std::to_string(c.max_rel) + c.message + "; ";
  return msg;
}

// A corpus model: small ones are committed under examples/<stem>/, large ones built into .cache/corpus.
fs::path corpus(const std::string& stem) {
  const fs::path example = fs::path(FXWASM_SOURCE_DIR) / "examples" / stem / (stem + ".fxw");
  if (fs::exists(example)) return example;
  return fs::path(FXWASM_SOURCE_DIR) / ".cache" / "corpus" / (stem + ".fxw");
}

// Fuses a corpus model; checks counts, numbers, the round trip through .fxw and the text views.
void check_corpus_model(const std::string& stem, size_t min_fused) {
  SCOPED_TRACE(stem);
  ASSERT_TRUE(fs::exists(corpus(stem))) << "no corpus: run `npm run -s python -- tests/corpus/build_corpus.py`";
  auto gm = testing::load_fixture(fs::relative(corpus(stem), FXWASM_SOURCE_DIR).string());
  ASSERT_TRUE(gm->reference().present);
  const std::vector<Object>& inputs = gm->reference().inputs;
  const Object unfused = Interpreter(*gm).run(inputs);
  const Object planned = Plan(*gm).run(inputs);  // fused on the plan's copy: the user's graph unchanged
  EXPECT_EQ(mismatch(planned, unfused), "");
  const Counts before = count(*gm);

  FuseEpilogues pass;
  ASSERT_TRUE(run_pass(pass, *gm));
  const Counts after = count(*gm);
  EXPECT_GE(after.fused, min_fused);
  EXPECT_LT(after.calls, before.calls);
  EXPECT_FALSE(run_pass(pass, *gm)) << "a second run finds nothing left to fuse";

  for (bool plan : {false, true}) {
    const Object fused = plan ? Plan(*gm).run(inputs) : Interpreter(*gm).run(inputs);
    EXPECT_EQ(mismatch(fused, unfused), "");
    EXPECT_EQ(mismatch(fused, gm->reference().outputs), "");
  }

  const std::vector<uint8_t> bytes = write_fxw(*gm);
  auto back = read_fxw(bytes.data(), bytes.size());
  EXPECT_EQ(count(*back).nodes, after.nodes);
  EXPECT_EQ(count(*back).fused, after.fused);
  EXPECT_EQ(mismatch(Plan(*back).run(inputs), unfused), "");
  EXPECT_EQ(print_tabular(back->graph()), print_tabular(gm->graph()));
  EXPECT_NE(print_tabular(back->graph()).find("fxwasm.fused_"), std::string::npos);
  EXPECT_NE(python_code(back->graph()).find(" = fxwasm.fused_"), std::string::npos);
}

TEST(FuseTest, ResNet18FoldsBatchNormAndFusesEveryConvChain) {
  check_corpus_model("resnet18", 16);  // conv1 and each block's two convs (downsample convs have nothing after)
  auto gm = testing::load_fixture(".cache/corpus/resnet18.fxw");
  const size_t nodes = count(*gm).nodes;
  FuseEpilogues pass;
  run_pass(pass, *gm);
  EXPECT_LT(count(*gm).nodes, nodes);  // BatchNorms, adds and relus go; get_attr nodes for the weights come
  // layer1.0: conv2 + bn2 + (+= x) + relu is one node, named after the conv, its residual a keyword.
  const Node* n = gm->graph().find("layer1_0_conv2");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->target(), "fxwasm.fused_conv2d");
  ASSERT_NE(n->kwarg("residual"), nullptr);
  EXPECT_EQ(n->kwarg("activation")->as_str(), "relu");
  EXPECT_EQ(gm->modules().count("layer1.0.conv2"), 0u);  // no longer called: out of the module tree
  EXPECT_EQ(gm->modules().count("layer1.0.bn2"), 0u);
  EXPECT_EQ(gm->tensors().count("layer1.0.conv2.weight"), 1u);
}

TEST(FuseTest, MobileNetV2) { check_corpus_model("mobilenet_v2", 30); }

TEST(FuseTest, DecoderBlockFusesResidualsIntoLinearsAndGelu) {
  check_corpus_model("decoder_block", 3);  // proj + add_1, fc + gelu, fc_out + add_2
  auto gm = testing::load_fixture("examples/decoder_block/decoder_block.fxw");
  FuseEpilogues pass;
  run_pass(pass, *gm);
  const Node* fc = gm->graph().find("fc");
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ(fc->target(), "fxwasm.fused_linear");
  EXPECT_EQ(fc->kwarg("activation")->as_str(), "gelu");
  const Node* proj = gm->graph().find("proj");
  ASSERT_NE(proj, nullptr);
  ASSERT_NE(proj->kwarg("residual"), nullptr);
  EXPECT_EQ(proj->kwarg("residual")->as_node()->name(), "add");
}

TEST(FuseTest, Mlp) { check_corpus_model("mlp", 2); }

TEST(FuseTest, MlpFromMakeFxFusesAddmmOfTransposedWeights) {
  check_corpus_model("mlp_aten", 2);
  auto gm = testing::load_fixture(".cache/corpus/mlp_aten.fxw");
  FuseEpilogues pass;
  run_pass(pass, *gm);
  size_t transposes = 0;
  for (const Node* n : gm->graph().nodes()) transposes += n->target() == "aten.t.default";
  EXPECT_EQ(transposes, 1u);  // only the last layer's (nothing after its addmm to fuse)
}

// A hand-built graph: functional conv2d (weights as get_attr) + residual + hardtanh, linear + gelu(tanh)
// and a linear whose residual broadcasts (the op then adds as the graph said).
std::unique_ptr<GraphModule> functional_graph() {
  auto gm = std::make_unique<GraphModule>();
  Graph& g = gm->graph();
  auto tensor = [](Shape shape, float scale) {
    Tensor t = Tensor::empty(shape, DType::Float32);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = scale * static_cast<float>((i * 37 % 23) - 11) / 11.0f;
    return t;
  };
  gm->tensors()["w"] = NamedTensor{TensorKind::Parameter, tensor({4, 3, 3, 3}, 0.5f)};
  gm->tensors()["b"] = NamedTensor{TensorKind::Parameter, tensor({4}, 0.1f)};
  gm->tensors()["lw"] = NamedTensor{TensorKind::Parameter, tensor({5, 6}, 0.7f)};
  gm->tensors()["lb"] = NamedTensor{TensorKind::Parameter, tensor({5}, 0.2f)};
  Node* x = g.placeholder("x");
  Node* r = g.placeholder("r");
  Node* v = g.placeholder("v");
  Node* w = g.get_attr("w");
  Node* b = g.get_attr("b");
  Node* conv = g.call_function("torch.conv2d", {Value::node(x), Value::node(w), Value::node(b)},
                               {{"padding", Value::integer(1)}});
  Node* add = g.call_function("operator.add", {Value::node(r), Value::node(conv)});
  Node* ht = g.call_function("torch.nn.functional.hardtanh", {Value::node(add)},
                             {{"min_val", Value::floating(-0.5)}, {"max_val", Value::floating(0.75)}});
  Node* lw = g.get_attr("lw");
  Node* lb = g.get_attr("lb");
  Node* lin = g.call_function("torch.nn.functional.linear", {Value::node(v), Value::node(lw), Value::node(lb)});
  Node* gelu = g.call_function("torch.nn.functional.gelu", {Value::node(lin)}, {{"approximate", Value::str("tanh")}});
  Node* lin2 = g.call_function("torch.nn.functional.linear", {Value::node(v), Value::node(lw)});
  Node* row = g.call_method("sum", {Value::node(lin2), Value::integer(0)});  // [5]: broadcasts over lin3
  Node* lin3 = g.call_function("torch.nn.functional.linear", {Value::node(v), Value::node(lw), Value::node(lb)});
  Node* add2 = g.call_function("operator.add", {Value::node(lin3), Value::node(row)});
  Node* silu = g.call_function("torch.nn.functional.silu", {Value::node(add2)});
  g.output(Value::tuple({Value::node(ht), Value::node(gelu), Value::node(silu)}));
  return gm;
}

std::vector<Object> functional_inputs() {
  std::vector<float> x(2 * 3 * 5 * 5), r(2 * 4 * 5 * 5), v(7 * 6);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 13) / 6.0f - 1.0f;
  for (size_t i = 0; i < r.size(); ++i) r[i] = static_cast<float>(i % 7) / 3.0f - 1.0f;
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 11) / 5.0f - 1.0f;
  return {Object(testing::f32(x, {2, 3, 5, 5})), Object(testing::f32(r, {2, 4, 5, 5})), Object(testing::f32(v, {7, 6}))};
}

TEST(FuseTest, FunctionalChainsWithEveryEpilogue) {
  auto gm = functional_graph();
  const Object expected = Interpreter(*gm).run(functional_inputs());
  FuseEpilogues pass;
  ASSERT_TRUE(run_pass(pass, *gm));
  const Node* conv = gm->graph().find("conv2d");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->format_node(),
            "%conv2d : [num_users=1] = call_function[target=fxwasm.fused_conv2d](args = (%x, %w, %b, 1, 1, 1, 1), "
            "kwargs = {residual: %r, activation: hardtanh, min_val: -0.5, max_val: 0.75})");
  EXPECT_EQ(gm->graph().find("linear")->kwarg("approximate")->as_str(), "tanh");
  EXPECT_EQ(gm->graph().find("linear_2")->kwarg("residual")->as_node()->name(), "sum_1");
  EXPECT_EQ(count(*gm).fused, 3u);
  for (int run = 0; run < 2; ++run)  // the second run uses the packed weights the first cached
    EXPECT_EQ(mismatch(Interpreter(*gm).run(functional_inputs()), expected), "");
  const std::string code = python_code(gm->graph());
  EXPECT_NE(code.find("conv2d = fxwasm.fused_conv2d(x, w, b, 1, 1, 1, 1, residual = r, activation = 'hardtanh', "
                      "min_val = -0.5, max_val = 0.75)"),
            std::string::npos)
      << code;
}

TEST(FuseTest, FusedOpsTakeOtherDtypesAndWeightsThatChange) {
  auto gm = functional_graph();
  FuseEpilogues pass;
  run_pass(pass, *gm);
  // New weight tensors each run (as placeholders would give): packed again, never a stale packing.
  Interpreter interp(*gm);
  const Object first = interp.run(functional_inputs());
  gm->tensors()["w"].tensor = gm->tensors()["w"].tensor.clone();
  for (int64_t i = 0; i < 4 * 27; ++i) gm->tensors()["w"].tensor.data<float>()[i] *= 2.0f;
  const Object second = Interpreter(*gm).run(functional_inputs());
  EXPECT_NE(mismatch(second.items()[0], first.items()[0]), "");
  // float64 everywhere: the plain ops run.
  for (auto& [name, t] : gm->tensors()) t.tensor = t.tensor.contiguous();
  auto to64 = [](const Tensor& t) {
    Tensor d = Tensor::empty(t.shape(), DType::Float64);
    for (int64_t i = 0; i < t.numel(); ++i) d.data<double>()[i] = t.data<float>()[i];
    return d;
  };
  const Object f32 = Interpreter(*gm).run(functional_inputs());
  for (auto& [name, t] : gm->tensors()) t.tensor = to64(t.tensor);
  std::vector<Object> in64;
  for (const Object& o : functional_inputs()) in64.push_back(Object(to64(o.tensor())));
  const Object f64 = Interpreter(*gm).run(in64);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(f64.items()[i].tensor().dtype(), DType::Float64);
    const Tensor a = f64.items()[i].tensor(), b = f32.items()[i].tensor();
    for (int64_t k = 0; k < a.numel(); ++k) EXPECT_NEAR(a.data<double>()[k], b.data<float>()[k], 1e-4) << i;
  }
}

TEST(FuseTest, ThePlanRunsThePassOnItsCopyWithBatchNormAsScale) {
  auto gm = testing::load_fixture(".cache/corpus/resnet18.fxw");
  const std::string before = print_tabular(gm->graph());
  const size_t tensors_before = gm->tensors().size();
  const auto chains = find_fusion_chains(*gm, FusionOptions{true});
  // Every conv with its BatchNorm (downsample convs too); a relu after the stem, the 8 conv1s and the 8
  // conv2s, whose residual add comes along.
  EXPECT_EQ(chains.size(), 20u);
  size_t relus = 0, residuals = 0;
  for (const FusionChain& c : chains) {
    EXPECT_EQ(c.head_kind, FusionHead::Conv2dModule);
    EXPECT_NE(c.batch_norm, nullptr);
    relus += c.activation.kind == "relu";
    residuals += c.residual != nullptr;
  }
  EXPECT_EQ(relus, 17u);
  EXPECT_EQ(residuals, 8u);
  EXPECT_TRUE(find_fusion_chains(*gm).empty());  // without BatchNorm: a conv's only user is its BatchNorm

  const Plan plan(*gm);
  EXPECT_EQ(print_tabular(gm->graph()), before);  // the user's graph is left as it is
  EXPECT_EQ(gm->tensors().size(), tensors_before);
  const GraphModule& lowered = plan.lowered();
  EXPECT_EQ(count(lowered).fused, 20u);
  const Node* conv1 = lowered.graph().find("conv1");
  ASSERT_NE(conv1, nullptr);
  ASSERT_NE(conv1->kwarg("scale"), nullptr);
  // The conv reads the file's weight tensor itself (no folded copy): same storage.
  const Node* w = conv1->args()[1].as_node();
  EXPECT_EQ(lowered.find_tensor(w->target())->raw_data(), gm->find_tensor("conv1.weight")->raw_data());
  const Value* absorbed = conv1->meta_value("fused_nodes");
  ASSERT_NE(absorbed, nullptr);
  ASSERT_EQ(absorbed->items().size(), 2u);
  EXPECT_EQ(absorbed->items()[0].as_str(), "bn1");
  EXPECT_EQ(absorbed->items()[1].as_str(), "relu");

  // A profile reports the user's nodes: the absorbed ones fused into their producer.
  Profile profile;
  plan.run(gm->reference().inputs, &profile);
  size_t rows = 0, fused_rows = 0;
  for (const NodeProfile& p : profile.nodes) {
    ++rows;
    if (p.name == "conv1") EXPECT_EQ(p.target, "conv1");  // call_module conv1, as the user's graph has it
    if (p.name == "bn1") EXPECT_EQ(p.fused_into, "conv1");
    fused_rows += !p.fused_into.empty();
  }
  EXPECT_EQ(fused_rows, 20u + 17u + 8u);
  size_t user_rows = 0;
  for (const Node* n : gm->graph().nodes()) user_rows += n->op() != Op::GetAttr;
  EXPECT_GE(rows, user_rows);

  auto dec = testing::load_fixture("examples/decoder_block/decoder_block.fxw");
  EXPECT_EQ(find_fusion_chains(*dec).size(), 3u);
  EXPECT_EQ(count(Plan(*dec).lowered()).fused, 3u);  // gelu and the Linear residuals too
}

}  // namespace
}  // namespace fx
