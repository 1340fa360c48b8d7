// Editing a Model through the JSON commands the bindings forward: build from scratch, edit, run, save.
#include "api/graph_edit.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace fx {
namespace {

using json = nlohmann::json;

std::string create(Model& m, json cmd) {
  cmd["cmd"] = "create_node";
  return edit_graph(m, cmd)["node"].get<std::string>();
}

Tensor f32(std::vector<float> v) {
  return Tensor::from_bytes({static_cast<int64_t>(v.size())}, DType::Float32, v.data(), v.size() * 4);
}

TEST(GraphEditTest, BuildsTheSeedExampleFromScratch) {
  auto m = Model::empty();
  create(*m, {{"op", "placeholder"}, {"target", "L_a_"}});
  create(*m, {{"op", "placeholder"}, {"target", "L_b_"}});
  create(*m, {{"op", "call_function"}, {"target", "torch.abs"}, {"args", {{{"$node", "l_a_"}}}}});
  create(*m, {{"op", "call_function"}, {"target", "operator.add"}, {"args", {{{"$node", "abs_1"}}, 1}}});
  create(*m, {{"op", "call_function"}, {"target", "operator.truediv"}, {"name", "x"},
              {"args", {{{"$node", "l_a_"}}, {{"$node", "add"}}}}});
  create(*m, {{"op", "call_method"}, {"target", "sum"}, {"args", {{{"$node", "l_b_"}}}}});
  create(*m, {{"op", "call_function"}, {"target", "operator.lt"}, {"args", {{{"$node", "sum_1"}}, 0}}});
  create(*m, {{"op", "output"}, {"args", {{{"$tuple", {{{"$node", "lt"}}, {{"$node", "x"}}}}}}}});
  EXPECT_EQ(m->print_tabular(),
            "opcode         name    target            args         kwargs\n"
            "-------------  ------  ----------------  -----------  --------\n"
            "placeholder    l_a_    L_a_              ()           {}\n"
            "placeholder    l_b_    L_b_              ()           {}\n"
            "call_function  abs_1   torch.abs         (l_a_,)      {}\n"
            "call_function  add     operator.add      (abs_1, 1)   {}\n"
            "call_function  x       operator.truediv  (l_a_, add)  {}\n"
            "call_method    sum_1   sum               (l_b_,)      {}\n"
            "call_function  lt      operator.lt       (sum_1, 0)   {}\n"
            "output         output  output            ((lt, x),)   {}\n");
  // A saved new module loads back with the same table.
  const auto bytes = m->save();
  EXPECT_EQ(Model::load(bytes.data(), bytes.size())->print_tabular(), m->print_tabular());
}

TEST(GraphEditTest, EditsReachTheRuntime) {
  auto m = Model::empty();
  create(*m, {{"op", "placeholder"}, {"target", "x"}});
  create(*m, {{"op", "call_function"}, {"target", "torch.abs"}, {"args", {{{"$node", "x"}}}}});
  create(*m, {{"op", "output"}, {"args", {{{"$node", "abs_1"}}}}});
  EXPECT_EQ(m->run({Object(f32({-2, 3}))}).tensor().data<float>()[0], 2.0f);
  // neg after abs, and the output uses it: the next run runs the edited graph.
  create(*m, {{"op", "call_function"}, {"target", "torch.neg"}, {"args", {{{"$node", "abs_1"}}}},
              {"after", "abs_1"}});
  const json changed = edit_graph(*m, {{"cmd", "replace_all_uses_with"}, {"node", "abs_1"},
                                       {"replacement", "neg"}, {"only", {"output"}}});
  EXPECT_EQ(changed["changed"], json({"output"}));
  EXPECT_EQ(m->run({Object(f32({-2, 3}))}).tensor().data<float>()[0], -2.0f);
  EXPECT_NE(m->code().find("neg = torch.neg(abs_1)"), std::string::npos) << m->code();
  // abs_1 still has a user: erasing it is refused and names it.
  try {
    edit_graph(*m, {{"cmd", "erase"}, {"node", "abs_1"}});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "abs_1");
  }
  // A float that JSON would spell as an integer.
  create(*m, {{"op", "call_function"}, {"target", "operator.mul"}, {"before", "output"},
              {"args", {{{"$node", "neg"}}, {{"$float", 2}}}}});
  EXPECT_NE(m->code().find("mul = neg * 2.0"), std::string::npos) << m->code();
  EXPECT_TRUE(edit_graph(*m, {{"cmd", "eliminate_dead_code"}})["changed"].get<bool>());
  EXPECT_THROW(edit_graph(*m, {{"cmd", "create_node"}, {"op", "get_attr"}, {"target", "nope"}}), FxError);
  add_tensor(*m, "w", f32({1, 1}), "parameter");
  create(*m, {{"op", "get_attr"}, {"target", "w"}, {"before", "output"}});
  EXPECT_THROW(edit_graph(*m, {{"cmd", "frobnicate"}}), FxError);
}

TEST(GraphEditTest, LintFailuresNameTheNode) {
  auto m = Model::empty();
  create(*m, {{"op", "placeholder"}, {"target", "x"}});
  create(*m, {{"op", "call_function"}, {"target", "torch.abs"}, {"args", {{{"$node", "x"}}}}});
  edit_graph(*m, {{"cmd", "move"}, {"node", "abs_1"}, {"anchor", "x"}, {"where", "before"}});
  try {
    edit_graph(*m, {{"cmd", "lint"}});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "abs_1");
  }
}

}  // namespace
}  // namespace fx
