// read_fxw_block: the loaded tensors view the file's bytes in place (64-byte aligned, as the writer lays
// them out); misaligned tensors from foreign writers are copied; the block lives as long as any view.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "fxw_files.h"
#include "serialize/writer.h"

namespace fx {
namespace {

using namespace testing_fxw;

// Loads a copy of `bytes` from a fresh block; `alive` watches the block.
std::unique_ptr<GraphModule> load_block(const std::vector<uint8_t>& bytes, std::weak_ptr<uint8_t>* alive,
                                        const uint8_t** begin) {
  std::shared_ptr<uint8_t> block = own_file_block(alloc_file_block(bytes.size()));
  std::memcpy(block.get(), bytes.data(), bytes.size());
  *alive = block;
  *begin = block.get();
  return read_fxw_block(std::move(block), bytes.size());
}

// A module with two float tensors, written by the writer (tensors 64-byte aligned).
std::vector<uint8_t> aligned_file() {
  Json p = small_program();
  p["tensors"] = {{"w", "parameter"}, {"b", "buffer"}};
  std::vector<uint8_t> data(4 * 3 + 4 * 5);
  for (size_t i = 0; i < 8; ++i) {
    const float v = 0.5f * static_cast<float>(i);
    std::memcpy(data.data() + 4 * i, &v, 4);
  }
  Json tensors = {{"w", {{"dtype", "F32"}, {"shape", {3}}, {"data_offsets", {0, 12}}}},
                  {"b", {{"dtype", "F32"}, {"shape", {5}}, {"data_offsets", {12, 32}}}}};
  auto gm = read_fxw(file_for(p, tensors, data).data(), file_for(p, tensors, data).size());
  return write_fxw(*gm);
}

TEST(ReaderViews, WriterFilesAreViewedInPlace) {
  const std::vector<uint8_t> bytes = aligned_file();
  std::weak_ptr<uint8_t> alive;
  const uint8_t* begin = nullptr;
  auto gm = load_block(bytes, &alive, &begin);
  ASSERT_EQ(gm->tensors().size(), 2u);
  for (const auto& [name, nt] : gm->tensors()) {
    const auto* p = static_cast<const uint8_t*>(nt.tensor.raw_data());
    EXPECT_GE(p, begin) << name;
    EXPECT_LE(p + nt.tensor.nbytes(), begin + bytes.size()) << name;
  }
  EXPECT_EQ(gm->tensors().at("b").tensor.data<float>()[4], 3.5f);
  Tensor kept = gm->tensors().at("w").tensor;
  gm.reset();
  EXPECT_FALSE(alive.expired());  // a tensor that outlives its module keeps the file
  EXPECT_EQ(kept.data<float>()[2], 1.0f);
  kept = Tensor();
  EXPECT_TRUE(alive.expired());
}

TEST(ReaderViews, MisalignedTensorsAreCopiedAndTheBlockFreed) {
  Json p = small_program();
  p["tensors"] = {{"w", "parameter"}};
  std::vector<uint8_t> data = {9, 9, 9, 0, 0, 0x80, 0x3f};  // 1.0f at offset 3
  Json tensors = {{"w", {{"dtype", "F32"}, {"shape", {1}}, {"data_offsets", {3, 7}}}},
                  {"__pad__.0", {{"dtype", "U8"}, {"shape", {3}}, {"data_offsets", {0, 3}}}}};
  const auto bytes = file_for(p, tensors, data);
  std::weak_ptr<uint8_t> alive;
  const uint8_t* begin = nullptr;
  auto gm = load_block(bytes, &alive, &begin);
  const Tensor& w = gm->tensors().at("w").tensor;
  EXPECT_EQ(w.data<float>()[0], 1.0f);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(w.raw_data()) % 64, 0u);
  EXPECT_TRUE(alive.expired());  // nothing views the file: it is gone once read
}

TEST(ReaderViews, ABadFileFreesItsBlock) {
  auto bytes = aligned_file();
  bytes[bytes.size() / 2] ^= 0xff;  // somewhere in the data or the header
  bytes.resize(bytes.size() - 1);   // and truncated: data_offsets run past the end
  std::weak_ptr<uint8_t> alive;
  const uint8_t* begin = nullptr;
  EXPECT_THROW(load_block(bytes, &alive, &begin), FxError);
  EXPECT_TRUE(alive.expired());
}

TEST(ReaderViews, BlocksAreAligned) {
  for (size_t n : {0, 1, 63, 64, 1000}) {
    std::shared_ptr<uint8_t> b = own_file_block(alloc_file_block(n));
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.get()) % 64, 0u);
  }
}

}  // namespace
}  // namespace fx
