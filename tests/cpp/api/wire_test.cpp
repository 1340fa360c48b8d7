// Run values across the bindings (cpp/api/wire.h): the file's value dialect, with tensors as
// {"$tensor": {dtype, shape, ptr, nbytes}} pointing into the heap, and its packed form (doubles) for
// tensors in tuples and lists.
#include "api/wire.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

#include "api/resident.h"
#include "serialize/reader.h"
#include "serialize/value_json.h"
#include "support/error.h"

namespace fx {
namespace {

using json = nlohmann::ordered_json;

json wire_tensor(const void* data, const char* dtype, std::vector<int64_t> shape, size_t nbytes) {
  json body = {{"dtype", dtype}, {"shape", shape},
               {"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(data))}, {"nbytes", nbytes}};
  return {{"$tensor", body}};
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

TEST(WireTest, TensorInputIsCopiedFromPointer) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  Object o = object_from_wire(wire_tensor(data, "float32", {2, 3}, sizeof data));
  data[0] = 99;  // the Object owns a copy
  ASSERT_TRUE(o.is_tensor());
  EXPECT_EQ(o.tensor().shape(), (Shape{2, 3}));
  EXPECT_EQ(o.tensor().data<float>()[0], 1.0f);
  EXPECT_EQ(o.tensor().data<float>()[5], 6.0f);
}

TEST(WireTest, MalformedTensorsAreFxErrorsNamingTheInput) {
  float data[2] = {1, 2};
  json j = json::array({wire_tensor(data, "float32", {3}, sizeof data)});
  const std::string named = error_of([&] { inputs_from_wire(j.dump(), nullptr, {"x"}); });
  EXPECT_EQ(named, "node 'x': input 'x': $tensor: 8 bytes given for float32 [3], which needs 12");
  j[0]["$tensor"]["dtype"] = "complex128";
  EXPECT_NE(error_of([&] { inputs_from_wire(j.dump(), nullptr); }).find("input #0: "), std::string::npos);
  EXPECT_EQ(error_of([&] { object_from_wire(json::parse(R"({"$tensor": {"dtype": "float32"}})")); }),
            "input: $tensor: missing shape");
  EXPECT_EQ(error_of([&] { object_from_wire(json::parse(R"({"$tensor": "w"})")); }),
            "input: $tensor needs {dtype, shape, ptr, nbytes}, found a JSON string");
}

TEST(WireTest, ScalarsAndContainers) {
  Object o = object_from_wire(json::parse(
      R"({"$tuple": [1, 2.5, true, null, "s", {"$float": "inf"}, {"$float": 1}, {"$dict": {"a": [1]}}, [2]]})"));
  ASSERT_EQ(o.kind(), Object::Kind::Tuple);
  EXPECT_EQ(o.items()[0].value().kind(), ValueKind::Int);
  EXPECT_EQ(o.items()[1].value().kind(), ValueKind::Float);
  EXPECT_EQ(o.items()[2].value().as_bool(), true);
  EXPECT_TRUE(o.items()[3].value().is_none());
  EXPECT_TRUE(std::isinf(o.items()[5].value().as_float()));
  EXPECT_EQ(o.items()[6].value().kind(), ValueKind::Float);
  EXPECT_EQ(o.items()[7].kind(), Object::Kind::Dict);
  EXPECT_EQ(o.items()[8].kind(), Object::Kind::List);
}

TEST(WireTest, ObjectsThatAreNotTagsAndNodeReferencesAreRefused) {
  EXPECT_NE(error_of([] { object_from_wire(json::parse(R"({"a": 1})")); }).find("unknown tag 'a'"), std::string::npos);
  EXPECT_NE(error_of([] { object_from_wire(json::parse(R"({"$node": "x"})")); }).find("not allowed"),
            std::string::npos);
}

TEST(WireTest, OutputsDescribeContiguousTensors) {
  int64_t v[3] = {7, 8, 9};
  Object out = Object::tuple({Object(Tensor::from_bytes({3}, DType::Int64, v, sizeof v)),
                              Object(Value::floating(NAN)),
                              Object::dict({{"k", Object(Value::boolean(false))}})});
  std::vector<Tensor> keep;
  const json j = object_to_wire(out, keep);
  ASSERT_EQ(keep.size(), 1u);
  const json& t = j["$tuple"][0]["$tensor"];
  EXPECT_EQ(t["dtype"], "int64");
  EXPECT_EQ(t["nbytes"], 24);
  const auto* p = reinterpret_cast<const int64_t*>(static_cast<uintptr_t>(t["ptr"].get<uint64_t>()));
  EXPECT_EQ(p[2], 9);
  EXPECT_EQ(j["$tuple"][1].dump(), R"({"$float":"nan"})");
  EXPECT_EQ(j["$tuple"][2].dump(), R"({"$dict":{"k":false}})");
}

TEST(WireTest, OwnedBlocksAreViewedInPlace) {
  auto* block = reinterpret_cast<float*>(alloc_file_block(3 * sizeof(float)));
  ASSERT_NE(block, nullptr);
  block[0] = 1, block[1] = 2, block[2] = 3;
  const double d[] = {static_cast<double>(reinterpret_cast<uintptr_t>(block))};
  Object o;
  {
    const WireBlocks blocks = own_wire_blocks(d, 1);
    o = object_from_wire(wire_tensor(block, "float32", {3}, 12), &blocks);
  }
  EXPECT_EQ(o.tensor().data<float>(), block);  // no copy; the tensor keeps the block alive (freed with it)
  EXPECT_EQ(o.tensor().data<float>()[2], 3.0f);
}

// Every kind a runtime value can hold, tensors included.
Object every_kind(const Tensor& t) {
  const double inf = std::numeric_limits<double>::infinity();
  return Object::tuple({
      Object(t), Object(), Object(Value::boolean(true)), Object(Value::integer(-3)),
      Object(Value::integer(std::numeric_limits<int64_t>::min())), Object(Value::floating(1.0)),
      Object(Value::floating(-0.5)), Object(Value::floating(inf)), Object(Value::floating(-inf)),
      Object(Value::floating(NAN)), Object(Value::str("s\"q")),
      Object::list({Object(t), Object(Value::integer(1))}), Object::tuple({}),
      Object::dict({{"b", Object(t)}, {"a", Object::tuple({Object(Value::str("x"))})}}),
      Object(Value::slice(Value::none(), Value::integer(-1), Value::integer(2))), Object(Value::ellipsis()),
      Object(Value::dtype("float16")), Object(Value::device("cpu")),
      Object(Value::memory_format("channels_last")), Object(Value::layout("strided")),
  });
}

TEST(WireTest, EveryTagRoundTrips) {
  int32_t data[4] = {1, -2, 3, -4};
  const Tensor t = Tensor::from_bytes({2, 2}, DType::Int32, data, sizeof data);
  std::vector<Tensor> keep;
  const std::string text = object_to_wire(every_kind(t), keep).dump();
  ASSERT_EQ(keep.size(), 3u);
  const Object back = object_from_wire(parse_wire_json(text));
  // The same JSON apart from the tensors' heap addresses (each decode copies the bytes).
  const auto names = [](const Object& o) {
    return object_to_json(o, [](const Tensor& x, const std::string& path) {
      return Json(std::string(dtype_name(x.dtype())) + path + ":" +
                  std::to_string(x.data<int32_t>()[0]) + "," + std::to_string(x.data<int32_t>()[3]));
    }).dump();
  };
  EXPECT_EQ(names(back), names(every_kind(t)));
}

// The wire and the file write one JSON for one value: only the body of {"$tensor": …} differs (a heap
// block here, a reference tensor's name there).
TEST(WireTest, WireAndFileWriteTheSameJson) {
  float data[2] = {1, 2};
  const Tensor t = Tensor::from_bytes({2}, DType::Float32, data, sizeof data);
  const Object o = every_kind(t);
  std::vector<Tensor> keep;
  json wire = object_to_wire(o, keep);
  // Replace each heap description by the name the file writer gives that tensor, in order.
  const json file = object_to_json(o, [](const Tensor&, const std::string& path) { return Json("__ref__.out" + path); });
  std::vector<std::string> file_names;
  object_to_json(o, [&](const Tensor&, const std::string& path) {
    file_names.push_back("__ref__.out" + path);
    return Json(nullptr);
  });
  size_t next = 0;
  std::function<void(json&)> rename = [&](json& j) {
    if (j.is_object() && j.size() == 1 && j.contains("$tensor")) {
      ASSERT_TRUE(j["$tensor"].is_object());
      j["$tensor"] = file_names.at(next++);
      return;
    }
    if (j.is_structured())
      for (auto& x : j) rename(x);
  };
  rename(wire);
  EXPECT_EQ(next, 3u);
  EXPECT_EQ(wire.dump(), file.dump());
  // And a graph Value writes as the runtime Object made from it.
  const Value v = Value::tuple({Value::list({Value::integer(1), Value::floating(2.0)}),
                                Value::dict({{"k", Value::floating(-INFINITY)}}), Value::dtype("bool"),
                                Value::slice(Value::integer(0), Value::none(), Value::none())});
  EXPECT_EQ(object_to_wire(Object(v), keep).dump(), value_to_json(v).dump());
}

// The packed form is the same dialect in doubles: what it reads is what the JSON reader reads from the
// same values, errors included; what it writes reads back as the value written.
std::vector<double> packed_tensor(const void* data, DType dtype, std::vector<int64_t> shape, size_t nbytes) {
  std::vector<double> d = {0, static_cast<double>(static_cast<int>(dtype)), static_cast<double>(shape.size()),
                           static_cast<double>(reinterpret_cast<uintptr_t>(data)), static_cast<double>(nbytes)};
  for (int64_t s : shape) d.push_back(static_cast<double>(s));
  return d;
}

std::string described(const std::vector<Object>& args) {
  return object_to_json(Object::tuple(args), [](const Tensor& x, const std::string& path) {
           const Tensor c = x.contiguous();
           std::string bytes(reinterpret_cast<const char*>(c.raw_data()), c.nbytes());
           return Json(std::string(dtype_name(x.dtype())) + path + ":" + std::to_string(std::hash<std::string>()(bytes)));
         }).dump();
}

const std::function<std::vector<std::string>()> kNames = [] { return std::vector<std::string>{"x", "y"}; };

TEST(WireTest, PackedInputsReadAsTheirJson) {
  float f[6] = {1, 2, 3, 4, 5, 6};
  int64_t i[2] = {7, -8};
  // (f32 [2, 3], (None, [i64 [2]]), [])
  std::vector<double> d = {1, 3};
  const auto append = [&](const std::vector<double>& x) { d.insert(d.end(), x.begin(), x.end()); };
  append(packed_tensor(f, DType::Float32, {2, 3}, sizeof f));
  append({1, 2, 3, 2, 1});
  append(packed_tensor(i, DType::Int64, {2}, sizeof i));
  append({2, 0});
  const json j = json::array({wire_tensor(f, "float32", {2, 3}, sizeof f),
                              {{"$tuple", json::array({nullptr, json::array({wire_tensor(i, "int64", {2}, sizeof i)})})}},
                              json::array()});
  const std::vector<Object> packed = inputs_from_packed(d.data(), d.size(), {}, kNames);
  EXPECT_EQ(described(packed), described(inputs_from_wire(j.dump(), nullptr)));
  EXPECT_EQ(packed[1].kind(), Object::Kind::Tuple);
  EXPECT_EQ(packed[1].items()[1].kind(), Object::Kind::List);
}

TEST(WireTest, PackedInputsFailAsTheirJson) {
  float f[2] = {1, 2};
  std::vector<double> d = {1, 2};
  const auto good = packed_tensor(f, DType::Float32, {2}, sizeof f);
  const auto bad = packed_tensor(f, DType::Float32, {3}, sizeof f);
  d.insert(d.end(), good.begin(), good.end());
  d.insert(d.end(), bad.begin(), bad.end());
  const json j = json::array({wire_tensor(f, "float32", {2}, sizeof f), wire_tensor(f, "float32", {3}, sizeof f)});
  const std::string packed = error_of([&] { inputs_from_packed(d.data(), d.size(), {}, kNames); });
  EXPECT_EQ(packed, "node 'y': input 'y': $tensor: 8 bytes given for float32 [3], which needs 12");
  EXPECT_EQ(packed, error_of([&] { inputs_from_wire(j.dump(), nullptr, kNames()); }));
  const auto unnamed = [] { return std::vector<std::string>{}; };
  EXPECT_EQ(error_of([&] { inputs_from_packed(d.data(), d.size(), {}, unnamed); }),
            error_of([&] { inputs_from_wire(j.dump(), nullptr); }));
  // Too deep: 65 nested tuples around None.
  std::vector<double> deep = {1, 1};
  for (int k = 0; k < 65; ++k) deep.insert(deep.end(), {1, 1});
  deep.push_back(3);
  EXPECT_NE(error_of([&] { inputs_from_packed(deep.data(), deep.size(), {}, kNames); })
                .find("input 'x': value nests deeper than 64 levels"),
            std::string::npos);
}

TEST(WireTest, MalformedPackedInputsAreFxErrors) {
  float f[2] = {1, 2};
  const auto t = packed_tensor(f, DType::Float32, {2}, sizeof f);
  const std::vector<std::vector<double>> cases = {
      {}, {2, 1}, {1, 1}, {1, 1, 7}, {1, 1, 0}, {1, 1, 0, 99, 1, 0, 8, 2}, {1, 1, 0, 0, -1, 0, 8},
      {1, 1, 0, 0, 1e300, 0, 8}, {1, 1, 0, 0, 1, 0, 8, 2.5}, {1, 1, 0, 0, 1, NAN, 8, 2}, {1, 1e9, 3},
      {1, 1, 1, 1e9, 3}, {1, 1, 3, 3}, {1, 2, 3}};
  for (const auto& d : cases) {
    SCOPED_TRACE(::testing::PrintToString(d));
    EXPECT_THROW(inputs_from_packed(d.data(), d.size(), {}, kNames), FxError);
  }
  std::vector<double> ok = {1, 1};
  ok.insert(ok.end(), t.begin(), t.end());
  EXPECT_EQ(inputs_from_packed(ok.data(), ok.size(), {}, kNames).size(), 1u);
}

TEST(WireTest, OutputsPackWhenTheyAreTensorsInTuplesAndLists) {
  float f[3] = {1, 2, 3};
  const Tensor t = Tensor::from_bytes({3}, DType::Float32, f, sizeof f);
  const float g[6] = {1, 2, 3, 4, 5, 6};
  const Tensor base = Tensor::from_bytes({3, 2}, DType::Float32, g, sizeof g);
  const Tensor strided(base.storage(), DType::Float32, {2, 3}, {1, 2}, 0);  // its transpose
  ASSERT_FALSE(strided.is_contiguous());
  const Object o = Object::tuple({Object(t), Object::list({Object(strided), Object()}), Object::tuple({})});
  std::vector<Tensor> keep;
  std::vector<double> d;
  ASSERT_TRUE(object_to_packed(o, keep, d));
  ASSERT_EQ(keep.size(), 2u);
  EXPECT_TRUE(keep[1].is_contiguous());
  // Read back as the inputs tuple (o), the packed value is the value written.
  std::vector<double> args = {1, 1};
  args.insert(args.end(), d.begin(), d.end());
  EXPECT_EQ(described(inputs_from_packed(args.data(), args.size(), {}, kNames)), described({o}));
  // Anything else declines, keeping nothing: the reply then goes as JSON.
  for (const Object& other : {Object(Value::integer(1)), Object::tuple({Object(t), Object(Value::floating(2))}),
                              Object::dict({{"k", Object(t)}}), Object(Value::dtype("float32"))}) {
    EXPECT_FALSE(object_to_packed(other, keep, d));
    EXPECT_EQ(keep.size(), 2u);
    EXPECT_TRUE(d.empty());
  }
}

// A resident tensor (api/resident.h) goes in by id, ptr = -id, in either spelling: as it is, or a copy when
// the run says so; an output packed with `resident` stays in the runtime the same way.
TEST(WireTest, ResidentTensorsGoInByIdInBothSpellings) {
  float f[3] = {1, 2, 3};
  const Tensor t = Tensor::from_bytes({3}, DType::Float32, f, sizeof f);
  const int64_t id = resident_tensors().add(t);
  json j = json::array({{{"$tensor", {{"dtype", "float32"}, {"shape", {3}}, {"ptr", -id}, {"nbytes", 0}}}}});
  std::vector<double> d = {1, 1, 0, 0, 1, -static_cast<double>(id), 0, 3};
  const CopyResident copy = [] { return true; };
  for (const bool copied : {false, true}) {
    const CopyResident& how = copied ? copy : CopyResident{};
    const Object a = inputs_from_wire(j.dump(), nullptr, {}, how)[0];
    const Object b = inputs_from_packed(d.data(), d.size(), {}, kNames, how)[0];
    EXPECT_EQ(a.tensor().storage() == t.storage(), !copied);
    EXPECT_EQ(b.tensor().storage() == t.storage(), !copied);
    EXPECT_EQ(described({a}), described({b}));
  }
  j[0]["$tensor"]["shape"] = {4};
  EXPECT_EQ(error_of([&] { inputs_from_wire(j.dump(), nullptr, {"x"}); }),
            "node 'x': input 'x': $tensor: resident tensor " + std::to_string(id) +
                " is float32 [3], described as float32 [4]");
  resident_tensors().free(id);
  EXPECT_NE(error_of([&] { inputs_from_packed(d.data(), d.size(), {}, kNames); }).find("was disposed"),
            std::string::npos);

  const size_t before = resident_tensors().size();
  std::vector<Tensor> keep;
  std::vector<double> out;
  ASSERT_TRUE(object_to_packed(Object::tuple({Object(t), Object(t)}), keep, out, true));
  EXPECT_TRUE(keep.empty());
  EXPECT_EQ(resident_tensors().size(), before + 2);
  EXPECT_LT(out[5], 0);
  EXPECT_EQ(resident_tensors().get(static_cast<int64_t>(-out[5])).storage(), t.storage());
  resident_tensors().free(static_cast<int64_t>(-out[5]));
  resident_tensors().free(static_cast<int64_t>(-out[5 + 6]));
  // A declined output adds nothing.
  EXPECT_FALSE(object_to_packed(Object::tuple({Object(t), Object(Value::integer(1))}), keep, out, true));
  EXPECT_EQ(resident_tensors().size(), before);
}

}  // namespace
}  // namespace fx
