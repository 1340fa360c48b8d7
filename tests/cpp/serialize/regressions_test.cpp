// Replays tests/fuzz/regressions/*.fxw — inputs that once crashed or misled the reader, found by the fuzzer
// (scripts/fuzz.sh) or by hand — through the fuzzer's own checks (tests/fuzz/fxw_exercise.h). Under
// scripts/test-sanitize.sh this also proves them free of memory errors and undefined behaviour.
// NAME.fxw may come with NAME.txt: a line the load's error must contain (the file must be rejected).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "../../fuzz/fxw_exercise.h"

namespace fx {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> regression_files() {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(FXWASM_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".fxw") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FuzzRegressions, EachSavedInputIsHandledCleanly) {
  const auto files = regression_files();
  ASSERT_FALSE(files.empty()) << "no tests/fuzz/regressions/*.fxw";
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.filename().string());
    const std::string bytes = slurp(p);
    fuzz::Outcome outcome;
    try {
      outcome = fuzz::exercise_fxw(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    } catch (const fuzz::Finding& f) {
      ADD_FAILURE() << f.what();
      continue;
    }
    fs::path expect = p;
    expect.replace_extension(".txt");
    if (fs::exists(expect)) {
      std::string want = slurp(expect);
      while (!want.empty() && (want.back() == '\n' || want.back() == '\r')) want.pop_back();
      EXPECT_FALSE(outcome.accepted) << "expected the load to fail with: " << want;
      EXPECT_NE(outcome.error.find(want), std::string::npos) << "error was: " << outcome.error;
    }
  }
}

}  // namespace
}  // namespace fx
