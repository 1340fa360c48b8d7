// Reading a leaf module's exported hyperparameters and state, and calling ops from a bound module.
// Hyperparameters are whatever python/fxwasm/modules.py recorded (constructor arguments matched to
// attributes, then plain public attributes), so every accessor says which module and name was wrong.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "nn/registry.h"

namespace fx {

class Hparams {
 public:
  explicit Hparams(const ModuleBinding& b) : b_(b) {}
  bool has(const std::string& name) const;        // present and not None
  const Value& get(const std::string& name) const;  // FxError when missing
  int64_t integer(const std::string& name) const;
  int64_t integer_or(const std::string& name, int64_t fallback) const;
  double number(const std::string& name) const;
  double number_or(const std::string& name, double fallback) const;
  bool boolean_or(const std::string& name, bool fallback) const;
  std::string str_or(const std::string& name, const std::string& fallback) const;
  std::vector<int64_t> ints(const std::string& name) const;  // an int or a tuple of ints
  // The hparam as a call argument (None when missing).
  Object object(const std::string& name) const;
  // The module's tensor `name`; FxError when required and missing.
  Tensor tensor(const std::string& name, bool required = true) const;

 private:
  const ModuleBinding& b_;
};

// An op looked up once, at bind time (FxError naming the target when the runtime lacks it).
class OpRef {
 public:
  explicit OpRef(const std::string& target);
  Object operator()(std::vector<Object> args, std::vector<std::pair<std::string, Object>> kwargs = {}) const;

 private:
  const OpDef* def_;
};

}  // namespace fx
