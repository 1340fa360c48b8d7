#include "serialize/value_json.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "ir/graph.h"
#include "support/error.h"

namespace fx {
namespace {

Value round_trip(const Value& v, const NodeResolver& nodes = {}) {
  const std::string text = value_to_json(v).dump();
  return value_from_json(Json::parse(text), nodes, ValueContext{"n", "args"});
}

std::string decode_error(const std::string& text, const NodeResolver& nodes = {}) {
  try {
    value_from_json(Json::parse(text), nodes, ValueContext{"add", "args"});
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

TEST(ValueJson, ScalarsKeepTheirKinds) {
  EXPECT_EQ(value_to_json(Value::floating(1.0)).dump(), "1.0");
  EXPECT_EQ(value_to_json(Value::integer(1)).dump(), "1");
  EXPECT_EQ(round_trip(Value::floating(1.0)).kind(), ValueKind::Float);
  EXPECT_EQ(round_trip(Value::integer(1)).kind(), ValueKind::Int);
  EXPECT_EQ(round_trip(Value::floating(1e-5)).as_float(), 1e-5);
  EXPECT_EQ(round_trip(Value::floating(-0.25)).as_float(), -0.25);
  EXPECT_EQ(round_trip(Value::integer(std::numeric_limits<int64_t>::min())).as_int(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(round_trip(Value::integer(std::numeric_limits<int64_t>::max())).as_int(),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(round_trip(Value::boolean(true)), Value::boolean(true));
  EXPECT_TRUE(round_trip(Value::none()).is_none());
  EXPECT_EQ(round_trip(Value::str("héllo \"q\"\n")).as_str(), "héllo \"q\"\n");
}

TEST(ValueJson, NonFiniteFloatsAreTagged) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(value_to_json(Value::floating(inf)).dump(), R"({"$float":"inf"})");
  EXPECT_EQ(value_to_json(Value::floating(-inf)).dump(), R"({"$float":"-inf"})");
  EXPECT_EQ(value_to_json(Value::floating(std::nan(""))).dump(), R"({"$float":"nan"})");
  EXPECT_EQ(round_trip(Value::floating(-inf)).as_float(), -inf);
  EXPECT_TRUE(std::isnan(round_trip(Value::floating(std::nan(""))).as_float()));
}

TEST(ValueJson, EveryKindRoundTrips) {
  Graph g;
  Node* x = g.placeholder("x");
  NodeResolver nodes = [&](const std::string& name) { return g.find(name); };
  const Value all = Value::tuple({
      Value::list({Value::integer(1), Value::floating(2.5), Value::none()}),
      Value::dict({{"b", Value::integer(1)}, {"a", Value::str("s")}}),
      Value::slice(Value::none(), Value::integer(-1), Value::integer(2)),
      Value::ellipsis(),
      Value::dtype("float32"),
      Value::dtype("complex64"),
      Value::device("cuda:0"),
      Value::memory_format("channels_last"),
      Value::layout("strided"),
      Value::size({Value::integer(2), Value::node(x)}),
      Value::node(x),
      Value::tuple({}),
  });
  const Value back = round_trip(all, nodes);
  EXPECT_EQ(back, all);
  EXPECT_EQ(value_to_json(back).dump(), value_to_json(all).dump());
  // dict order is kept
  EXPECT_EQ(value_to_json(Value::dict({{"b", Value::integer(1)}, {"a", Value::integer(2)}})).dump(),
            R"({"$dict":{"b":1,"a":2}})");
  EXPECT_EQ(value_to_json(Value::node(x)).dump(), R"({"$node":"x"})");
}

// {"$float": number}: a float whose value is integral, which JavaScript writes without a '.'.
TEST(ValueJson, FloatTagWithANumberIsAFloat) {
  const Value v = value_from_json(Json::parse(R"({"$float": 2})"), {}, ValueContext{"n", "args"});
  EXPECT_EQ(v.kind(), ValueKind::Float);
  EXPECT_EQ(v.as_float(), 2.0);
  EXPECT_EQ(value_to_json(v).dump(), "2.0");  // written back the file's way
}

TEST(ValueJson, RejectsMalformedTags) {
  EXPECT_EQ(decode_error(R"({"$node": "foo"})", [](const std::string&) -> Node* { return nullptr; }),
            "node 'add': args refer to unknown node 'foo'");
  EXPECT_NE(decode_error(R"({"$node": "x"})").find("not allowed"), std::string::npos);
  EXPECT_NE(decode_error(R"({"a": 1})").find("unknown tag 'a'"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$tuple": [], "$dict": {}})").find("exactly one tag"), std::string::npos);
  EXPECT_NE(decode_error(R"({})").find("exactly one tag"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$dtype": "float33"})").find("unknown dtype 'float33'"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$memory_format": "x"})").find("unknown memory_format"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$layout": "x"})").find("unknown layout"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$float": "1.5"})").find("$float"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$slice": [1, 2]})").find("$slice"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$tuple": 3})").find("$tuple needs an array"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$size": [1.5]})").find("$size"), std::string::npos);
  EXPECT_NE(decode_error(R"({"$tensor": "t"})").find("only allowed in reference"), std::string::npos);
  EXPECT_NE(decode_error("18446744073709551615").find("64-bit"), std::string::npos);
  EXPECT_NE(decode_error("\"" + std::string(70000, 'a') + "\"").find("65536-byte limit"), std::string::npos);
}

TEST(ValueJson, ReferenceObjectsRoundTrip) {
  Tensor t = Tensor::zeros({2, 3}, DType::Float32);
  const Object o = Object::tuple({Object(t), Object(Value::boolean(true)),
                                  Object::list({Object(Value::floating(0.5)), Object(t)}),
                                  Object::dict({{"k", Object(Value::integer(3))}})});
  std::vector<std::string> paths;
  Json j = object_to_json(o, [&](const Tensor&, const std::string& path) {
    paths.push_back(path);
    return Json("t" + path);
  });
  EXPECT_EQ(paths, (std::vector<std::string>{".0", ".2.1"}));
  EXPECT_EQ(j.dump(), R"({"$tuple":[{"$tensor":"t.0"},true,[0.5,{"$tensor":"t.2.1"}],{"$dict":{"k":3}}]})");
  Object back = object_from_json(j, [&](const Json& body) {
    EXPECT_EQ(body.get<std::string>().rfind("t.", 0), 0u);
    return t;
  }, ValueContext{"", "reference"});
  ASSERT_EQ(back.kind(), Object::Kind::Tuple);
  ASSERT_EQ(back.items().size(), 4u);
  EXPECT_TRUE(back.items()[0].is_tensor());
  EXPECT_EQ(back.items()[1].value(), Value::boolean(true));
  EXPECT_EQ(back.items()[2].kind(), Object::Kind::List);
  EXPECT_EQ(back.items()[3].dict_items()[0].first, "k");
  try {
    object_from_json(Json::parse(R"({"$tensor": "nope"})"),
                     [](const Json& body) -> Tensor { throw FxError("no tensor '" + body.get<std::string>() + "'"); },
                     ValueContext{"", "reference outputs"});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_EQ(std::string(e.what()), "reference outputs: no tensor 'nope'");  // the reader's message, with the field
  }
}

}  // namespace
}  // namespace fx
