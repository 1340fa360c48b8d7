// Comparing a run's outputs with expected ones, as `fxwasm check` reports them: the outputs are flattened
// to their leaves (tensors and scalars) and each leaf is compared like torch.allclose: equal numbers pass
// (so do infinities of the same sign), any other pair with a NaN or an infinity fails (NaN against NaN
// passes only with equal_nan, as torch.allclose(..., equal_nan=True)), and finite ones pass when
// |actual - expected| <= atol + rtol * |expected|.
#pragma once
#include <string>
#include <vector>

#include "program/object.h"

namespace fx {

struct LeafCheck {
  std::string path;       // where the leaf sits in the output: "[0]", "[1][0]", "['logits']", "" for a bare leaf
  std::string expected;   // Object::describe() of the expected leaf
  std::string actual;     // Object::describe() of the computed leaf
  double max_abs = 0.0;   // max |actual - expected|
  double max_rel = 0.0;   // max |actual - expected| / |expected| over elements where expected != 0
  int64_t mismatched = 0; // elements outside tolerance
  int64_t numel = 0;
  bool pass = true;
  std::string message;    // why it failed when the structure, shape or dtype differs
};

enum class CheckStatus { Pass, Fail, NoReference };
const char* check_status_name(CheckStatus s);  // "pass", "fail", "no_reference"

struct CheckReport {
  CheckStatus status = CheckStatus::NoReference;
  double rtol = 0.0, atol = 0.0;
  bool equal_nan = false;
  std::vector<LeafCheck> outputs;
  std::string to_json() const;  // {"status", "rtol", "atol", "equal_nan", "outputs": [{path, pass, max_abs, ...}]}
};

// Compares two output structures leaf by leaf; a structural difference is one failing leaf.
std::vector<LeafCheck> compare_outputs(const Object& actual, const Object& expected, double rtol, double atol,
                                      bool equal_nan = false);

}  // namespace fx
