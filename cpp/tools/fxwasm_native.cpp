// fxwasm_native: the core as a native command, for checking many files quickly (the torchvision zoo,
// tests/corpus/zoo.py) and for profiling outside the browser.
//   fxwasm_native check FILE... [--rtol R] [--atol A] [--equal-nan]
// (--equal-nan: NaN counts equal to NaN, as in tests/python/check_many.mjs) prints "PASS <stem> <ms>" or "FAIL <stem>: <why>" per file; exit 0 when all pass, 1 otherwise, 2 on usage.
//   fxwasm_native bench FILE [--runs N] [--threads T]
// loads FILE, runs its reference inputs N times (default 200) and prints the load time and the median and
// best run times in ms (a native view of the per-run cost, e.g. under perf) with T kernel threads (default 1).
//   fxwasm_native ops
// prints what the runtime supports as JSON (api/supported.h), as `fxwasm ops --json` does from the wasm.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "api/model.h"
#include "api/supported.h"
#include "kernels/parallel.h"
#include "support/error.h"

namespace {

std::string check_file(const std::string& path, double rtol, double atol, bool equal_nan) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read the file";
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    auto model = fx::Model::load(bytes.data(), bytes.size(), path);
    fx::CheckReport report = model->check(rtol, atol, equal_nan);
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
  std::cerr << "usage: fxwasm_native check FILE... [--rtol R] [--atol A] [--equal-nan]\n"
               "       fxwasm_native bench FILE [--runs N] [--threads T]\n";
  return 2;
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int bench(const std::string& path, int runs) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path << ": cannot read the file\n";
    return 1;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    auto t0 = Clock::now();
    auto model = fx::Model::load(bytes.data(), bytes.size(), path);
    const double load_ms = ms_since(t0);
    const fx::Reference& ref = model->graph_module().reference();
    if (!ref.present) {
      std::cerr << path << ": no reference inputs in the file\n";
      return 1;
    }
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
      t0 = Clock::now();
      model->run(ref.inputs);
      times.push_back(ms_since(t0));
    }
    std::sort(times.begin(), times.end());
    std::cout << "load " << load_ms << " ms, run median " << times[times.size() / 2] << " ms, best " << times[0]
              << " ms (" << runs << " runs)" << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "ops") {
    std::cout << fx::supported_ops_json() << "\n";
    return 0;
  }
  if (argc >= 3 && std::string(argv[1]) == "bench") {
    int runs = 200, threads = 1;
    for (int i = 3; i < argc; i += 2) {
      const std::string a = argv[i];
      if (i + 1 >= argc || (a != "--runs" && a != "--threads")) return usage();
      (a == "--runs" ? runs : threads) = std::atoi(argv[i + 1]);
    }
    if (runs <= 0 || threads <= 0) return usage();
    fx::kernels::set_num_threads(threads);
    return bench(argv[2], runs);
  }
  if (argc < 3 || std::string(argv[1]) != "check") return usage();
  double rtol = 1e-4, atol = 1e-5;
  bool equal_nan = false;
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--rtol" || a == "--atol") && i + 1 < argc) (a == "--rtol" ? rtol : atol) = std::atof(argv[++i]);
    else if (a == "--equal-nan") equal_nan = true;
    else if (a.rfind("--", 0) == 0) return usage();
    else files.push_back(a);
  }
  if (files.empty()) return usage();
  int failed = 0;
  for (const std::string& f : files) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string why = check_file(f, rtol, atol, equal_nan);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const std::string stem = std::filesystem::path(f).stem().string();
    if (why.empty()) std::cout << "PASS " << stem << " " << static_cast<long long>(ms) << std::endl;
    else std::cout << "FAIL " << stem << ": " << why << std::endl, ++failed;
  }
  return failed ? 1 : 0;
}
