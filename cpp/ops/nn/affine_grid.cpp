// affine_grid: the sampling grid [N, (D,) H, W, 2|3] of a batch of affine matrices theta [N, 2, 3] or
// [N, 3, 4]: each output point is theta · (x, y, (z,) 1) over the base grid of normalised coordinates
// (torch's linspace_from_neg_one). Names: F.affine_grid, torch.affine_grid_generator / aten's.
#include <algorithm>

#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

// torch.linspace(-1, 1, steps), scaled by (steps - 1) / steps when not align_corners; [0] for one step.
template <typename T>
std::vector<T> base_coords(int64_t steps, bool align) {
  std::vector<T> v(static_cast<size_t>(std::max<int64_t>(steps, 0)), T(0));
  if (steps <= 1) return v;
  const T step = static_cast<T>(2) / static_cast<T>(steps - 1);
  const int64_t half = steps / 2;
  for (int64_t i = 0; i < steps; ++i)
    v[i] = i < half ? T(-1) + step * static_cast<T>(i) : T(1) - step * static_cast<T>(steps - 1 - i);
  if (!align)
    for (T& x : v) x = x * (static_cast<T>(steps - 1) / static_cast<T>(steps));
  return v;
}

// theta: packed [N, S, S+1]; sz: the S spatial sizes (D,) H, W; out: packed [N, prod(sz), S].
template <typename T, int S>
void affine_grid_kernel(const T* theta, T* out, int64_t N, const int64_t* sz, bool align) {
  std::vector<T> axis[S];  // axis[k]: coordinates of x (k = 0), y, z — x runs over the last dim
  for (int k = 0; k < S; ++k) axis[k] = base_coords<T>(sz[S - 1 - k], align);
  int64_t points = 1;
  for (int d = 0; d < S; ++d) points *= sz[d];
  for (int64_t n = 0; n < N; ++n) {
    const T* th = theta + n * S * (S + 1);
    for (int64_t p = 0; p < points; ++p) {
      T base[S + 1];
      int64_t rest = p;
      for (int k = 0; k < S; ++k) {  // k = 0 is the fastest-varying (last) dim
        const int64_t size = sz[S - 1 - k];
        base[k] = axis[k][rest % size];
        rest /= size;
      }
      base[S] = 1;
      for (int j = 0; j < S; ++j) {
        T acc = 0;
        for (int k = 0; k <= S; ++k) acc += base[k] * th[j * (S + 1) + k];
        out[(n * points + p) * S + j] = acc;
      }
    }
  }
}

Tensor affine_grid_tensor(const Tensor& theta, const std::vector<int64_t>& size, bool align) {
  const int S = static_cast<int>(size.size()) - 2;
  Tensor th = float_contiguous(theta, "affine_grid_generator");
  Shape out_shape = {size[0]};
  out_shape.insert(out_shape.end(), size.begin() + 2, size.end());
  out_shape.push_back(S);
  Tensor out = Tensor::empty(out_shape, th.dtype());
  dispatch_float(th.dtype(), "affine_grid_generator", [&](auto tag) {
    using T = decltype(tag);
    if (S == 2) affine_grid_kernel<T, 2>(th.data<T>(), out.data<T>(), size[0], size.data() + 2, align);
    else affine_grid_kernel<T, 3>(th.data<T>(), out.data<T>(), size[0], size.data() + 2, align);
  });
  return restore_dtype(out, theta.dtype());
}

void check_theta(const Tensor& theta, const std::vector<int64_t>& size) {
  const std::string sz = "[" + [&] {
    std::string s;
    for (size_t i = 0; i < size.size(); ++i) s += (i ? ", " : "") + std::to_string(size[i]);
    return s;
  }() + "]";
  if (size.size() != 4 && size.size() != 5)
    throw FxError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
                  "Got size " + sz + ".");
  const int64_t S = static_cast<int64_t>(size.size()) - 2;
  if (theta.dim() != 3 || theta.shape()[1] != S || theta.shape()[2] != S + 1)
    throw FxError(std::string("Expected a batch of ") + (S == 2 ? "2D affine matrices of shape Nx2x3" :
                  "3D affine matrices of shape Nx3x4") + " for size " + sz + ". Got torch.Size(" +
                  shape_to_string(theta.shape()) + ").");
  if (theta.shape()[0] != size[0])
    throw FxError("affine_grid_generator: theta has " + std::to_string(theta.shape()[0]) +
                  " matrices for a batch of " + std::to_string(size[0]));
}

Object f_affine_grid_op(const OpCall& call) {
  static const Schema schema("affine_grid(theta, size, align_corners=None)");
  Args a = schema.parse(call);
  const Tensor& theta = a.tensor(0);
  const std::vector<int64_t> size = *a.int_list(1);
  const bool align = !a.is_none(2) && a.boolean(2);
  if (!dtype_is_floating(theta.dtype()))
    throw FxError(std::string("Expected theta to have floating point type, but got torch.") +
                  dtype_name(theta.dtype()));
  check_theta(theta, size);
  const bool unit_span = align && *std::min_element(size.begin() + 2, size.end()) == 1;  // torch only warns
  if (!unit_span && *std::min_element(size.begin(), size.end()) <= 0) {
    std::string s;
    for (size_t i = 0; i < size.size(); ++i) s += (i ? ", " : "") + std::to_string(size[i]);
    throw FxError("Expected non-zero, positive output size. Got [" + s + "]");
  }
  return affine_grid_tensor(theta, size, align);
}

Object affine_grid_generator_op(const OpCall& call) {
  static const Schema schema("affine_grid_generator(theta, size, align_corners)");
  Args a = schema.parse(call);
  const std::vector<int64_t> size = *a.int_list(1);
  check_theta(a.tensor(0), size);
  return affine_grid_tensor(a.tensor(0), size, a.boolean(2));
}

const OpRegistrar reg_f{OpDef{"torch.nn.functional.affine_grid", {}, {}, f_affine_grid_op}};
const OpRegistrar reg_gen{OpDef{"torch.affine_grid_generator", {"aten.affine_grid_generator.default"}, {},
                                affine_grid_generator_op}};

}  // namespace
}  // namespace fx
