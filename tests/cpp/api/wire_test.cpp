#include "api/wire.h"

#include <gtest/gtest.h>

#include <cstring>

#include "support/error.h"

namespace fx {
namespace {

TEST(WireTest, TensorInputIsCopiedFromPointer) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  nlohmann::json j = {{"$t", "tensor"}, {"dtype", "float32"}, {"shape", {2, 3}},
                      {"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(data))}, {"nbytes", sizeof data}};
  Object o = object_from_wire(j);
  data[0] = 99;  // the Object owns a copy
  ASSERT_TRUE(o.is_tensor());
  EXPECT_EQ(o.tensor().shape(), (Shape{2, 3}));
  EXPECT_EQ(o.tensor().data<float>()[0], 1.0f);
  EXPECT_EQ(o.tensor().data<float>()[5], 6.0f);
}

TEST(WireTest, WrongByteCountIsFxError) {
  float data[2] = {1, 2};
  nlohmann::json j = {{"$t", "tensor"}, {"dtype", "float32"}, {"shape", {3}},
                      {"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(data))}, {"nbytes", sizeof data}};
  EXPECT_THROW(object_from_wire(j), FxError);
  j["dtype"] = "complex128";
  EXPECT_THROW(object_from_wire(j), FxError);
}

TEST(WireTest, ScalarsAndContainers) {
  Object o = object_from_wire(nlohmann::json::parse(R"([1, 2.5, true, null, "s", {"$t":"float","v":"inf"}, {"a": [1]}])"));
  ASSERT_TRUE(o.is_sequence());
  EXPECT_EQ(o.items()[0].value().kind(), ValueKind::Int);
  EXPECT_EQ(o.items()[1].value().kind(), ValueKind::Float);
  EXPECT_EQ(o.items()[2].value().as_bool(), true);
  EXPECT_TRUE(o.items()[3].value().is_none());
  EXPECT_TRUE(std::isinf(o.items()[5].value().as_float()));
  EXPECT_EQ(o.items()[6].kind(), Object::Kind::Dict);
}

TEST(WireTest, OutputsDescribeContiguousTensors) {
  int64_t v[3] = {7, 8, 9};
  Object out = Object::tuple({Object(Tensor::from_bytes({3}, DType::Int64, v, sizeof v)),
                              Object(Value::floating(NAN)),
                              Object::dict({{"k", Object(Value::boolean(false))}})});
  std::vector<Tensor> keep;
  auto j = object_to_wire(out, keep);
  ASSERT_EQ(keep.size(), 1u);
  EXPECT_EQ(j[0]["dtype"], "int64");
  EXPECT_EQ(j[0]["nbytes"], 24);
  const auto* p = reinterpret_cast<const int64_t*>(static_cast<uintptr_t>(j[0]["ptr"].get<uint64_t>()));
  EXPECT_EQ(p[2], 9);
  EXPECT_EQ(j[1]["v"], "nan");
  EXPECT_EQ(j[2]["items"][0][0], "k");
}

}  // namespace
}  // namespace fx
