// The two text views against torch 2.15: every graph in tests/golden/textviews/*.json (written by
// tests/golden/gen_textviews.py from real torch.fx graphs) is rebuilt through the Graph API, and
// print_tabular / python_code must reproduce torch's text byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "ir/python_code.h"
#include "ir/tabular.h"

namespace fx {
namespace {

using json = nlohmann::json;

const std::filesystem::path kGoldenDir = std::filesystem::path(FXWASM_SOURCE_DIR) / "tests" / "golden";

json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  return json::parse(in);
}

// The tagged argument JSON of gen_textviews.py.
Value decode(const json& j, const std::unordered_map<std::string, Node*>& nodes) {
  if (j.is_null()) return Value::none();
  if (j.is_boolean()) return Value::boolean(j.get<bool>());
  if (j.is_number_integer()) return Value::integer(j.get<int64_t>());
  if (j.is_string()) return Value::str(j.get<std::string>());
  if (j.is_array()) {
    ValueList items;
    for (const json& item : j) items.push_back(decode(item, nodes));
    return Value::list(std::move(items));
  }
  if (!j.is_object() || j.size() != 1) throw std::runtime_error("bad value " + j.dump());
  const std::string& tag = j.begin().key();
  const json& v = j.begin().value();
  auto items = [&] {
    ValueList out;
    for (const json& item : v) out.push_back(decode(item, nodes));
    return out;
  };
  if (tag == "float") return Value::floating(std::strtod(v.get<std::string>().c_str(), nullptr));
  if (tag == "tuple") return Value::tuple(items());
  if (tag == "slice") {
    ValueList s = items();
    return Value::slice(s.at(0), s.at(1), s.at(2));
  }
  if (tag == "dict") {
    Kwargs d;
    for (const json& kv : v) d.emplace_back(kv.at(0).get<std::string>(), decode(kv.at(1), nodes));
    return Value::dict(std::move(d));
  }
  if (tag == "ellipsis") return Value::ellipsis();
  if (tag == "dtype") return Value::dtype(v.get<std::string>());
  if (tag == "device") return Value::device(v.get<std::string>());
  if (tag == "memory_format") return Value::memory_format(v.get<std::string>());
  if (tag == "layout") return Value::layout(v.get<std::string>());
  if (tag == "node") return Value::node(nodes.at(v.get<std::string>()));
  throw std::runtime_error("unknown value tag " + tag);
}

void build_graph(const json& doc, Graph& graph, std::unordered_map<std::string, Node*>& nodes) {
  for (const json& jn : doc.at("nodes")) {
    ValueList args;
    for (const json& a : jn.at("args")) args.push_back(decode(a, nodes));
    Kwargs kwargs;
    for (const json& kv : jn.at("kwargs")) kwargs.emplace_back(kv.at(0).get<std::string>(), decode(kv.at(1), nodes));
    const std::string name = jn.at("name").get<std::string>();
    Node* n = graph.create_node(parse_op(jn.at("op").get<std::string>()), jn.at("target").get<std::string>(),
                                std::move(args), std::move(kwargs), name, jn.value("type", std::string()));
    ASSERT_EQ(n->name(), name) << "the Graph API named a node differently from torch";
    if (jn.contains("meta") && jn["meta"].value("is_wrapped", false)) n->set_meta("is_wrapped", Value::boolean(true));
    nodes[name] = n;
  }
}

std::vector<std::string> golden_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kGoldenDir / "textviews")) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class TextViewsGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(TextViewsGolden, MatchesTorch) {
  json doc = read_json(kGoldenDir / "textviews" / (GetParam() + ".json"));
  Graph graph;
  std::unordered_map<std::string, Node*> nodes;
  build_graph(doc, graph, nodes);
  if (HasFatalFailure()) return;
  graph.lint();
  EXPECT_EQ(print_tabular(graph), doc.at("tabular").get<std::string>());
  if (!doc.contains("pytree")) {
    EXPECT_EQ(python_code(graph), doc.at("code").get<std::string>());
    return;
  }
  // torch's _PyTreeCodeGen (torch.export, symbolic_trace with concrete_args): the structure as stored.
  const json& tree = doc.at("pytree");
  Value inputs, outputs;
  if (tree.contains("inputs")) inputs = decode(tree.at("inputs"), nodes);
  if (tree.contains("outputs")) outputs = decode(tree.at("outputs"), nodes);
  const PyTreeCode code = pytree_code(tree.at("orig_args").get<std::vector<std::string>>(),
                                      tree.contains("inputs") ? &inputs : nullptr,
                                      tree.contains("outputs") ? &outputs : nullptr);
  EXPECT_EQ(python_code(graph, code), doc.at("code").get<std::string>());
}

INSTANTIATE_TEST_SUITE_P(Torch215, TextViewsGolden, ::testing::ValuesIn(golden_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(TabulateSimple, MatchesTabulateNumberParsing) {
  json cases = read_json(kGoldenDir / "tabulate_cases.json");
  ASSERT_FALSE(cases.empty());
  for (const json& c : cases) {
    std::vector<std::vector<std::string>> rows = c.at("rows").get<std::vector<std::vector<std::string>>>();
    std::vector<std::string> headers = c.at("headers").get<std::vector<std::string>>();
    EXPECT_EQ(tabulate_simple(rows, headers, c.at("parsed").get<size_t>()), c.at("expected").get<std::string>())
        << c.at("rows").dump();
  }
}

TEST(PythonCode, QualifiedNames) {
  bool torch_ = false, builtin = false;
  EXPECT_EQ(codegen_qualified_name("aten.relu.default", &torch_, &builtin), "torch.ops.aten.relu.default");
  EXPECT_TRUE(torch_);
  EXPECT_EQ(codegen_qualified_name("operator.not_", &torch_, &builtin), "_operator.not_");
  EXPECT_FALSE(torch_);
  EXPECT_EQ(codegen_qualified_name("len", &torch_, &builtin), "len");
  EXPECT_TRUE(builtin);
  codegen_qualified_name("torch.Tensor.add", &torch_, &builtin);
  EXPECT_FALSE(torch_);
  codegen_qualified_name("torch.Tensor.split", &torch_, &builtin);
  EXPECT_TRUE(torch_);
  codegen_qualified_name("torch._dynamo.utils.foo", &torch_, &builtin);
  EXPECT_FALSE(torch_);
  codegen_qualified_name("torch._dynamo.foo", &torch_, &builtin);
  EXPECT_TRUE(torch_);
}

// Editing a graph changes both views the way torch's would: a rename through the namespace, a freed value.
TEST(PythonCode, FollowsGraphEdits) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.call_function("torch.abs", {Value::node(x)});
  Node* b = g.call_function("operator.add", {Value::node(a), Value::integer(1)});
  g.output(Value::node(b));
  EXPECT_EQ(python_code(g),
            "\n\n\ndef forward(self, x):\n    abs_1 = torch.abs(x);  x = None\n"
            "    add = abs_1 + 1;  abs_1 = None\n    return add\n    ");
  Node* c;
  {
    auto guard = g.inserting_after(b);
    c = g.call_function("operator.neg", {Value::node(b)});
  }
  g.output_node()->set_args({Value::node(c)});
  EXPECT_EQ(python_code(g),
            "\n\n\ndef forward(self, x):\n    abs_1 = torch.abs(x);  x = None\n"
            "    add = abs_1 + 1;  abs_1 = None\n    neg = -add;  add = None\n    return neg\n    ");
}

// torch.Size arguments show as the tuples FX turns them into, in both views.
TEST(TextViews, SizeArgumentsAreTuples) {
  Graph g;
  Node* x = g.placeholder("x");
  Value size = Value::size({Value::integer(2), Value::integer(3)});
  Node* r = g.call_function("torch.reshape", {Value::node(x), size},
                            {{"opts", Value::dict({{"s", Value::size({Value::integer(1)})}})}});
  g.output(Value::node(r));
  EXPECT_NE(print_tabular(g).find("(x, (2, 3))  {'opts': {'s': (1,)}}"), std::string::npos) << print_tabular(g);
  EXPECT_NE(python_code(g).find("torch.reshape(x, (2, 3), opts = {'s': (1,)})"), std::string::npos);
}

}  // namespace
}  // namespace fx
