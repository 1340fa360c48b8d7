// The op registry: every op the runtime can run, under every name FX can spell it with. An entry has a
// canonical name ("torch.abs"), call_function aliases ("aten.abs.default", "torch.Tensor.abs",
// "operator.abs"), call_method names ("abs") and one function that runs it. Ops register themselves
// from their own files (ops/math/unary_math.cpp, ...) through a static OpRegistrar, as ONNX Runtime's kernel
// files end with their registration; the fxcore OBJECT library keeps those statics in every link.
#pragma once
#include <deque>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/node.h"
#include "program/object.h"

namespace fx {

// One call: arguments already evaluated to runtime Objects, in the order and names FX recorded them.
// For call_method the tensor the method is called on is args[0] (as in FX).
struct OpCall {
  const Node* node = nullptr;  // for messages; null when an op is called directly (tests, other ops)
  std::vector<Object> args;
  std::vector<std::pair<std::string, Object>> kwargs;
};

using OpFn = Object (*)(const OpCall&);

// Shape and dtype inference (passes/shape_prop.h) runs `run` itself in meta mode (tensor/meta.h): on
// tensors with shapes and dtypes but no data, kernels skipped. `infer` replaces it when set, for an op
// whose run must read data its result's shape does not depend on. An op whose result (its shape, or
// its value for a Python number) depends on tensor values is `data_dependent`: unknown under inference,
// as on torch's meta device (tests/cpp/ops/op_infer_test.cpp lists them).
//
// Size: ~500 registrations run at startup, so every name a registration spells costs code in its static
// initializer. A list of names written as literals ({"a", "b"}) builds Names from an array of pointers
// with one out-of-line call (no std::string code inline per name), and OpDef's destructor is out of line.
// Registration helpers and OpRegistrar are noexcept: a registration that throws (a name taken twice)
// ends the program either way, as an exception out of a static initializer does, and without unwinding
// paths each registration is a handful of calls.
struct Names : std::vector<std::string> {
  Names() = default;
  Names(std::initializer_list<const char*> names) noexcept;  // literals: the common case
  Names(std::initializer_list<std::string> names);           // names built at registration ("torch." + n)
  Names(std::vector<std::string> names) : std::vector<std::string>(std::move(names)) {}
  Names(const Names&) = default;
  Names(Names&&) = default;
  Names& operator=(const Names&) = default;
  Names& operator=(Names&&) = default;
  ~Names();
};

struct OpDef {
  std::string name;      // canonical call_function target, e.g. "torch.add"
  Names functions;       // further call_function targets
  Names methods;         // call_method names
  OpFn run = nullptr;
  OpFn infer = nullptr;  // meta-mode replacement for `run` (see above); usually none
  bool data_dependent = false;  // see above

  OpDef(const OpDef&) = default;
  OpDef(OpDef&&) = default;
  OpDef& operator=(const OpDef&) = default;
  OpDef& operator=(OpDef&&) = default;
  ~OpDef();
};

class OpRegistry {
 public:
  static OpRegistry& global();

  // Registers `def` under its name and every alias; FxError if any name is already taken.
  const OpDef& add(OpDef def);
  // nullptr when unknown.
  const OpDef* find_function(const std::string& target) const;
  const OpDef* find_method(const std::string& name) const;
  // By FX call kind: CallFunction looks up functions, CallMethod methods; other kinds give nullptr.
  const OpDef* find(Op op, const std::string& target) const;
  const std::deque<OpDef>& all() const { return defs_; }

  // Calls an op by call_function target (FxError when unknown): for ops built from other ops and tests.
  Object call(const std::string& target, std::vector<Object> args,
              std::vector<std::pair<std::string, Object>> kwargs = {}) const;

 private:
  std::deque<OpDef> defs_;  // a deque keeps entries in place as more register
  std::unordered_map<std::string, const OpDef*> functions_;
  std::unordered_map<std::string, const OpDef*> methods_;
};

// `static const OpRegistrar reg{OpDef{...}};` at the end of an op file.
struct OpRegistrar {
  explicit OpRegistrar(OpDef def) noexcept;
};

}  // namespace fx
