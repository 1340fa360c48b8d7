// The fuzzer's run step (tests/fuzz/fxw_exercise.h): a model the load accepts runs on inputs made from
// the file's last bytes. Here the step runs on small example models whose tensor data is rewritten with
// pseudo-random bytes many times — each run must end in a result or an FxError, never a Finding — and the
// input maker is checked to produce what it promises (deep nesting, out-of-range integers, bad shapes).
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "../../fuzz/fxw_exercise.h"

namespace fx {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FuzzRunInputs, MutatedTailsRunOrFailCleanly) {
  const std::filesystem::path root(FXWASM_SOURCE_DIR);
  for (const char* rel : {"examples/seed/toy_example.fxw", "examples/shape_arith/shape_arith.fxw"}) {
    SCOPED_TRACE(rel);
    std::string bytes = slurp(root / rel);
    ASSERT_FALSE(bytes.empty());
    uint32_t state = 12345;
    int accepted = 0;
    const size_t tail = std::min<size_t>(bytes.size(), 64);
    for (int round = 0; round < 300; ++round) {
      for (size_t i = bytes.size() - tail; i < bytes.size(); ++i) {
        state = state * 1664525u + 1013904223u;
        bytes[i] = static_cast<char>(state >> 24);
      }
      try {
        accepted += fuzz::exercise_fxw(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()).accepted;
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
      }
    }
    EXPECT_GT(accepted, 100);  // the tail is tensor data: most files still load, and then run
  }
}

TEST(FuzzRunInputs, TheInputMakerReachesTheLimits) {
  std::string all;
  for (int seed = 0; seed < 256; ++seed) {
    std::vector<uint8_t> b(64);
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(seed * 31 + i * 7 + (i % 3 ? seed : 0));
    b[0] = static_cast<uint8_t>(seed);
    fuzz::InputMaker maker(b.data(), b.size());
    const std::string text = maker.inputs(2);
    all += text;
    // Whatever it makes decodes to Objects or fails with an FxError.
    try {
      (void)inputs_from_wire(text, nullptr, {"a", "b"});
    } catch (const FxError&) {
    }
  }
  EXPECT_NE(all.find(std::string(70, '[')), std::string::npos);
  EXPECT_NE(all.find("18446744073709551616"), std::string::npos);
  EXPECT_NE(all.find("4611686018427387904"), std::string::npos);
  EXPECT_NE(all.find("{\"$float\":\"nan\"}"), std::string::npos);
}

}  // namespace
}  // namespace fx
