// Convolution paths (im2row + GEMM, prepacked weights, pointwise, depthwise) swept over sizes, strides,
// padding, dilation and groups against the direct scalar reference kernels::conv2d_reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernels/conv.h"
#include "ops/nn/conv.h"
#include "random_tensor.h"

namespace fx {
namespace {

TEST(ConvSweep, EveryPathMatchesTheDirectReference) {
  std::mt19937 rng(7);
  struct Case { int64_t C, OC, groups, H, W, K, stride, pad, dil; };
  const Case cases[] = {{3, 5, 1, 7, 9, 3, 1, 1, 1}, {4, 6, 2, 6, 5, 3, 2, 1, 1}, {4, 4, 4, 9, 8, 3, 1, 1, 1},
                        {4, 8, 4, 7, 7, 3, 2, 0, 2}, {5, 9, 1, 4, 6, 1, 1, 0, 1}, {6, 3, 3, 5, 5, 1, 1, 0, 1},
                        {2, 17, 1, 3, 11, 2, 1, 1, 1}, {8, 8, 1, 1, 1, 1, 1, 0, 1}, {1, 3, 1, 12, 3, 5, 3, 2, 1},
                        // C/groups·K·K ≥ kConvPackMaxKc: prepared in torch's layout, not packed
                        {64, 9, 1, 5, 6, 3, 2, 1, 1}, {128, 10, 2, 4, 4, 3, 1, 1, 1}};
  for (const Case& c : cases) {
    for (int mode : {0, 1, 2}) {  // the weight as given, prepacked, prepacked with a folded BatchNorm scale
      const bool prepack = mode > 0;
      Tensor x = random_tensor({2, c.C, c.H, c.W}, rng);
      Tensor w = random_tensor({c.OC, c.C / c.groups, c.K, c.K}, rng);
      Tensor b = random_tensor({c.OC}, rng);
      ConvParams p = conv_params(2, {c.stride}, {c.pad}, "", {c.dil}, c.groups, false, {}, w.shape());
      std::vector<float> scale(static_cast<size_t>(c.OC));
      for (float& s : scale) s = std::uniform_real_distribution<float>(0.5f, 1.5f)(rng);
      PackedConv packed = pack_conv_weight(w, b, p, mode == 2 ? scale.data() : nullptr);
      // Depthwise reads the weight itself (a module folds the scale into a copy): nothing to test here.
      if (mode == 2 && packed.groups.empty() && !packed.weight.defined() && !packed.winograd.defined()) continue;
      Tensor y = conv_forward(x, w, b, p, prepack ? &packed : nullptr);
      Tensor ws = w.clone();  // the reference convolves with the scale folded into the weight
      const int64_t per = w.numel() / c.OC;
      if (mode == 2)
        for (int64_t i = 0; i < ws.numel(); ++i) ws.data<float>()[i] *= scale[static_cast<size_t>(i / per)];
      kernels::ConvGeom g;
      g.C = c.C, g.H = c.H, g.W = c.W, g.KH = g.KW = c.K, g.SH = g.SW = c.stride, g.PH = g.PW = c.pad;
      g.DH = g.DW = c.dil, g.OH = y.shape()[2], g.OW = y.shape()[3];
      Tensor want = Tensor::empty(y.shape(), DType::Float32);
      for (int64_t n = 0; n < 2; ++n)
        kernels::conv2d_reference<float>(g, c.OC, c.groups, x.data<float>() + n * c.C * c.H * c.W, ws.data<float>(),
                                         b.data<float>(), want.data<float>() + n * c.OC * g.OH * g.OW);
      for (int64_t i = 0; i < y.numel(); ++i)
        ASSERT_NEAR(y.data<float>()[i], want.data<float>()[i], 1e-5 * (1.0 + std::fabs(want.data<float>()[i])))
            << "C=" << c.C << " OC=" << c.OC << " groups=" << c.groups << " K=" << c.K << " mode=" << mode
            << " at " << i;
    }
  }
}

}  // namespace
}  // namespace fx
