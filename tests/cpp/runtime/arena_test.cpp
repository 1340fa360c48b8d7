// The runtime's tensor arena (tensor/buffer_pool.h through Interpreter::run): a second run of the same
// inputs allocates no tensor buffer (every intermediate reuses a block of the first run), holds the same
// peak, and computes the same outputs; the peak is reported.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "runtime/plan.h"
#include "serialize/reader.h"
#include "../model_files.h"

namespace fx {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<GraphModule> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return read_fxw(bytes.data(), bytes.size());
}

bool same_bytes(const Object& a, const Object& b) {
  if (a.is_tensor() != b.is_tensor()) return false;
  if (!a.is_tensor()) return a.describe() == b.describe();
  const Tensor x = a.tensor().contiguous(), y = b.tensor().contiguous();
  return x.shape() == y.shape() && x.dtype() == y.dtype() && std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) == 0;
}

TEST(Arena, SecondRunAllocatesNoTensorBufferAndHasTheSamePeak) {
  std::vector<std::string> files = testing::fxw_files(fs::path(FXWASM_SOURCE_DIR) / "examples");
  files.push_back((fs::path(FXWASM_SOURCE_DIR) / "tests/golden/passes/conv_bn.fxw").string());
  int checked = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    auto gm = read_file(f);
    if (!gm->reference().present) continue;
    Plan interp(*gm);
    const std::vector<Object>& inputs = gm->reference().inputs;
    Object first = interp.run(inputs);
    const BufferPool::Stats m1 = interp.memory();
    if (m1.peak_live_bytes == 0) continue;  // a graph of Python numbers only: nothing to reuse
    EXPECT_GT(m1.fresh_blocks, 0u);
    EXPECT_GE(m1.reserved_bytes, m1.peak_live_bytes);
    // Keep a copy of the output, drop the run's own (as JS does once it has copied the outputs out).
    const Object expected = first.is_tensor() ? Object(first.tensor().clone()) : Object();
    first = Object();
    Profile profile;
    Object second = interp.run(inputs, &profile);
    const BufferPool::Stats m2 = interp.memory();
    EXPECT_EQ(m2.fresh_blocks, 0u);
    EXPECT_EQ(m2.peak_live_bytes, m1.peak_live_bytes);
    EXPECT_EQ(m2.reserved_bytes, m1.reserved_bytes);
    EXPECT_EQ(profile.peak_bytes, m2.peak_live_bytes);
    EXPECT_EQ(profile.arena_bytes, m2.reserved_bytes);
    if (expected.is_tensor()) EXPECT_TRUE(same_bytes(second, expected));
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

TEST(Arena, OutputsOutliveTheInterpreter) {
  auto gm = read_file((fs::path(FXWASM_SOURCE_DIR) / "examples/decoder_block/decoder_block.fxw").string());
  Object out;
  {
    Plan interp(*gm);
    out = interp.run(gm->reference().inputs);
  }
  ASSERT_TRUE(out.is_tensor());
  const Tensor t = out.tensor().contiguous();
  EXPECT_GT(t.numel(), 0);
  float sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) sum += t.data<float>()[i];
  EXPECT_TRUE(sum == sum);  // readable after its arena's owner is gone (ASan would catch a freed block)
}

}  // namespace
}  // namespace fx
