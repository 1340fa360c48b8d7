#include "tensor/broadcast.h"

#include <xtensor/xexception.hpp>
#include <xtensor/xstrides.hpp>

#include "support/error.h"

namespace fx {

namespace {

// torch's wording for two shapes that do not broadcast: the first clash from the right, numbered as a
// dim of the broadcast result.
FxError mismatch(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const int64_t da = a[a.size() - 1 - i], db = b[b.size() - 1 - i];
    if (da != db && da != 1 && db != 1)
      return FxError("The size of tensor a (" + std::to_string(da) + ") must match the size of tensor b (" +
                     std::to_string(db) + ") at non-singleton dimension " + std::to_string(n - 1 - i));
  }
  return FxError("cannot broadcast " + shape_to_string(a) + " with " + shape_to_string(b));
}

}  // namespace

// xtensor's rule is torch's (right-aligned; a 1 or a missing dim stretches; 0 meets only 0 or 1):
// xt::broadcast_shape folds each shape into a result of ones. Only torch's error message is ours.
Shape broadcast_shapes(const Shape& a, const Shape& b) {
  Shape out(std::max(a.size(), b.size()), 1);
  try {
    xt::broadcast_shape(a, out);
    xt::broadcast_shape(b, out);
  } catch (const xt::broadcast_error&) {
    throw mismatch(a, b);
  }
  return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t n = 0;
  for (const Shape& s : shapes) n = std::max(n, s.size());
  Shape out(n, 1);
  size_t folded = 0;  // rank of the shapes folded so far: torch names the clash against their broadcast
  for (const Shape& s : shapes) {
    try {
      xt::broadcast_shape(s, out);
    } catch (const xt::broadcast_error&) {
      // The clash's dim is untouched in `out` (xtensor writes from the right and stops there).
      throw mismatch(Shape(out.end() - static_cast<std::ptrdiff_t>(folded), out.end()), s);
    }
    folded = std::max(folded, s.size());
  }
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
