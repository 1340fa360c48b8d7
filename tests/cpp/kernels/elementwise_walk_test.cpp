#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xview.hpp>

#include "kernels/elementwise_scalar.h"

namespace fx::kernels {
namespace {

// Rows longer than the walk's gather chunk, strided and broadcast, in 1- and 8-byte element types:
// every chunk boundary lands where xtensor's strided views say.
TEST(ElementwiseWalk, LongStridedAndBroadcastRows) {
  for (int64_t n : {255, 256, 257, 1000}) {
    std::vector<int8_t> a(static_cast<size_t>(3 * n));
    for (int64_t i = 0; i < 3 * n; ++i) a[i] = static_cast<int8_t>(i * 7);
    const int64_t b = 5;
    std::vector<int64_t> y(static_cast<size_t>(n));
    const int64_t shape[] = {n}, as[] = {3}, bs[] = {0};
    binary_strided(1, shape, a.data(), as, &b, bs, y.data(), [](int8_t p, int64_t q) { return p * q; });
    const xt::xarray<int64_t> want = xt::cast<int64_t>(xt::view(xt::adapt(a), xt::range(0, 3 * n, 3))) * b;
    ASSERT_EQ(static_cast<int64_t>(want.size()), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], want(i)) << n << " " << i;

    std::vector<double> x(static_cast<size_t>(2 * n));
    for (int64_t i = 0; i < 2 * n; ++i) x[i] = 0.5 * static_cast<double>(i);
    std::vector<uint8_t> z(static_cast<size_t>(n));
    const int64_t xs[] = {-2};
    unary_strided(1, shape, x.data() + 2 * n - 2, xs, z.data(), [](double v) { return static_cast<uint8_t>(static_cast<int64_t>(v) & 1); });
    // x[2n-2], x[2n-4], …, x[0]: a reversed view with step 2.
    const xt::xarray<double> xr = xt::view(xt::adapt(x), xt::range(2 * n - 2, xt::placeholders::_, -2));
    ASSERT_EQ(static_cast<int64_t>(xr.size()), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], static_cast<int64_t>(xr(i)) & 1) << n << " " << i;
  }
}

}  // namespace
}  // namespace fx::kernels
