// Numerical integration and differentiation along a dim, composed from tensor ops in the order torch
// composes them (so float32 rounds alike): trapezoid / trapz (sample points x or a constant spacing dx),
// cumulative_trapezoid, and gradient (central differences inside, first- or second-order one-sided
// differences at the edges; uniform spacing or coordinates per dim).
#include <algorithm>
#include <string>
#include <vector>

#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }
Object number(double v) { return Object(Value::floating(v)); }
Object add(const Object& a, const Object& b) { return call_op("torch.add", {a, b}); }
Object sub(const Object& a, const Object& b) { return call_op("torch.sub", {a, b}); }
Object mul(const Object& a, const Object& b) { return call_op("torch.mul", {a, b}); }
Object div(const Object& a, const Object& b) { return call_op("torch.div", {a, b}); }

// x[start:stop] along dim (Python slice bounds, negative from the end)
Object slice(const Object& x, int64_t dim, int64_t start, int64_t stop) {
  const int64_t n = x.tensor().shape()[dim];
  if (start < 0) start += n;
  if (stop < 0) stop += n;
  return call_op("torch.narrow", {x, integer(dim), integer(start), integer(std::max<int64_t>(stop - start, 0))});
}
Object slice_from(const Object& x, int64_t dim, int64_t start) {
  return slice(x, dim, start, x.tensor().shape()[dim]);
}

Tensor zeros_except(const Tensor& y, int64_t dim) {
  Shape shape = y.shape();
  shape.erase(shape.begin() + dim);
  return Tensor::zeros(shape, dtype_is_floating(y.dtype()) ? y.dtype() : kDefaultFloat);
}

// The spacing between sample points along dim: x's differences, x 1-d (one per sample) or broadcastable.
Object spacing_of(const Tensor& y, const Tensor& x, int64_t dim) {
  Object xv(x);
  if (x.dim() == 1) {
    if (x.shape()[0] != y.shape()[dim]) throw FxError("trapezoid: There must be one `x` value for each sample point");
    Shape shape(static_cast<size_t>(y.dim()), 1);
    shape[dim] = x.shape()[0];
    xv = Object(reshape(x, shape));
  } else if (x.dim() < y.dim()) {
    Shape shape(static_cast<size_t>(y.dim() - x.dim()), 1);
    shape.insert(shape.end(), x.shape().begin(), x.shape().end());
    xv = Object(reshape(x, shape));
  }
  return sub(slice_from(xv, dim, 1), slice(xv, dim, 0, -1));
}

Object trapezoid_impl(const Args& a, bool has_x, const Object& dx_arg, int64_t dim0) {
  const Tensor& y = a.tensor(0);
  if (y.dtype() == DType::Bool) throw FxError("trapezoid: received a bool input for `y`, but bool is not supported");
  const int64_t dim = checked_dim(dim0, y.dim());
  if (y.shape()[dim] == 0) return zeros_except(y, dim);
  const Object ys(y);
  if (has_x) {
    // ((dx * (y[1:] + y[:-1])) / 2).sum(dim)
    Object dx = spacing_of(y, a.tensor(1), dim);
    Object s = div(mul(dx, add(slice_from(ys, dim, 1), slice(ys, dim, 0, -1))), number(2.0));
    return call_op("torch.sum", {s, integer(dim)});
  }
  // (y.sum(dim) - (y[0] + y[-1]) * 0.5) * dx
  Object ends = add(call_op("torch.select", {ys, integer(dim), integer(0)}),
                    call_op("torch.select", {ys, integer(dim), integer(-1)}));
  return mul(sub(call_op("torch.sum", {ys, integer(dim)}), mul(ends, number(0.5))), dx_arg);
}

// trapezoid(y, x=None, *, dx=None, dim=-1); trapz(y, x, *, dim=-1) | trapz(y, *, dx=1, dim=-1)
Object trapezoid_op(const OpCall& call) {
  static const Schema schema("trapezoid(y, x=None, *, dx=None, dim=-1)");
  Args a = schema.parse(call);
  if (!a.is_none(1) && !a.is_none(2)) throw FxError("trapezoid: received both `x` and `dx`; pass only one");
  const bool has_x = !a.is_none(1) && a[1].is_tensor();
  const Object dx = has_x ? Object() : !a.is_none(1) ? a[1] : a.is_none(2) ? number(1.0) : a[2];
  return trapezoid_impl(a, has_x, dx, a.integer(3));
}

Object trapz_op(const OpCall& call) {
  static const Schema schema("trapz(y, x=None, *, dx=None, dim=-1)");
  Args a = schema.parse(call);
  const bool has_x = !a.is_none(1) && a[1].is_tensor();
  const Object dx = has_x ? Object() : !a.is_none(1) ? a[1] : a.is_none(2) ? number(1.0) : a[2];
  return trapezoid_impl(a, has_x, dx, a.integer(3));
}

// cumulative_trapezoid(y, x=None, *, dx=None, dim=-1): the running sums of the trapezoids
Object cumulative_trapezoid_op(const OpCall& call) {
  static const Schema schema("cumulative_trapezoid(y, x=None, *, dx=None, dim=-1)");
  Args a = schema.parse(call);
  const Tensor& y = a.tensor(0);
  if (y.dtype() == DType::Bool)
    throw FxError("cumulative_trapezoid: received a bool input for `y`, but bool is not supported");
  const int64_t dim = checked_dim(a.integer(3), y.dim());
  const Object ys(y);
  const Object pair = add(slice(ys, dim, 0, -1), slice_from(ys, dim, 1));
  Object terms;
  if (!a.is_none(1) && a[1].is_tensor()) {
    terms = div(mul(spacing_of(y, a.tensor(1), dim), pair), number(2.0));  // (dx * (y[:-1] + y[1:])) / 2
  } else {
    const double dx = !a.is_none(1) ? a.number(1).as_double() : a.is_none(2) ? 1.0 : a.number(2).as_double();
    terms = mul(number(dx / 2.0), pair);  // dx / 2 * (y[:-1] + y[1:])
  }
  return call_op("torch.cumsum", {terms, integer(dim)});
}

// gradient(input, *, spacing=1, dim=None, edge_order=1): one tensor per dim
Object gradient_op(const OpCall& call) {
  static const Schema schema("gradient(input|self, *, spacing=None, dim=None, edge_order=1)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t edge = a.integer(3);
  if (edge != 1 && edge != 2) throw FxError("torch.gradient only supports edge_order=1 and edge_order=2.");
  std::vector<int64_t> dims;
  if (a.is_none(2)) for (int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
  else {
    const std::vector<int64_t> given = *a.int_list(2);
    for (int64_t d : given) dims.push_back(checked_dim(d, x.dim()));
  }
  // spacing: None (1), one number for all dims, or one number or coordinate tensor per dim
  std::vector<Object> spacing;
  if (a.is_none(1)) spacing.assign(dims.size(), number(1.0));
  else if (!a[1].is_sequence()) spacing.assign(dims.size(), a[1]);
  else spacing = a[1].items();
  if (spacing.size() == 1 && dims.size() > 1) spacing.assign(dims.size(), spacing[0]);
  if (spacing.size() != dims.size())
    throw FxError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments "
                  "to have the same length, but got a spacing argument of length " + std::to_string(spacing.size()) +
                  " and a dim argument of length " + std::to_string(dims.size()) + ".");
  const Object xs(x);
  std::vector<Object> out;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    if (x.shape()[d] < edge + 1)
      throw FxError("torch.gradient expected each dimension size to be at least edge_order+1");
    auto s = [&](int64_t lo, int64_t hi) { return slice(xs, d, lo, hi); };
    const int64_t n = x.shape()[d];
    Object center, prepend, append;
    if (spacing[i].is_tensor() && spacing[i].tensor().dim() == 1) {
      const Tensor& coord = spacing[i].tensor();
      if (coord.shape()[0] != n)
        throw FxError("torch.gradient expected each tensor to be on the same device and to have as many values as "
                      "the input along its dim");
      Object h = call_op("torch.diff", {spacing[i], integer(1), integer(0)});
      Shape shape(static_cast<size_t>(x.dim()), 1);
      shape[d] = -1;
      auto view = [&](const Object& t) { return Object(reshape(t.tensor().contiguous(), shape)); };
      Object h1 = slice(h, 0, 0, -1), h2 = slice_from(h, 0, 1);
      Object ca = view(div(call_op("torch.neg", {h2}), mul(h1, add(h1, h2))));
      Object cb = view(div(sub(h2, h1), mul(h1, h2)));
      Object cc = view(div(h1, mul(h2, add(h1, h2))));
      center = add(add(mul(ca, s(0, -2)), mul(cb, s(1, -1))), mul(cc, slice_from(xs, d, 2)));
      auto at = [&](int64_t k) { return call_op("torch.select", {h, integer(0), integer(k)}); };
      if (edge == 1) {
        prepend = div(sub(s(1, 2), s(0, 1)), at(0));
        append = div(sub(slice_from(xs, d, n - 1), s(-2, -1)), at(-1));
      } else {
        const Object d0 = at(0), d1 = at(1), l1 = at(-1), l2 = at(-2);
        Object pa = div(call_op("torch.neg", {add(mul(number(2.0), d0), d1)}), mul(d0, add(d0, d1)));
        Object pb = div(add(d0, d1), mul(d0, d1));
        Object pc = div(call_op("torch.neg", {d0}), mul(d1, add(d0, d1)));
        prepend = add(add(mul(pa, s(0, 1)), mul(pb, s(1, 2))), mul(pc, s(2, 3)));
        Object qa = div(l1, mul(l2, add(l1, l2)));
        Object qb = div(call_op("torch.neg", {add(l1, l2)}), mul(l1, l2));
        Object qc = div(add(mul(number(2.0), l1), l2), mul(l1, add(l1, l2)));
        append = add(add(mul(qa, s(-3, -2)), mul(qb, s(-2, -1))), mul(qc, slice_from(xs, d, n - 1)));
      }
    } else {
      const Object h = spacing[i];
      center = div(div(sub(slice_from(xs, d, 2), s(0, -2)), h), number(2.0));
      if (edge == 1) {
        prepend = div(sub(s(1, 2), s(0, 1)), h);
        append = div(sub(slice_from(xs, d, n - 1), s(-2, -1)), h);
      } else {
        prepend = div(sub(add(mul(s(0, 1), number(-1.5)), mul(s(1, 2), number(2.0))), mul(s(2, 3), number(0.5))), h);
        append = div(add(add(mul(s(-3, -2), number(0.5)), mul(s(-2, -1), number(-2.0))),
                         mul(slice_from(xs, d, n - 1), number(1.5))), h);
      }
    }
    out.push_back(call_op("torch.cat", {Object::list({prepend, center, append}), integer(d)}));
  }
  return Object::tuple(std::move(out));
}

const OpRow kOps[] = {
    {"torch.trapezoid", "aten.trapezoid.x aten.trapezoid.dx", "", trapezoid_op},
    {"torch.trapz", "aten.trapz.x aten.trapz.dx", "", trapz_op},
    {"torch.cumulative_trapezoid", "aten.cumulative_trapezoid.x aten.cumulative_trapezoid.dx", "",
     cumulative_trapezoid_op},
    {"torch.gradient", "aten.gradient.scalarint aten.gradient.scalararray aten.gradient.array "
                       "aten.gradient.scalarrayint aten.gradient.scalarrayarray aten.gradient.tensorarrayint "
                       "aten.gradient.tensorarray", "", gradient_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
