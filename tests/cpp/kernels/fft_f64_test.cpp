#include "kernels/fft_f64.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

namespace fx::fft {
namespace {

using C = std::complex<double>;

// Against the defining sum, for powers of two (radix-2) and other lengths (Bluestein), both directions.
TEST(FftF64, MatchesTheDirectSum) {
  for (int64_t n : {1, 2, 3, 5, 7, 8, 12, 16, 31, 64, 100}) {
    std::vector<C> x(static_cast<size_t>(n));
    for (int64_t t = 0; t < n; ++t) x[t] = C(std::sin(0.7 * t + 0.1), std::cos(1.3 * t * t));
    for (bool inverse : {false, true}) {
      std::vector<C> y = x;
      transform(y.data(), n, inverse);
      for (int64_t k = 0; k < n; ++k) {
        C want(0, 0);
        for (int64_t t = 0; t < n; ++t) {
          const double a = (inverse ? 2.0 : -2.0) * M_PI * static_cast<double>((k * t) % n) / static_cast<double>(n);
          want += x[t] * C(std::cos(a), std::sin(a));
        }
        EXPECT_NEAR(y[k].real(), want.real(), 1e-11 * n) << "n=" << n << " k=" << k;
        EXPECT_NEAR(y[k].imag(), want.imag(), 1e-11 * n) << "n=" << n << " k=" << k;
      }
    }
  }
}

}  // namespace
}  // namespace fx::fft
