// pixel_shuffle / pixel_unshuffle: [*, C·r², H, W] ↔ [*, C, H·r, W·r], as a permuted copy.
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/checked.h"

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
  if (r <= 0)
    throw FxError(kShuffle ? "pixel_shuffle expects a positive upscale_factor, but got " + std::to_string(r)
                           : "pixel_unshuffle expects a positive downscale_factor, but got " + std::to_string(r));
  int64_t r2;  // r * r must not wrap (2^32 squared is 0: a division by zero)
  if (__builtin_mul_overflow(r, r, &r2) && kShuffle)
    throw FxError(std::string(kShuffle ? "upscale" : "downscale") +
                  " factor is too large, (" + (kShuffle ? "upscale" : "downscale") + "_factor)^2 overflowed: " +
                  (kShuffle ? "upscale" : "downscale") + "_factor=" + std::to_string(r));
  const int64_t nd = x.dim();
  Shape lead(x.shape().begin(), x.shape().end() - 3);
  const int64_t C = x.shape()[nd - 3], H = x.shape()[nd - 2], W = x.shape()[nd - 1];
  // Both directions are one reshape + permute: shuffle reads [*, c, i, j, h, w] as [*, c, h, i, w, j].
  Shape s6 = lead, out_shape = lead;
  std::vector<int64_t> perm;
  for (size_t i = 0; i < lead.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  const int64_t L = static_cast<int64_t>(lead.size());
  if (kShuffle) {
    if (C % r2) throw FxError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=" + std::to_string(C) + " is not divisible by " + std::to_string(r2));
    s6.insert(s6.end(), {C / r2, r, r, H, W});
    perm.insert(perm.end(), {L, L + 3, L + 1, L + 4, L + 2});
    out_shape.insert(out_shape.end(), {C / r2, checked_mul(H, r, "pixel_shuffle output height"),
                                       checked_mul(W, r, "pixel_shuffle output width")});
  } else {
    if (H % r)
      throw FxError("pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=" +
                    std::to_string(H) + " is not divisible by " + std::to_string(r));
    if (W % r)
      throw FxError("pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=" +
                    std::to_string(W) + " is not divisible by " + std::to_string(r));
    // torch's pixel_unshuffle returns an empty input as it is (after its checks), not in the unshuffled shape
    if (x.numel() == 0) return x.clone();
    s6.insert(s6.end(), {C, H / r, r, W / r, r});
    perm.insert(perm.end(), {L, L + 2, L + 4, L + 1, L + 3});
    out_shape.insert(out_shape.end(), {checked_mul(checked_mul(C, r, "pixel_unshuffle output channels"), r,
                                                   "pixel_unshuffle output channels"), H / r, W / r});
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
