// Runs every case of tests/golden/op_cases.json (made by tests/golden/gen_op_cases.py) and of every
// tests/golden/ops/*.json (made by the generators next to them, format documented in
// tests/golden/ops/gen_shape_ops.py) from the reference torch through the op registry, and compares
// dtype, shape and values (or the error message), and for in-place ops what the arguments hold after.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "ops/array/view_util.h"
#include "golden_decode.h"

namespace fx {
namespace {

using json = nlohmann::json;

using golden::decode;

bool close(double got, double want, double rtol, double atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// Tolerances: by dtype, unless the case gives "rtol"/"atol" (ops that accumulate long sums, e.g. GEMM).
struct Tolerance {
  double rtol = -1, atol = -1;
};

void expect_same(const Object& got, const Object& want, const std::string& id, Tolerance tol = {}) {
  ASSERT_EQ(got.kind(), want.kind()) << id << ": got " << got.describe() << ", want " << want.describe();
  if (want.is_tensor()) {
    const Tensor& g = got.tensor();
    const Tensor& w = want.tensor();
    ASSERT_EQ(g.dtype(), w.dtype()) << id << ": got " << dtype_name(g.dtype());
    ASSERT_EQ(g.shape(), w.shape()) << id << ": got " << shape_to_string(g.shape());
    // (contiguous: an expected view, e.g. torch's quantile result, indexes its storage otherwise)
    Tensor gf = to_dtype(g, DType::Float64).contiguous(), wf = to_dtype(w, DType::Float64).contiguous();
    const bool half = w.dtype() == DType::Float16 || w.dtype() == DType::BFloat16;
    const double rtol = tol.rtol >= 0 ? tol.rtol : half ? 1e-3 : w.dtype() == DType::Float32 ? 1e-5 : 1e-12;
    const double atol = tol.atol >= 0 ? tol.atol : rtol * 1e-2;
    for (int64_t i = 0; i < w.numel(); ++i)
      ASSERT_TRUE(close(gf.data<double>()[i], wf.data<double>()[i], rtol, atol))
          << id << " at " << i << ": got " << gf.data<double>()[i] << ", want " << wf.data<double>()[i];
    return;
  }
  if (want.is_sequence()) {
    ASSERT_EQ(got.items().size(), want.items().size()) << id;
    for (size_t i = 0; i < want.items().size(); ++i) expect_same(got.items()[i], want.items()[i], id, tol);
    return;
  }
  const Value& g = got.value();
  const Value& w = want.value();
  ASSERT_EQ(g.kind(), w.kind()) << id << ": got " << g.repr() << ", want " << w.repr();
  if (w.kind() == ValueKind::Float) {
    EXPECT_TRUE(close(g.as_float(), w.as_float(), 1e-15, 0)) << id << ": got " << g.repr() << " want " << w.repr();
  } else {
    EXPECT_EQ(g, w) << id << ": got " << g.repr() << ", want " << w.repr();
  }
}

// Runs the cases of one golden file; returns how many were checked.
int run_cases(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  if (!in.good()) return 0;
  json doc = json::parse(in);
  int checked = 0;
  // FXWASM_GOLDEN_TRACE=1 prints each case id before running it (to find a case that crashes the process).
  static const bool trace = std::getenv("FXWASM_GOLDEN_TRACE") != nullptr;
  for (const json& c : doc.at("cases")) {
    const std::string id = path.substr(path.rfind('/') + 1) + ":" + c.at("id").get<std::string>();
    if (trace) std::cerr << "[ case ] " << id << std::endl;
    const std::string target = c.at("target").get<std::string>();
    const bool method = c.at("call").get<std::string>() == "method";
    const OpDef* def = method ? OpRegistry::global().find_method(target) : OpRegistry::global().find_function(target);
    EXPECT_NE(def, nullptr) << id << ": no op for " << target;
    if (!def) continue;
    OpCall call;
    for (const json& a : c.at("args")) call.args.push_back(decode(a));
    for (const auto& [k, v] : c.at("kwargs").items()) call.kwargs.emplace_back(k, decode(v));
    if (c.contains("error")) {
      const std::string want = c.at("error").get<std::string>();
      try {
        Object r = def->run(call);
        ADD_FAILURE() << id << ": expected error '" << want << "', got " << r.describe();
      } catch (const FxError& e) {
        // "error_any": torch's wording is internal there (tests/golden/ops/gen_hostile_args.py)
        if (!c.value("error_any", false))
          EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << id << ": " << e.what();
      }
    } else {
      Object got;
      try {
        got = def->run(call);
      } catch (const FxError& e) {
        ADD_FAILURE() << id << ": unexpected error " << e.what();
        continue;
      }
      Tolerance tol;
      if (c.contains("rtol")) tol.rtol = c.at("rtol").get<double>();
      if (c.contains("atol")) tol.atol = c.at("atol").get<double>();
      expect_same(got, decode(c.at("expected")), id, tol);
      if (c.contains("args_after"))
        for (const auto& [i, v] : c.at("args_after").items())
          expect_same(call.args.at(std::stoul(i)), decode(v), id + " (argument " + i + " after the call)");
    }
    ++checked;
  }
  return checked;
}

TEST(OpGolden, MatchesReferenceTorch) {
  const std::string root = FXWASM_SOURCE_DIR;
  EXPECT_GT(run_cases(root + "/tests/golden/op_cases.json"), 300) << "run tests/golden/gen_op_cases.py";
}

// Every tests/golden/ops/*.json: one file per op family, each from its own generator.
TEST(OpGolden, OpFamilyFiles) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(std::string(FXWASM_SOURCE_DIR) + "/tests/golden/ops"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  for (const std::string& f : files) {
    int n = run_cases(f);
    EXPECT_GT(n, 0) << f;
    std::cout << "[ golden ] " << f.substr(f.rfind('/') + 1) << ": " << n << " cases\n";
  }
}

}  // namespace
}  // namespace fx
