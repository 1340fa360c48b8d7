// The small-block cache behind the WebAssembly builds' operator new/delete (support/small_blocks.h,
// bindings/new_delete.cpp). The operators themselves run under every JS test; here: the class arithmetic
// that makes a recycled block big enough, and the cache's bounds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "support/small_blocks.h"

namespace fx {
namespace {

constexpr size_t kStep = SmallBlocks::kStep, kMax = SmallBlocks::kStep * SmallBlocks::kClasses;

TEST(SmallBlocks, EveryRequestFitsTheBlocksOfItsClass) {
  EXPECT_EQ(SmallBlocks::class_of_request(0), 0u);
  EXPECT_EQ(SmallBlocks::class_of_request(kMax + 1), 0u);
  EXPECT_EQ(SmallBlocks::class_of_request(static_cast<size_t>(-1)), 0u);
  for (size_t n = 1; n <= kMax; ++n) {
    const size_t c = SmallBlocks::class_of_request(n);
    ASSERT_GE(c, 1u);
    ASSERT_LE(c, SmallBlocks::kClasses);
    // Any block the cache files under class c has at least c·kStep usable bytes: enough for n.
    for (size_t usable = 0; usable < 2 * kMax; ++usable)
      if (SmallBlocks::class_of_block(usable) == c) ASSERT_GE(usable, n) << "request " << n;
  }
}

TEST(SmallBlocks, AMissAllocatesABlockThatReturnsToItsClass) {
  // operator new asks for c·kStep bytes on a miss; whatever padding the allocator adds below one more
  // step, the block is filed under c again when freed.
  for (size_t c = 1; c <= SmallBlocks::kClasses; ++c)
    for (size_t pad = 0; pad < kStep; ++pad) EXPECT_EQ(SmallBlocks::class_of_block(c * kStep + pad), c);
  EXPECT_EQ(SmallBlocks::class_of_block(kStep - 1), 0u);         // serves nothing
  EXPECT_EQ(SmallBlocks::class_of_block(kMax + kStep), 0u);      // larger than any class: freed
}

TEST(SmallBlocks, KeepsAtMostKKeepBlocksAClassAndGivesThemBackLastFirst) {
  SmallBlocks cache;
  std::vector<void*> blocks;
  for (size_t i = 0; i < SmallBlocks::kKeep + 3; ++i) blocks.push_back(std::malloc(3 * kStep));
  size_t kept = 0;
  for (void* p : blocks) kept += cache.keep(p, 3);
  EXPECT_EQ(kept, SmallBlocks::kKeep);
  EXPECT_EQ(cache.count(3), SmallBlocks::kKeep);
  EXPECT_FALSE(cache.keep(blocks[0], 0));  // class 0: the caller frees
  EXPECT_EQ(cache.take(2), nullptr);       // other classes are empty
  for (size_t i = SmallBlocks::kKeep; i-- > 0;) EXPECT_EQ(cache.take(3), blocks[i]);
  EXPECT_EQ(cache.take(3), nullptr);
  EXPECT_EQ(cache.count(3), 0u);
  for (void* p : blocks) std::free(p);
}

}  // namespace
}  // namespace fx
