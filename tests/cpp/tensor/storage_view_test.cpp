// Storage views: tensors over a block someone else owns (a loaded file), kept alive by a shared owner.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "support/error.h"
#include "tensor/tensor.h"

namespace fx {
namespace {

std::shared_ptr<uint8_t> aligned_block(size_t n) {
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(std::aligned_alloc(64, n)), [](uint8_t* p) { std::free(p); });
}

TEST(StorageView, ViewsTheBlockWithoutCopyingAndKeepsItAlive) {
  auto block = aligned_block(256);
  const float values[4] = {1.5f, -2.f, 3.f, 0.25f};
  std::memcpy(block.get() + 64, values, sizeof values);
  Tensor t = Tensor::view_bytes({2, 2}, DType::Float32, block.get() + 64, sizeof values, block);
  EXPECT_EQ(t.raw_data(), block.get() + 64);
  EXPECT_EQ(t.shape(), (Shape{2, 2}));
  EXPECT_EQ(t.data<float>()[3], 0.25f);
  std::weak_ptr<uint8_t> alive = block;
  block.reset();
  EXPECT_FALSE(alive.expired());  // the tensor holds the block
  EXPECT_EQ(t.data<float>()[0], 1.5f);
  Tensor copy = t.clone();
  t = Tensor();
  EXPECT_TRUE(alive.expired());  // the last view gone, the block is freed
  EXPECT_EQ(copy.data<float>()[1], -2.f);
}

TEST(StorageView, MisalignedOrEmptyBytesAreCopied) {
  auto block = aligned_block(128);
  const float v = 7.f;
  std::memcpy(block.get() + 4, &v, 4);
  Tensor t = Tensor::view_bytes({1}, DType::Float32, block.get() + 4, 4, block);
  EXPECT_NE(t.raw_data(), block.get() + 4);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % 64, 0u);
  EXPECT_EQ(t.data<float>()[0], 7.f);
  EXPECT_EQ(block.use_count(), 1);  // a copy holds no reference to the block
  Tensor e = Tensor::view_bytes({0, 3}, DType::Float32, block.get(), 0, block);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(block.use_count(), 1);
}

TEST(StorageView, WrongSizesAndMisalignedStorageAreRefused) {
  auto block = aligned_block(128);
  EXPECT_THROW(Tensor::view_bytes({3}, DType::Float32, block.get(), 8, block), FxError);
  EXPECT_THROW(Storage(block.get() + 8, 8, block), FxError);
  EXPECT_THROW(Storage(block.get(), 8, nullptr), FxError);
}

}  // namespace
}  // namespace fx
