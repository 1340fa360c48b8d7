// Argument parsing by torch's signature: "add(input|self, other, *, alpha=1)". Each parameter may be
// given by position (before `*`) or by keyword (any of its '|'-separated names: torch says `input`,
// aten says `self`); defaults are None, True, False, ints, floats or 'strings'. Errors read like
// Python's: "add() missing required argument 'other'".
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/number.h"
#include "ops/registry.h"

namespace fx {

class Schema;

class Args {
 public:
  const Object& operator[](size_t i) const { return values_.at(i); }
  bool given(size_t i) const { return i < values_.size() && (given_ >> i & 1); }
  bool is_none(size_t i) const;

  // Typed access; FxError naming the op and the parameter on a wrong kind.
  const Tensor& tensor(size_t i) const;
  Number number(size_t i) const;
  int64_t integer(size_t i) const;
  bool boolean(size_t i) const;
  std::string str(size_t i) const;
  std::optional<DType> dtype(size_t i) const;  // None → nullopt
  // An int or a sequence of ints (dim=1 or dim=(0, 2)); None → nullopt.
  std::optional<std::vector<int64_t>> int_list(size_t i) const;

 private:
  friend class Schema;
  [[noreturn]] void wrong(size_t i, const char* expected) const;
  const Schema* schema_ = nullptr;
  std::vector<Object> values_;
  uint64_t given_ = 0;  // bit i: parameter i was passed (a schema has at most 64 parameters)
};

class Schema {
 public:
  explicit Schema(const std::string& signature);  // FxError on a malformed signature (a bug)
  Args parse(const OpCall& call) const;
  const std::string& op() const { return op_; }
  const std::string& param_name(size_t i) const { return params_.at(i).names.front(); }

 private:
  struct Param {
    std::vector<std::string> names;
    bool kw_only = false;
    bool has_default = false;
    Object default_value;
  };
  std::string op_;
  std::vector<Param> params_;
  size_t positional_ = 0;  // parameters before `*`
};

}  // namespace fx
