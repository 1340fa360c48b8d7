#include "kernels/fft_f64.h"

#include <cmath>
#include <vector>

namespace fx::fft {
namespace {

using C = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

// In place, n a power of two: bit-reversal permutation, then butterflies with twiddles computed directly
// (cos/sin of each angle, not by recurrence, to keep errors at rounding level).
void radix2(C* x, int64_t n, bool inverse) {
  for (int64_t i = 1, j = 0; i < n; ++i) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<C> w;
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t half = len / 2;
    w.resize(static_cast<size_t>(half));
    for (int64_t k = 0; k < half; ++k) {
      const double a = sign * 2 * kPi * static_cast<double>(k) / static_cast<double>(len);
      w[k] = C(std::cos(a), std::sin(a));
    }
    for (int64_t s = 0; s < n; s += len)
      for (int64_t k = 0; k < half; ++k) {
        const C u = x[s + k], v = x[s + k + half] * w[k];
        x[s + k] = u + v;
        x[s + k + half] = u - v;
      }
  }
}

// Bluestein: kt = (k² + t² - (k - t)²) / 2 turns the DFT into a convolution with the chirp e^{±iπk²/n},
// done by power-of-two FFTs of size >= 2n - 1.
void bluestein(C* x, int64_t n, bool inverse) {
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<C> chirp(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t k2 = (k * k) % (2 * n);  // exact angle reduction: e^{iπk²/n} has period 2n in k²
    const double a = sign * kPi * static_cast<double>(k2) / static_cast<double>(n);
    chirp[k] = C(std::cos(a), std::sin(a));
  }
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  std::vector<C> a(static_cast<size_t>(m)), b(static_cast<size_t>(m));
  for (int64_t k = 0; k < n; ++k) a[k] = x[k] * chirp[k];
  b[0] = std::conj(chirp[0]);
  for (int64_t k = 1; k < n; ++k) b[k] = b[m - k] = std::conj(chirp[k]);
  radix2(a.data(), m, false);
  radix2(b.data(), m, false);
  for (int64_t k = 0; k < m; ++k) a[k] *= b[k];
  radix2(a.data(), m, true);
  const double inv_m = 1.0 / static_cast<double>(m);
  for (int64_t k = 0; k < n; ++k) x[k] = a[k] * inv_m * chirp[k];
}

}  // namespace

void transform(C* x, int64_t n, bool inverse) {
  if (n <= 1) return;
  if ((n & (n - 1)) == 0) radix2(x, n, inverse);
  else bluestein(x, n, inverse);
}

}  // namespace fx::fft
