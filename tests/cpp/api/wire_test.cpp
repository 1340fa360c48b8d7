#include "api/wire.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "serialize/reader.h"
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

TEST(WireTest, OwnedBlocksAreViewedInPlace) {
  auto* block = reinterpret_cast<float*>(alloc_file_block(3 * sizeof(float)));
  ASSERT_NE(block, nullptr);
  block[0] = 1, block[1] = 2, block[2] = 3;
  const double d[] = {static_cast<double>(reinterpret_cast<uintptr_t>(block))};
  Object o;
  {
    const WireBlocks blocks = own_wire_blocks(d, 1);
    nlohmann::json j = {{"$t", "tensor"}, {"dtype", "float32"}, {"shape", {3}},
                        {"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(block))}, {"nbytes", 12u}};
    o = object_from_wire(j, &blocks);
  }
  EXPECT_EQ(o.tensor().data<float>(), block);  // no copy; the tensor keeps the block alive (freed with it)
  EXPECT_EQ(o.tensor().data<float>()[2], 3.0f);
}

TEST(WireTest, FastFormReadsTensorsAndSharesMessages) {
  auto* a = reinterpret_cast<int32_t*>(alloc_file_block(4 * sizeof(int32_t)));
  auto* b = reinterpret_cast<float*>(alloc_file_block(sizeof(float)));
  for (int i = 0; i < 4; ++i) a[i] = i;
  b[0] = 5;
  const double pa = static_cast<double>(reinterpret_cast<uintptr_t>(a));
  const double pb = static_cast<double>(reinterpret_cast<uintptr_t>(b));
  const double code_i32 = static_cast<double>(static_cast<int>(DType::Int32));
  const double code_f32 = static_cast<double>(static_cast<int>(DType::Float32));
  {
    const double d[] = {pa, pb, code_i32, 2, 16, 2, 2, code_f32, 0, 4};
    const WireBlocks blocks = own_wire_blocks(d, 2);
    std::vector<Object> args = tensors_from_descriptor(d, 10, 2, blocks);
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0].tensor().shape(), (Shape{2, 2}));
    EXPECT_EQ(args[0].tensor().data<int32_t>(), a);
    EXPECT_EQ(args[1].tensor().dtype(), DType::Float32);
    EXPECT_EQ(args[1].tensor().shape(), Shape{});
  }
  float c[2] = {1, 2};
  void* owned = alloc_file_block(8);
  const double d[] = {static_cast<double>(reinterpret_cast<uintptr_t>(owned)), code_f32, 1, 8, 3};
  const WireBlocks blocks = own_wire_blocks(d, 1);
  std::string fast, slow;
  try {
    tensors_from_descriptor(d, 5, 1, blocks);
  } catch (const FxError& e) {
    fast = e.what();
  }
  try {
    object_from_wire({{"$t", "tensor"}, {"dtype", "float32"}, {"shape", {3}},
                      {"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(c))}, {"nbytes", 8u}});
  } catch (const FxError& e) {
    slow = e.what();
  }
  EXPECT_EQ(fast, "input tensor: 8 bytes given for float32 [3], which needs 12");
  EXPECT_EQ(fast, slow);
  EXPECT_THROW(tensors_from_descriptor(d, 4, 1, blocks), FxError);  // truncated
}

TEST(WireTest, CompactReplyOnlyForTensorsOrFlatSequences) {
  int64_t v[3] = {7, 8, 9};
  const Tensor t = Tensor::from_bytes({3}, DType::Int64, v, sizeof v);
  std::vector<Tensor> keep;
  std::vector<double> out;
  ASSERT_TRUE(tensors_to_descriptor(Object(t), keep, out));
  EXPECT_EQ(out, (std::vector<double>{0, 1, static_cast<double>(static_cast<int>(DType::Int64)), 1,
                                      static_cast<double>(reinterpret_cast<uintptr_t>(keep[0].raw_data())), 24, 3}));
  ASSERT_TRUE(tensors_to_descriptor(Object::list({Object(t), Object(t)}), keep, out));
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(keep.size(), 3u);
  EXPECT_FALSE(tensors_to_descriptor(Object::tuple({Object(t), Object(Value::integer(1))}), keep, out));
  EXPECT_FALSE(tensors_to_descriptor(Object::tuple({Object::tuple({Object(t)})}), keep, out));
  EXPECT_EQ(keep.size(), 3u);
}

}  // namespace
}  // namespace fx
