// torch.fft.fftshift / ifftshift: the zero-frequency term moved to the centre of each dim (and back) — a
// roll by n // 2 (fftshift) or (n + 1) // 2 (ifftshift) along each dim, all dims by default. Exact for
// any dtype; the transforms themselves are not here yet.
#include <string>
#include <vector>

#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"

namespace fx {
namespace {

template <bool kInverse>
Object fftshift_op(const OpCall& call) {
  static const Schema schema(std::string(kInverse ? "fft_ifftshift" : "fft_fftshift") + "(input|self, dim=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> dims;
  if (a.is_none(1)) {
    for (int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
  } else {
    const std::vector<int64_t> given = *a.int_list(1);
    for (int64_t d : given) dims.push_back(checked_dim(d, x.dim()));
  }
  std::vector<Object> shifts, ds;
  for (int64_t d : dims) {
    const int64_t n = x.shape()[d];
    shifts.emplace_back(Value::integer(kInverse ? (n + 1) / 2 : n / 2));
    ds.emplace_back(Value::integer(d));
  }
  if (dims.empty()) return x.clone();
  return call_op("torch.roll", {a[0], Object::list(shifts), Object::list(ds)});
}

const OpRow kOps[] = {
    {"torch._C._fft.fft_fftshift", "torch.fft.fftshift aten.fft_fftshift.default", "", fftshift_op<false>},
    {"torch._C._fft.fft_ifftshift", "torch.fft.ifftshift aten.fft_ifftshift.default", "", fftshift_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
