// The program's `pytree` field (docs/format.md §2): read into GraphModule::pytree(), validated against
// the graph, written back with its leaves taken from the graph as it is then.
#include "serialize/pytree_json.h"

#include <gtest/gtest.h>

#include "fxw_files.h"
#include "serialize/writer.h"

namespace fx {
namespace {

using namespace testing_fxw;

Json tag(const char* name, Json body) { return Json{{name, std::move(body)}}; }

// forward(self, x, pair, *, scale): x, pair_0, pair_1, scale → {"out": add, "aux": (pair_1, [3])}.
Json pytree_program() {
  Json p = small_program();
  p["nodes"] = Json::array({node("placeholder", "x", "x"), node("placeholder", "pair_0", "pair_0"),
                            node("placeholder", "pair_1", "pair_1"), node("placeholder", "scale", "scale"),
                            node("call_function", "add", "operator.add", {ref("x"), ref("pair_0")}),
                            node("output", "output", "output",
                                 {tag("$tuple", {ref("add"), ref("pair_1"), 3})})});
  Json inputs = tag("$tuple", {tag("$tuple", {ref("x"), tag("$tuple", {ref("pair_0"), ref("pair_1")})}),
                               tag("$dict", {{"scale", ref("scale")}})});
  Json outputs = tag("$dict", {{"out", ref("add")}, {"aux", tag("$tuple", {ref("pair_1"), Json::array({3})})}});
  p["pytree"] = {{"orig_args", {"x", "pair", "scale"}}, {"inputs", inputs}, {"outputs", outputs}};
  return p;
}

TEST(PyTree, ReadsAndWritesBack) {
  const Json p = pytree_program();
  auto bytes = file_for(p);
  auto gm = read_fxw(bytes.data(), bytes.size());
  const PyTreeCodegen& tree = gm->pytree();
  ASSERT_TRUE(tree.present);
  EXPECT_EQ(tree.orig_args, (std::vector<std::string>{"x", "pair", "scale"}));
  ASSERT_TRUE(tree.has_inputs && tree.has_outputs);
  // Skeletons: no node pointers are kept.
  EXPECT_EQ(tree.inputs.kind(), ValueKind::Tuple);
  EXPECT_EQ(tree.inputs.items()[1].dict_items()[0].second.kind(), ValueKind::None);
  EXPECT_EQ(program_to_json(*gm, nullptr).at("pytree"), p.at("pytree"));

  auto again = write_fxw(*gm);
  auto gm2 = read_fxw(again.data(), again.size());
  EXPECT_EQ(program_to_json(*gm2, nullptr).at("pytree"), p.at("pytree"));
}

TEST(PyTree, AbsentOrPartial) {
  auto bytes = file_for(small_program());
  auto gm = read_fxw(bytes.data(), bytes.size());
  EXPECT_FALSE(gm->pytree().present);
  EXPECT_FALSE(program_to_json(*gm, nullptr).contains("pytree"));

  Json p = small_program();
  p["pytree"] = {{"orig_args", {"x"}}, {"outputs", ref("relu")}};
  bytes = file_for(p);
  gm = read_fxw(bytes.data(), bytes.size());
  EXPECT_TRUE(gm->pytree().present);
  EXPECT_FALSE(gm->pytree().has_inputs);
  EXPECT_EQ(program_to_json(*gm, nullptr).at("pytree"), p.at("pytree"));
}

TEST(PyTree, FollowsGraphEditsAndDropsWhatNoLongerFits) {
  auto bytes = file_for(pytree_program());
  auto gm = read_fxw(bytes.data(), bytes.size());
  Graph& g = gm->graph();
  Node* output = g.output_node();
  Node* add = output->args()[0].items()[0].as_node();
  // Replace the add by a new node: the written structure names the new node.
  Node* sub = nullptr;
  {
    auto guard = g.inserting_before(output);
    sub = g.create_node(Op::CallFunction, "operator.sub", {add->args()[0], add->args()[1]}, {}, "sub");
  }
  add->replace_all_uses_with(sub);
  g.erase_node(add);
  Json written = program_to_json(*gm, nullptr).at("pytree");
  EXPECT_EQ(written.at("outputs").at("$dict").at("out"), ref("sub"));

  // One flat output fewer: the structure no longer describes the graph and is not written.
  output->set_args({Value::tuple({Value::node(sub), output->args()[0].items()[1]})});
  EXPECT_FALSE(program_to_json(*gm, nullptr).contains("pytree"));
}

TEST(PyTree, RejectsStructuresThatDoNotFitTheGraph) {
  Json p = pytree_program();
  p["pytree"] = "no";
  EXPECT_NE(read_error(file_for(p)).find("program.pytree must be an object"), std::string::npos);

  p = pytree_program();
  p["pytree"]["orig_args"] = Json::array({1});
  EXPECT_NE(read_error(file_for(p)).find("orig_args must be an array of strings"), std::string::npos);

  p = pytree_program();  // placeholders out of order
  p["pytree"]["inputs"] = tag("$tuple", {ref("pair_0"), ref("x"), ref("pair_1"), ref("scale")});
  EXPECT_NE(read_error(file_for(p)).find("program.pytree.inputs"), std::string::npos);

  p = pytree_program();  // a placeholder missing
  p["pytree"]["inputs"] = Json::array({ref("x"), ref("pair_0"), ref("pair_1")});
  EXPECT_NE(read_error(file_for(p)).find("program.pytree.inputs"), std::string::npos);

  p = pytree_program();  // one output leaf too many
  p["pytree"]["outputs"] = Json::array({ref("add"), ref("pair_1"), 3, 4});
  EXPECT_NE(read_error(file_for(p)).find("program.pytree.outputs"), std::string::npos);

  p = pytree_program();  // an unknown node
  p["pytree"]["outputs"] = Json::array({ref("nope"), ref("pair_1"), 3});
  EXPECT_NE(read_error(file_for(p)).find("nope"), std::string::npos);
}

}  // namespace
}  // namespace fx
