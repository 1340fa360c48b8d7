// index_copy_ into a packed tensor writes the source's slices in place (a static KV cache's step): the
// tensor keeps its storage and every other value, agrees with the out-of-place index_copy, takes negative
// indices, and a bad index changes nothing.
#include <gtest/gtest.h>

#include <vector>

#include "ops/call_op.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor f32(std::vector<float> v, Shape shape) {
  return Tensor::from_bytes(shape, DType::Float32, v.data(), v.size() * sizeof(float));
}
Tensor i64(std::vector<int64_t> v) {
  return Tensor::from_bytes({static_cast<int64_t>(v.size())}, DType::Int64, v.data(), v.size() * 8);
}
std::vector<float> values(const Tensor& t) {
  const Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

TEST(IndexCopyInPlace, WritesTheSlicesWhereTheyBelong) {
  // cache [1, 2, 4, 2] (batch, heads, positions, dim) written at positions 3 and -4 (= 0) along dim 2
  std::vector<float> zeros(16, 0.0f);
  Tensor cache = f32(zeros, {1, 2, 4, 2});
  const void* before = cache.raw_data();
  Tensor src = f32({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 2, 2});
  Tensor expected = call_op("aten.index_copy.default", {Object(cache), Object(Value::integer(2)),
                                                        Object(i64({3, -4})), Object(src)})
                        .tensor();
  Object r = call_op("aten.index_copy_.default", {Object(cache), Object(Value::integer(2)), Object(i64({3, -4})), Object(src)});
  EXPECT_EQ(r.tensor().raw_data(), before);
  EXPECT_EQ(values(cache), values(expected));
  EXPECT_EQ(values(cache), (std::vector<float>{3, 4, 0, 0, 0, 0, 1, 2, 7, 8, 0, 0, 0, 0, 5, 6}));
}

TEST(IndexCopyInPlace, ABadIndexChangesNothing) {
  Tensor cache = f32({1, 2, 3, 4}, {4});
  EXPECT_THROW(call_op("aten.index_copy_.default",
                       {Object(cache), Object(Value::integer(0)), Object(i64({0, 4})), Object(f32({9, 9}, {2}))}),
               FxError);
  EXPECT_EQ(values(cache), (std::vector<float>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace fx
