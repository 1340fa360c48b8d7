// The differential test on extreme values: every case of tests/golden/extreme_values.json (made by
// tests/golden/gen_extreme_values.py from the whole op-case suite, with inputs filled with ±0, ±inf, NaN,
// the dtype's min/max, or emptied) must agree with the reference torch: the same dtype, shape and values
// (NaN where torch has NaN, infinities of the same sign), an FxError where torch raised (its wording is not
// compared: these are inputs torch's own checks catch in many different places), a result where torch
// returned. A case marked "xfail" is a known disagreement: printed with its reason, and a failure once it
// agrees (so the list cannot go stale).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "golden_decode.h"
#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

using json = nlohmann::json;

bool same_number(double got, double want, double rtol, double atol) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// "" when `got` agrees with `want`, else what differs.
std::string disagreement(const Object& got, const Object& want) {
  if (got.kind() != want.kind()) return "got " + got.describe() + ", want " + want.describe();
  if (want.is_tensor()) {
    const Tensor& g = got.tensor();
    const Tensor& w = want.tensor();
    if (g.dtype() != w.dtype()) return std::string("dtype ") + dtype_name(g.dtype()) + ", want " + dtype_name(w.dtype());
    if (g.shape() != w.shape()) return "shape " + shape_to_string(g.shape()) + ", want " + shape_to_string(w.shape());
    Tensor gf = to_dtype(g, DType::Float64).contiguous(), wf = to_dtype(w, DType::Float64).contiguous();
    const bool half = w.dtype() == DType::Float16 || w.dtype() == DType::BFloat16;
    const double rtol = half ? 1e-2 : w.dtype() == DType::Float32 ? 1e-4 : 1e-9, atol = rtol * 1e-2;
    for (int64_t i = 0; i < w.numel(); ++i) {
      const double a = gf.data<double>()[i], b = wf.data<double>()[i];
      if (!same_number(a, b, rtol, atol)) {
        std::ostringstream s;
        s << "at " << i << ": got " << a << ", want " << b;
        return s.str();
      }
    }
    return "";
  }
  if (want.is_sequence()) {
    if (got.items().size() != want.items().size()) return "sequence length differs";
    for (size_t i = 0; i < want.items().size(); ++i) {
      std::string d = disagreement(got.items()[i], want.items()[i]);
      if (!d.empty()) return "item " + std::to_string(i) + ": " + d;
    }
    return "";
  }
  const Value& g = got.value();
  const Value& w = want.value();
  if (g.kind() != w.kind()) return "got " + g.repr() + ", want " + w.repr();
  if (w.kind() == ValueKind::Float)
    return same_number(g.as_float(), w.as_float(), 1e-12, 0) ? "" : "got " + g.repr() + ", want " + w.repr();
  return g == w ? "" : "got " + g.repr() + ", want " + w.repr();
}

// What fxwasm does with one case: "" when it agrees with torch.
std::string check_case(const json& c) {
  const std::string target = c.at("target").get<std::string>();
  const bool method = c.at("call").get<std::string>() == "method";
  const OpDef* def = method ? OpRegistry::global().find_method(target) : OpRegistry::global().find_function(target);
  if (!def) return "no op for " + target;
  OpCall call;
  for (const json& a : c.at("args")) call.args.push_back(golden::decode(a));
  for (const auto& [k, v] : c.at("kwargs").items()) call.kwargs.emplace_back(k, golden::decode(v));
  Object got;
  try {
    got = def->run(call);
  } catch (const FxError& e) {
    if (c.contains("error")) return "";
    return std::string("an error where torch returns: ") + e.what();
  }
  if (c.contains("error")) return "a result where torch raises '" + c.at("error").get<std::string>() + "': " + got.describe();
  return disagreement(got, golden::decode(c.at("expected")));
}

TEST(OpExtremeValues, AgreeWithReferenceTorch) {
  std::ifstream in(std::string(FXWASM_SOURCE_DIR) + "/tests/golden/extreme_values.json");
  ASSERT_TRUE(in.good()) << "run tests/golden/gen_extreme_values.py";
  const json doc = json::parse(in);
  int checked = 0, xfails = 0;
  static const bool trace = std::getenv("FXWASM_GOLDEN_TRACE") != nullptr;  // each id first (to find a crash)
  for (const json& c : doc.at("cases")) {
    const std::string id = c.at("id").get<std::string>();
    if (trace) std::cerr << "[ case ] " << id << std::endl;
    std::string why;
    try {
      why = check_case(c);
    } catch (const std::exception& e) {  // a non-FxError escaping an op is a bug too
      why = std::string("non-FxError exception: ") + e.what();
    }
    if (c.contains("xfail")) {
      ++xfails;
      if (why.empty()) ADD_FAILURE() << id << ": marked xfail (" << c.at("xfail").get<std::string>() << ") but agrees now";
      else std::cout << "[ xfail  ] " << id << ": " << c.at("xfail").get<std::string>() << " (" << why << ")\n";
    } else if (!why.empty()) {
      ADD_FAILURE() << id << ": " << why;
    }
    ++checked;
  }
  std::cout << "[ extreme ] " << checked << " cases, " << xfails << " known disagreements listed above\n";
  EXPECT_GT(checked, 3000);
}

}  // namespace
}  // namespace fx
