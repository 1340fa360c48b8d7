// Every committed example (examples/**/*.fxw) and, when built, every corpus model (.cache/corpus/*.fxw,
// from tests/corpus/build_corpus.py) runs natively on its stored reference inputs and matches the
// stored reference outputs (rtol 1e-4, atol 1e-5: float32 models differ from torch only by rounding).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "api/check.h"
#include "exec/interpreter.h"
#include "runtime/plan.h"
#include "serialize/reader.h"
#include "support/error.h"
#include "../model_files.h"

namespace fx {
namespace {

namespace fs = std::filesystem;

using testing::fxw_files;

// "" when the file runs and matches; otherwise what went wrong.
std::string check_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    std::unique_ptr<GraphModule> gm = read_fxw(bytes.data(), bytes.size());
    if (!gm->reference().present) return "no reference in file";
    std::string msg;
    // As written (the executor alone), and through the runtime's plan (fused: conv + BatchNorm + residual
    // + activation, Linear + residual + activation) as Model runs it.
    for (bool fuse : {false, true}) {
      Object out = fuse ? Plan(*gm).run(gm->reference().inputs) : Interpreter(*gm).run(gm->reference().inputs);
      for (const LeafCheck& c : compare_outputs(out, gm->reference().outputs, 1e-4, 1e-5))
        if (!c.pass)
          msg += std::string(fuse ? "fused " : "") + "output" + c.path + ": " +
                 (c.message.empty() ? "max_abs " + std::to_string(c.max_abs) + " max_rel " + std::to_string(c.max_rel)
                                    : c.message) + "; ";
    }
    return msg;
  } catch (const FxError& e) {
    return e.what();
  }
}

void check_all(const std::vector<std::string>& files) {
  for (const std::string& f : files) {
    const std::string r = check_file(f);
    EXPECT_EQ(r, "") << f;
  }
}

TEST(Examples, EveryCommittedExampleMatchesItsReference) {
  auto files = fxw_files(fs::path(FXWASM_SOURCE_DIR) / "examples");
  ASSERT_FALSE(files.empty());
  check_all(files);
}

TEST(Examples, CorpusModelsMatchTheirReferences) {
  auto files = fxw_files(fs::path(FXWASM_SOURCE_DIR) / ".cache" / "corpus");
  // npm test builds the corpus before the C++ suite (scripts/test.sh).
  ASSERT_FALSE(files.empty()) << "no corpus: run `npm run -s python -- tests/corpus/build_corpus.py`";
  check_all(files);
}

TEST(Examples, ModuleGoldensMatchTheirReferences) {
  auto files = fxw_files(fs::path(FXWASM_SOURCE_DIR) / "tests" / "golden" / "modules");
  ASSERT_FALSE(files.empty()) << "no module goldens: run tests/golden/modules/gen_modules.py";
  check_all(files);
}

}  // namespace
}  // namespace fx
