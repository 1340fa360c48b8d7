// Runs every .fxw under $FXWASM_ZOO_DIR (tests/corpus/zoo.py exports the torchvision classifiers there)
// on its stored reference inputs and prints one line per file: "ZOO PASS name ms" or
// "ZOO FAIL name: why". Skipped when the variable is unset, so the normal test run stays fast.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "api/check.h"
#include "runtime/interpreter.h"
#include "serialize/reader.h"
#include "support/error.h"

namespace fx {
namespace {

namespace fs = std::filesystem;

std::string run_and_compare(const std::string& path, double rtol, double atol) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    std::unique_ptr<GraphModule> gm = read_fxw(bytes.data(), bytes.size());
    if (!gm->reference().present) return "no reference in file";
    Interpreter interp(*gm);
    Object out = interp.run(gm->reference().inputs);
    std::string msg;
    for (const LeafCheck& c : compare_outputs(out, gm->reference().outputs, rtol, atol))
      if (!c.pass)
        msg += "output" + c.path + ": " +
               (c.message.empty() ? "max_abs " + std::to_string(c.max_abs) + " max_rel " + std::to_string(c.max_rel)
                                  : c.message) + "; ";
    return msg;
  } catch (const FxError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("std::exception: ") + e.what();
  }
}

TEST(Zoo, ModelsInZooDirMatchTheirReferences) {
  const char* dir = std::getenv("FXWASM_ZOO_DIR");
  if (!dir) GTEST_SKIP() << "set FXWASM_ZOO_DIR (tests/corpus/zoo.py does)";
  const char* rtol_s = std::getenv("FXWASM_ZOO_RTOL");
  const char* atol_s = std::getenv("FXWASM_ZOO_ATOL");
  const double rtol = rtol_s ? std::atof(rtol_s) : 1e-4, atol = atol_s ? std::atof(atol_s) : 1e-5;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".fxw") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  int failed = 0;
  for (const std::string& f : files) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string r = run_and_compare(f, rtol, atol);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const std::string name = fs::path(f).stem().string();
    if (r.empty()) std::cout << "ZOO PASS " << name << " " << static_cast<int64_t>(ms) << std::endl;
    else std::cout << "ZOO FAIL " << name << ": " << r << std::endl, ++failed;
  }
  EXPECT_EQ(failed, 0);
}

}  // namespace
}  // namespace fx
