#include "kernels/quantize_f32.h"

#include <cmath>

namespace fx::kernels {
namespace {

// NaN goes through clamp as NaN and converts as the float → int cast torch's .to(int8) does on x86 (to 0
// after truncation to int32's INT_MIN, whose low byte is 0); every other value is already in range.
template <class Q>
void quantize(size_t n, const float* x, float inv, float zp, float lo, float hi, Q* q) {
  for (size_t i = 0; i < n; ++i) {
    float v = std::nearbyint(x[i] * inv) + zp;
    v = v < lo ? lo : v > hi ? hi : v;
    q[i] = std::isnan(v) ? Q(0) : static_cast<Q>(static_cast<int32_t>(v));
  }
}

template <class Q>
void dequantize(size_t n, const Q* q, float zp, float scale, float* x) {
  for (size_t i = 0; i < n; ++i) x[i] = (static_cast<float>(q[i]) - zp) * scale;
}

}  // namespace

void quantize_f32_i8(size_t n, const float* x, float inv_scale, float zero_point, float qmin, float qmax, int8_t* q) {
  quantize(n, x, inv_scale, zero_point, qmin, qmax, q);
}
void quantize_f32_u8(size_t n, const float* x, float inv_scale, float zero_point, float qmin, float qmax, uint8_t* q) {
  quantize(n, x, inv_scale, zero_point, qmin, qmax, q);
}
void dequantize_i8_f32(size_t n, const int8_t* q, float zero_point, float scale, float* x) {
  dequantize(n, q, zero_point, scale, x);
}
void dequantize_u8_f32(size_t n, const uint8_t* q, float zero_point, float scale, float* x) {
  dequantize(n, q, zero_point, scale, x);
}

}  // namespace fx::kernels
