// pixel_shuffle / pixel_unshuffle: [*, C·r², H, W] ↔ [*, C, H·r, W·r], as a permuted copy.
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

template <bool kShuffle>
Object shuffle_op(const OpCall& call) {
  static const Schema schema(kShuffle ? "pixel_shuffle(input|self, upscale_factor)"
                                      : "pixel_unshuffle(input|self, downscale_factor)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t r = a.integer(1);
  if (x.dim() < 3) throw FxError(std::string(kShuffle ? "pixel_shuffle" : "pixel_unshuffle") +
                                 " expects input to have at least 3 dimensions, but got input with " +
                                 std::to_string(x.dim()) + " dimension(s)");
  if (r <= 0) throw FxError("pixel_shuffle: factor must be greater than 0");
  const int64_t nd = x.dim();
  Shape lead(x.shape().begin(), x.shape().end() - 3);
  const int64_t C = x.shape()[nd - 3], H = x.shape()[nd - 2], W = x.shape()[nd - 1];
  // Both directions are one reshape + permute: shuffle reads [*, c, i, j, h, w] as [*, c, h, i, w, j].
  Shape s6 = lead, out_shape = lead;
  std::vector<int64_t> perm;
  for (size_t i = 0; i < lead.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  const int64_t L = static_cast<int64_t>(lead.size());
  if (kShuffle) {
    if (C % (r * r)) throw FxError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=" + std::to_string(C) + " is not divisible by " + std::to_string(r * r));
    s6.insert(s6.end(), {C / (r * r), r, r, H, W});
    perm.insert(perm.end(), {L, L + 3, L + 1, L + 4, L + 2});
    out_shape.insert(out_shape.end(), {C / (r * r), H * r, W * r});
  } else {
    if (H % r || W % r) throw FxError("pixel_unshuffle expects height and width to be divisible by downscale_factor");
    s6.insert(s6.end(), {C, H / r, r, W / r, r});
    perm.insert(perm.end(), {L, L + 2, L + 4, L + 1, L + 3});
    out_shape.insert(out_shape.end(), {C * r * r, H / r, W / r});
  }
  Tensor v = view_as_shape(x.contiguous(), s6);
  return view_as_shape(permute_view(v, perm).contiguous(), out_shape);
}

const OpRegistrar reg_ps{OpDef{"torch.pixel_shuffle", {"torch.nn.functional.pixel_shuffle", "aten.pixel_shuffle.default"},
                               {}, shuffle_op<true>}};
const OpRegistrar reg_pu{OpDef{"torch.pixel_unshuffle",
                               {"torch.nn.functional.pixel_unshuffle", "aten.pixel_unshuffle.default"}, {},
                               shuffle_op<false>}};

}  // namespace
}  // namespace fx
