// Names as the reference torch makes them (tests/golden/ir/naming.json, from gen_naming.py).
#include <gtest/gtest.h>

#include "golden_values.h"
#include "ir/graph.h"
#include "ir/naming.h"

namespace fx {
namespace {

TEST(Naming, NamespaceSequencesMatchTorch) {
  const auto golden = testing::load_golden("naming.json");
  size_t checked = 0;
  for (const auto& seq : golden.at("namespace_sequences")) {
    Namespace ns;
    const auto& candidates = seq.at("candidates");
    const auto& names = seq.at("names");
    ASSERT_EQ(candidates.size(), names.size());
    for (size_t i = 0; i < candidates.size(); ++i) {
      const std::string candidate = candidates[i];
      EXPECT_EQ(ns.create_name(candidate), names[i].get<std::string>())
          << "candidate #" << i << " '" << candidate << "'";
      ++checked;
    }
  }
  EXPECT_GT(checked, 80u);
}

TEST(Naming, CandidateForTargetMatchesTorch) {
  const auto golden = testing::load_golden("naming.json");
  for (const auto& c : golden.at("targets")) {
    EXPECT_EQ(candidate_name_for_target(c.at("op"), c.at("target")), c.at("candidate").get<std::string>())
        << c.at("op").get<std::string>() << " " << c.at("target").get<std::string>();
  }
}

TEST(Naming, GraphNodeNamesMatchTorch) {
  const auto golden = testing::load_golden("naming.json");
  Graph g;
  for (const auto& c : golden.at("graph_sequence")) {
    std::optional<std::string> name;
    if (!c.at("name").is_null()) name = c.at("name").get<std::string>();
    Node* n = g.create_node(parse_op(c.at("op")), c.at("target"), {}, {}, name);
    EXPECT_EQ(n->name(), c.at("result").get<std::string>()) << c.dump();
    EXPECT_EQ(n->target(), c.at("stored_target").get<std::string>());
    EXPECT_EQ(g.find(n->name()), n);
  }
}

TEST(Naming, GraphHelpersNameLikeTorch) {
  Graph g;
  EXPECT_EQ(g.placeholder("myInput")->name(), "my_input");
  EXPECT_EQ(g.placeholder("myInput")->target(), "myInput");
  EXPECT_EQ(g.placeholder("input")->name(), "input_1");
  EXPECT_EQ(g.get_attr("layer1.0.conv1.weight")->name(), "layer1_0_conv1_weight");
  EXPECT_EQ(g.call_module("layer1.0.conv1")->name(), "layer1_0_conv1");
  EXPECT_EQ(g.call_function("torch.abs")->name(), "abs_1");
  EXPECT_EQ(g.call_function("torch.abs")->name(), "abs_2");
  EXPECT_EQ(g.call_function("operator.add")->name(), "add");
  EXPECT_EQ(g.call_function("operator.add")->name(), "add_1");
  EXPECT_EQ(g.call_method("__getitem__")->name(), "getitem");
  EXPECT_EQ(g.call_function("aten.convolution.default")->name(), "convolution_default");
  EXPECT_EQ(g.output(Value())->name(), "output");
}

TEST(Naming, ErasedNamesStayTaken) {
  // torch never gives a name back: after erasing add, the next add is add_1.
  Graph g;
  Node* a = g.call_function("operator.add");
  g.erase_node(a);
  EXPECT_EQ(g.find("add"), nullptr);
  EXPECT_EQ(g.call_function("operator.add")->name(), "add_1");
}

TEST(Naming, ReleaseFreesAName) {
  Namespace ns;
  EXPECT_EQ(ns.create_name("x"), "x");
  EXPECT_TRUE(ns.is_used("x"));
  ns.release("x");
  EXPECT_FALSE(ns.is_used("x"));
  EXPECT_EQ(ns.create_name("x_3"), "x_3");
}

TEST(Naming, OpOverloadTargets) {
  EXPECT_TRUE(is_op_overload_target("aten.add.Tensor"));
  EXPECT_TRUE(is_op_overload_target("torch.ops.aten.add.Tensor"));
  EXPECT_TRUE(is_op_overload_target("prims.convert_element_type.default"));
  EXPECT_FALSE(is_op_overload_target("torch.add"));
  EXPECT_FALSE(is_op_overload_target("operator.add"));
  EXPECT_EQ(candidate_name_for_target("call_function", "torch.ops.aten.relu.default"), "relu.default");
}

}  // namespace
}  // namespace fx
