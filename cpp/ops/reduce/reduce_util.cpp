#include "ops/reduce/reduce_util.h"

#include "ops/nn/nn_util.h"
#include "support/error.h"

namespace fx {

ReducePlan plan_reduce(const Tensor& x, const std::optional<std::vector<int64_t>>& dims, bool keepdim) {
  ReducePlan p;
  const int64_t nd = x.dim();
  p.mask.assign(static_cast<size_t>(nd), !dims || dims->empty());
  if (dims)
    for (int64_t d : *dims) {
      const int64_t w = wrap_dim(d, nd);
      if (nd == 0) continue;
      if (p.mask[w])
        throw FxError("dim " + std::to_string(w) + " appears multiple times in the list of dims");
      p.mask[w] = true;
    }
  std::vector<int64_t> perm;
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t d = 0; d < nd; ++d)
      if (p.mask[d] == (pass == 1)) {
        perm.push_back(d);
        (pass ? p.reduce : p.outer) *= x.shape()[d];
      }
  for (int64_t d = 0; d < nd; ++d) {
    if (!p.mask[d]) p.out_shape.push_back(x.shape()[d]);
    else if (keepdim) p.out_shape.push_back(1);
  }
  p.x = permute_view(x, perm).contiguous();
  return p;
}

}  // namespace fx
