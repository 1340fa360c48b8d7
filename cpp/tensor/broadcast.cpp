#include "tensor/broadcast.h"

#include "support/error.h"

namespace fx {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    // i counts from the right; torch reports the dim index in the broadcast result.
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      throw FxError("The size of tensor a (" + std::to_string(da) + ") must match the size of tensor b (" +
                    std::to_string(db) + ") at non-singleton dimension " + std::to_string(n - 1 - i));
    out[n - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  Shape out;
  for (const Shape& s : shapes) out = broadcast_shapes(out, s);
  return out;
}

Shape broadcast_strides(const Tensor& t, const Shape& out) {
  const Shape& shape = t.shape();
  FX_CHECK(shape.size() <= out.size(), "cannot broadcast " + shape_to_string(shape) + " to " +
                                           shape_to_string(out) + ": too many dims");
  Shape strides(out.size(), 0);
  const size_t lead = out.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == out[lead + i]) {
      strides[lead + i] = shape[i] == 1 ? 0 : t.strides()[i];
    } else if (shape[i] != 1) {
      throw FxError("The expanded size of the tensor (" + std::to_string(out[lead + i]) +
                    ") must match the existing size (" + std::to_string(shape[i]) +
                    ") at non-singleton dimension " + std::to_string(lead + i) + ".  Target sizes: " +
                    shape_to_string(out) + ".  Tensor sizes: " + shape_to_string(shape));
    }
  }
  return strides;
}

Tensor expand_to(const Tensor& t, const Shape& out) {
  return Tensor(t.storage(), t.dtype(), out, broadcast_strides(t, out), t.offset());
}

}  // namespace fx
