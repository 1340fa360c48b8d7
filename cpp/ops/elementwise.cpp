#include "ops/elementwise.h"

#include "support/error.h"

namespace fx {

Operand Operand::of(const Object& o, const std::string& op, const std::string& arg) {
  Operand r;
  if (o.is_tensor()) {
    r.tensor = o.tensor();
    FX_CHECK(r.tensor.defined(), op + "(): argument '" + arg + "' is an undefined tensor");
  } else if (is_number(o)) {
    r.is_scalar = true;
    r.number = to_number(o);
  } else {
    throw FxError(op + "(): argument '" + arg + "' must be Tensor or Number, not " + o.describe());
  }
  return r;
}

DType result_type(const std::vector<Operand>& operands) {
  ResultType rt;
  for (const Operand& o : operands) {
    if (o.is_scalar) rt.add_scalar(o.number.kind);
    else rt.add_tensor(o.tensor);
  }
  return rt.result();
}

}  // namespace fx
