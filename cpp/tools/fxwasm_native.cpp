// fxwasm_native: the core as a native command, for checking many files quickly (the torchvision zoo,
// tests/corpus/zoo.py) and for profiling outside the browser.
//   fxwasm_native check FILE... [--rtol R] [--atol A]
// prints "PASS <stem> <ms>" or "FAIL <stem>: <why>" per file; exit 0 when all pass, 1 otherwise, 2 on usage.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "api/model.h"
#include "support/error.h"

namespace {

std::string check_file(const std::string& path, double rtol, double atol) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read the file";
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    auto model = fx::Model::load(bytes.data(), bytes.size(), path);
    fx::CheckReport report = model->check(rtol, atol);
    if (report.status == fx::CheckStatus::NoReference) return "no reference in file";
    std::string why;
    for (const fx::LeafCheck& c : report.outputs)
      if (!c.pass)
        why += "output" + c.path + ": " +
               (c.message.empty() ? "max_abs " + std::to_string(c.max_abs) + " max_rel " + std::to_string(c.max_rel)
                                  : c.message) + "; ";
    return why;
  } catch (const std::exception& e) {
    return e.what();
  }
}

int usage() {
  std::cerr << "usage: fxwasm_native check FILE... [--rtol R] [--atol A]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::string(argv[1]) != "check") return usage();
  double rtol = 1e-4, atol = 1e-5;
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--rtol" || a == "--atol") && i + 1 < argc) (a == "--rtol" ? rtol : atol) = std::atof(argv[++i]);
    else if (a.rfind("--", 0) == 0) return usage();
    else files.push_back(a);
  }
  if (files.empty()) return usage();
  int failed = 0;
  for (const std::string& f : files) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string why = check_file(f, rtol, atol);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const std::string stem = std::filesystem::path(f).stem().string();
    if (why.empty()) std::cout << "PASS " << stem << " " << static_cast<long long>(ms) << std::endl;
    else std::cout << "FAIL " << stem << ": " << why << std::endl, ++failed;
  }
  return failed ? 1 : 0;
}
