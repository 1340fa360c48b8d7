// Values nested past the format's limit of 64 levels — run inputs from JavaScript, graph edits, values a
// run builds — are an FxError saying the limit and where, found before any walk recurses that deep; the
// model (and a model loaded before) keeps working afterwards. Integers outside int64 are errors too.
#include <gtest/gtest.h>

#include <string>

#include "../serialize/fxw_files.h"
#include "api/graph_edit.h"
#include "api/model.h"
#include "api/wire.h"

namespace fx {
namespace {

using namespace testing_fxw;

// `depth` JSON arrays around one integer: [[[...[1]...]]].
std::string nested_arrays(size_t depth) { return std::string(depth, '[') + "1" + std::string(depth, ']'); }

std::string wire_error(const std::string& text, const std::vector<std::string>& names = {}) {
  try {
    inputs_from_wire(text, nullptr, names);
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

Tensor f32(std::vector<float> v) {
  return Tensor::from_bytes({static_cast<int64_t>(v.size())}, DType::Float32, v.data(), v.size() * 4);
}

TEST(DeepValues, RunInputsNestedPastTheLimitAreFxErrors) {
  for (size_t depth : {65u, 1200u, 100000u}) {
    const std::string err = wire_error("[" + nested_arrays(depth) + "]", {"x"});
    EXPECT_NE(err.find("input 'x': value nests deeper than 64 levels"), std::string::npos) << depth << ": " << err;
  }
  // Dicts and tuples count one level each, as lists do.
  std::string dicts = "1";
  for (int i = 0; i < 2000; ++i) dicts = "{\"$dict\":{\"k\":" + dicts + "}}";
  EXPECT_NE(wire_error("[" + dicts + "]").find("input #0: value nests deeper than 64"), std::string::npos);
  std::string tuples = "1";
  for (int i = 0; i < 2000; ++i) tuples = "{\"$tuple\":[" + tuples + "]}";
  EXPECT_NE(wire_error("[" + tuples + "]").find("nests deeper than 64"), std::string::npos);
  // A plain object is no value (not a tag): refused at once, however deep.
  std::string objects = "1";
  for (int i = 0; i < 2000; ++i) objects = "{\"a\":" + objects + "}";
  EXPECT_NE(wire_error("[" + objects + "]").find("unknown tag 'a'"), std::string::npos);
  // 64 levels is allowed, tuples and dicts included.
  const std::vector<Object> ok = inputs_from_wire("[" + nested_arrays(64) + "]", nullptr);
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].depth(), 64u);
  std::string mixed = "1";
  for (int i = 0; i < 64; ++i) mixed = i % 2 ? "{\"$tuple\":[" + mixed + "]}" : "{\"$dict\":{\"k\":" + mixed + "}}";
  EXPECT_EQ(inputs_from_wire("[" + mixed + "]", nullptr)[0].depth(), 64u);
}

TEST(DeepValues, ModelSurvivesADeepRunInput) {
  const auto file = file_for(small_program());
  auto before = Model::load(file.data(), file.size());
  auto m = Model::load(file.data(), file.size());
  for (size_t depth : {1200u, 100000u}) {
    try {
      m->run(inputs_from_wire("[" + nested_arrays(depth) + "]", nullptr, m->input_names()));
      ADD_FAILURE() << "no error at depth " << depth;
    } catch (const FxError& e) {
      EXPECT_EQ(e.node(), "x");
      EXPECT_NE(std::string(e.what()).find("nests deeper than 64 levels"), std::string::npos) << e.what();
    }
  }
  const Object out = m->run({Object(f32({-1, 2}))});
  EXPECT_EQ(out.tensor().data<float>()[0], 0.0f);
  EXPECT_EQ(before->run({Object(f32({3, -4}))}).tensor().data<float>()[0], 3.0f);
  EXPECT_NO_THROW(Model::load(file.data(), file.size()));
}

TEST(DeepValues, IntegersOutsideInt64AreErrorsNamingTheInput) {
  EXPECT_NE(wire_error("[18446744073709551616]", {"n"}).find("input 'n': integer 18446744073709551616 does not fit"),
            std::string::npos);
  EXPECT_NE(wire_error("[-9223372036854775809]").find("integer -9223372036854775809 does not fit"), std::string::npos);
  EXPECT_NE(wire_error("[9223372036854775808]").find("integer 9223372036854775808 does not fit"), std::string::npos);
  EXPECT_NE(wire_error("[[1, 100000000000000000000000]]").find("does not fit"), std::string::npos);
  const auto ok = inputs_from_wire("[9223372036854775807, -9223372036854775808, 1.8446744073709552e19]", nullptr);
  EXPECT_EQ(ok[0].value().as_int(), INT64_MAX);
  EXPECT_EQ(ok[1].value().as_int(), INT64_MIN);
  EXPECT_EQ(ok[2].value().kind(), ValueKind::Float);  // a float literal stays a float
}

TEST(DeepValues, ContainersPastTheLimitCannotBeMade) {
  Object o(Value::integer(1));
  for (size_t i = 0; i < kMaxObjectDepth; ++i) o = Object::list({o});
  EXPECT_EQ(o.depth(), kMaxObjectDepth);
  EXPECT_THROW(Object::tuple({o}), FxError);
  EXPECT_THROW(Object::dict({{"k", o}}), FxError);
}

// A run may build values deeper than any it was given: getitem((list_of_prev,), 0) wraps the previous
// node's value in one more list per node. The run stops with an FxError naming the node at the limit.
TEST(DeepValues, ValuesARunBuildsAreBoundedToo) {
  Json p = small_program();
  Json nodes = Json::array({node("placeholder", "x", "x")});
  std::string prev = "x";
  for (int i = 0; i < 300; ++i) {
    const std::string name = "getitem_" + std::to_string(i);
    Json list = Json::array();
    list.push_back(testing_fxw::ref(prev));  // not std::ref, which ADL finds for a std::string
    Json tuple = Json::object();
    tuple["$tuple"] = Json::array();
    tuple["$tuple"].push_back(std::move(list));
    Json args = Json::array();
    args.push_back(std::move(tuple));
    args.push_back(0);
    nodes.push_back(node("call_function", name, "operator.getitem", std::move(args)));
    prev = name;
  }
  Json out = Json::array();
  out.push_back(testing_fxw::ref(prev));
  nodes.push_back(node("output", "output", "output", std::move(out)));
  p["nodes"] = nodes;
  const auto bytes = file_for(p);
  auto m = Model::load(bytes.data(), bytes.size());
  try {
    const Object out = m->run({Object(f32({1}))});
    ADD_FAILURE() << "no error; output " << out.describe() << " depth " << out.depth();
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("nests deeper than 64 levels"), std::string::npos) << e.what();
    EXPECT_EQ(e.node(), "getitem_63") << e.what();
  }
}

TEST(DeepValues, GraphEditValuesNestedPastTheLimitAreFxErrors) {
  auto m = Model::empty();
  edit_graph(*m, {{"cmd", "create_node"}, {"op", "placeholder"}, {"target", "x"}});
  for (size_t depth : {100u, 100000u}) {
    // Built and handed over by moves only: copying a Json recurses.
    Json deep = 1;
    for (size_t i = 0; i < depth; ++i) {
      Json outer = Json::array();
      outer.push_back(std::move(deep));
      deep = std::move(outer);
    }
    Json cmd = {{"cmd", "create_node"}, {"op", "call_function"}, {"target", "torch.relu"}};
    cmd["args"] = Json::array();
    cmd["args"].push_back(std::move(deep));
    try {
      edit_graph(*m, cmd);
      ADD_FAILURE() << "no error at depth " << depth;
    } catch (const FxError& e) {
      EXPECT_NE(std::string(e.what()).find("nests deeper than the format's limit of 64"), std::string::npos)
          << e.what();
    }
  }
  const std::string text = "{\"cmd\":\"create_node\",\"op\":\"call_function\",\"target\":\"operator.add\","
                           "\"args\":[{\"$node\":\"x\"},18446744073709551616]}";
  try {
    edit_graph(*m, parse_wire_json(text));
    ADD_FAILURE() << "no error";
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("integer 18446744073709551616 does not fit in 64-bit signed"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace fx
