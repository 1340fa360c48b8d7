// Comparisons lt, le, gt, ge, eq, ne: operands are promoted to their common dtype and compared there;
// the result is a bool tensor (or a Python bool when both operands are Python numbers). Complex operands
// take eq and ne.
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
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
  const DType common = result_type({a, b});
  if constexpr (kOp == PyBinary::Eq || kOp == PyBinary::Ne) {
    if (dtype_is_complex(common))  // complex numbers compare for equality only (torch has no complex order)
      return binary_map<true, Compute::Complex>(a, b, common, name, [](auto tag) {
        using T = decltype(tag);
        return [](T x, T y) -> bool { return kOp == PyBinary::Eq ? x == y : x != y; };
      });
  }
  return binary_map<true>(a, b, common, name, [](auto tag) {
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
const OpRow kOps[] = {
    {"torch.lt", "operator.lt torch.Tensor.lt aten.lt.Tensor aten.lt.Scalar torch.less torch.Tensor.less", "lt __lt__ less", compare_op<PyBinary::Lt>},
    {"torch.le", "operator.le torch.Tensor.le aten.le.Tensor aten.le.Scalar torch.less_equal torch.Tensor.less_equal", "le __le__ less_equal", compare_op<PyBinary::Le>},
    {"torch.gt", "operator.gt torch.Tensor.gt aten.gt.Tensor aten.gt.Scalar torch.greater torch.Tensor.greater", "gt __gt__ greater", compare_op<PyBinary::Gt>},
    {"torch.ge", "operator.ge torch.Tensor.ge aten.ge.Tensor aten.ge.Scalar torch.greater_equal torch.Tensor.greater_equal", "ge __ge__ greater_equal", compare_op<PyBinary::Ge>},
    {"torch.eq", "operator.eq torch.Tensor.eq aten.eq.Tensor aten.eq.Scalar", "eq __eq__", compare_op<PyBinary::Eq>},
    {"torch.ne", "operator.ne torch.Tensor.ne aten.ne.Tensor aten.ne.Scalar torch.not_equal torch.Tensor.not_equal", "ne __ne__ not_equal", compare_op<PyBinary::Ne>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
