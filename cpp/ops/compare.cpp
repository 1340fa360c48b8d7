// Comparisons lt, le, gt, ge, eq, ne: operands are promoted to their common dtype and compared there;
// the result is a bool tensor (or a Python bool when both operands are Python numbers).
#include "ops/elementwise.h"
#include "ops/registry.h"
#include "ops/schema.h"

namespace fx {
namespace {

template <PyBinary kOp>
Object compare_op(const OpCall& call) {
  static const char* names[] = {"lt", "le", "gt", "ge", "eq", "ne"};
  static const char* name = names[static_cast<int>(kOp) - static_cast<int>(PyBinary::Lt)];
  static const Schema schema(std::string(name) + "(input|self, other)");
  Args args = schema.parse(call);
  if (is_number(args[0]) && is_number(args[1]))
    return py_binary(kOp, args.number(0), args.number(1)).to_object();
  Operand a = Operand::of(args[0], name, "input"), b = Operand::of(args[1], name, "other");
  return binary_map<true>(a, b, result_type({a, b}), name, [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) -> bool {
      if constexpr (kOp == PyBinary::Lt) return x < y;
      else if constexpr (kOp == PyBinary::Le) return x <= y;
      else if constexpr (kOp == PyBinary::Gt) return x > y;
      else if constexpr (kOp == PyBinary::Ge) return x >= y;
      else if constexpr (kOp == PyBinary::Eq) return x == y;
      else return x != y;
    };
  });
}

// long_name: torch's spelled-out alias (torch.less); empty for eq, whose torch.equal means something else.
OpDef compare_def(const std::string& n, const std::string& long_name, OpFn fn) noexcept {
  OpDef d{"torch." + n,
          {"operator." + n, "torch.Tensor." + n, "aten." + n + ".Tensor", "aten." + n + ".Scalar"},
          {n, "__" + n + "__"},
          fn};
  if (!long_name.empty()) {
    d.functions.push_back("torch." + long_name);
    d.functions.push_back("torch.Tensor." + long_name);
    d.methods.push_back(long_name);
  }
  return d;
}

const OpRegistrar reg_lt{compare_def("lt", "less", compare_op<PyBinary::Lt>)};
const OpRegistrar reg_le{compare_def("le", "less_equal", compare_op<PyBinary::Le>)};
const OpRegistrar reg_gt{compare_def("gt", "greater", compare_op<PyBinary::Gt>)};
const OpRegistrar reg_ge{compare_def("ge", "greater_equal", compare_op<PyBinary::Ge>)};
const OpRegistrar reg_eq{compare_def("eq", "", compare_op<PyBinary::Eq>)};
const OpRegistrar reg_ne{compare_def("ne", "not_equal", compare_op<PyBinary::Ne>)};

}  // namespace
}  // namespace fx
