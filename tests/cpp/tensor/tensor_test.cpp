#include "tensor/tensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include <xtensor/xarray.hpp>

#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/xview.h"

namespace fx {
namespace {

Tensor arange_f32(const Shape& shape) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

TEST(Tensor, StorageIs64ByteAligned) {
  for (size_t n : {0, 1, 3, 64, 1000}) {
    Storage s(n);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % 64, 0u);
    EXPECT_EQ(s.nbytes(), n);
  }
}

TEST(Tensor, HugeAllocationThrowsFxError) {
  EXPECT_THROW(Storage(std::numeric_limits<size_t>::max() - 8), FxError);
  EXPECT_THROW(Tensor::empty({int64_t(1) << 40, int64_t(1) << 30}, DType::Float64), FxError);
}

TEST(Tensor, CheckedNumel) {
  EXPECT_EQ(checked_numel({}), 1);
  EXPECT_EQ(checked_numel({2, 3, 4}), 24);
  EXPECT_EQ(checked_numel({2, 0, 4}), 0);
  EXPECT_THROW(checked_numel({2, -1}), FxError);
  EXPECT_THROW(checked_numel({int64_t(1) << 32, int64_t(1) << 32}), FxError);
}

TEST(Tensor, FromBytesChecksSize) {
  float v[6] = {1, 2, 3, 4, 5, 6};
  Tensor t = Tensor::from_bytes({2, 3}, DType::Float32, v, sizeof v);
  EXPECT_EQ(t.data<float>()[5], 6.0f);
  EXPECT_THROW(Tensor::from_bytes({2, 4}, DType::Float32, v, sizeof v), FxError);
}

TEST(Tensor, ViewOutsideStorageRejected) {
  Tensor t = arange_f32({2, 3});
  EXPECT_THROW(Tensor(t.storage(), DType::Float32, {3, 3}, {3, 1}, 0), FxError);
  EXPECT_THROW(Tensor(t.storage(), DType::Float64, {4}, {1}, 0), FxError);
  EXPECT_NO_THROW(Tensor(t.storage(), DType::Float32, {3}, {1}, 3));
}

TEST(Tensor, TransposeContiguousAndClone) {
  Tensor t = arange_f32({2, 3});
  Tensor tt(t.storage(), DType::Float32, {3, 2}, {1, 3}, 0);  // t.T
  EXPECT_FALSE(tt.is_contiguous());
  Tensor c = tt.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_NE(c.storage(), t.storage());
  const float expected[6] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c.data<float>()[i], expected[i]);
  EXPECT_EQ(t.contiguous().storage(), t.storage());  // already packed: no copy
  EXPECT_NE(t.clone().storage(), t.storage());
}

TEST(Tensor, SliceWithOffsetAndSize1StridesIsContiguous) {
  Tensor t = arange_f32({4, 3});
  Tensor row(t.storage(), DType::Float32, {1, 3}, {99, 1}, 6);  // t[2:3]; size-1 stride is irrelevant
  EXPECT_TRUE(row.is_contiguous());
  EXPECT_EQ(row.data<float>()[0], 6.0f);
  Tensor col(t.storage(), DType::Float32, {4}, {3}, 1);  // t[:, 1]
  Tensor c = col.clone();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(c.data<float>()[i], 3.0f * i + 1);
}

TEST(Broadcast, ShapesLikeTorch) {
  EXPECT_EQ(broadcast_shapes(Shape{2, 1, 3}, Shape{4, 1}), (Shape{2, 4, 3}));
  EXPECT_EQ(broadcast_shapes(Shape{}, Shape{5}), (Shape{5}));
  EXPECT_EQ(broadcast_shapes(Shape{0, 1}, Shape{3}), (Shape{0, 3}));
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{1}, {2, 1}, {1, 3}}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes(Shape{1}, Shape{0}), (Shape{0}));
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{}), (Shape{}));
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{}, {}}), (Shape{}));
  EXPECT_THROW(broadcast_shapes(Shape{0}, Shape{2}), FxError);
  try {
    broadcast_shapes(Shape{2, 3}, Shape{4});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_STREQ(e.what(),
                 "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  }
}

// With more than two shapes torch names the clash between the ones to its left (broadcast together) and
// the shape that does not fit, numbered in the rank of those two.
TEST(Broadcast, ManyShapesNameTheClash) {
  auto message = [](const std::vector<Shape>& shapes) {
    try {
      broadcast_shapes(shapes);
    } catch (const FxError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({{5, 1}, {3}, {4}}),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(message({{3}, {2, 4}}),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(message({{2, 1, 1}, {1}, {3, 1, 1}}),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
}

TEST(Broadcast, ExpandIsAViewWithZeroStrides) {
  Tensor t = arange_f32({3, 1});
  Tensor e = expand_to(t, {2, 3, 4});
  EXPECT_EQ(e.storage(), t.storage());
  EXPECT_EQ(e.strides(), (Shape{0, 1, 0}));
  Tensor c = e.contiguous();
  EXPECT_EQ(c.data<float>()[4 * 2 + 3], 2.0f);    // [0, 2, 3]
  EXPECT_EQ(c.data<float>()[12 + 4 + 1], 1.0f);   // [1, 1, 1]
  EXPECT_THROW(expand_to(t, {2, 2}), FxError);
}

TEST(XView, AdaptsContiguousTensor) {
  Tensor t = arange_f32({2, 3});
  auto v = xview<float>(t);
  EXPECT_EQ(v(1, 2), 5.0f);
  v(0, 1) = 42.0f;
  EXPECT_EQ(t.data<float>()[1], 42.0f);
  const Tensor& ct = t;
  EXPECT_EQ(xview<float>(ct)(0, 1), 42.0f);
  EXPECT_THROW(xview<double>(t), FxError);
}

TEST(XView, AdaptsAnyStridedView) {
  Tensor t = arange_f32({2, 3});
  Tensor tt(t.storage(), DType::Float32, {3, 2}, {1, 3}, 0);  // t.T
  EXPECT_EQ(xview<float>(tt)(2, 1), 5.0f);
  Tensor flipped(t.storage(), DType::Float32, {3}, {-1}, 5);  // t[1].flip(0)
  EXPECT_THROW(xview<float>(flipped), FxError);  // xtensor adaptors cannot step backwards
  EXPECT_EQ(xarray_of<float>(flipped)(0), 5.0f);
  EXPECT_EQ(xarray_of<float>(flipped)(2), 3.0f);
  Tensor col(t.storage(), DType::Float32, {2, 4}, {3, 0}, 1);  // t[:, 1:2].expand(2, 4)
  EXPECT_EQ(xview<float>(col)(1, 3), 4.0f);
}

// contiguous() packs by its own N-d walk; xtensor's strided indexing is the reference.
TEST(XView, ContiguousMatchesXtensor) {
  Tensor t = arange_f32({2, 3, 4});
  const std::vector<Tensor> views = {
      Tensor(t.storage(), DType::Float32, {4, 3, 2}, {1, 4, 12}, 0),   // permute(2, 1, 0)
      Tensor(t.storage(), DType::Float32, {2, 2, 4}, {12, 4, 1}, 4),   // t[:, 1:]
      Tensor(t.storage(), DType::Float32, {2, 3, 2}, {12, 4, -2}, 3),  // t.flip(2)[..., ::2]
      Tensor(t.storage(), DType::Float32, {5, 2, 4}, {0, 12, 1}, 8),   // t[:, 2].expand(5, 2, 4)
      Tensor(t.storage(), DType::Float32, {2, 0, 4}, {12, 4, 1}, 0),   // empty
  };
  for (const Tensor& v : views) {
    const xt::xarray<float> want = xarray_of<float>(v);
    const Tensor c = v.contiguous();
    ASSERT_EQ(static_cast<int64_t>(want.size()), c.numel());
    for (int64_t i = 0; i < c.numel(); ++i) EXPECT_EQ(c.data<float>()[i], want.data()[i]) << shape_to_string(v.shape());
  }
}

}  // namespace
}  // namespace fx
