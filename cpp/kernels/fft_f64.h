// The discrete Fourier transform of complex double sequences of any length, in place and unnormalized:
// iterative radix-2 for powers of two, Bluestein's chirp-z (a power-of-two convolution) for the others,
// so every length costs O(n log n) with double-precision accuracy (errors ~1e-15 · log n relative to the
// signal's norm). ops/fft computes float32 transforms through this and rounds once.
#pragma once
#include <complex>
#include <cstdint>

namespace fx::fft {

// x[k] ← Σ_t x[t] e^{∓2πi kt/n} (− forward, + inverse), n >= 1.
void transform(std::complex<double>* x, int64_t n, bool inverse);

}  // namespace fx::fft
