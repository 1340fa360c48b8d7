// IEEE half and bfloat16 storage types with float conversions (round to nearest even). Ops compute on
// these in float32 and round once at the end, which is what torch's CPU kernels do for one op.
#pragma once
#include <cstdint>
#include <cstring>

namespace fx {

struct Half {
  uint16_t bits = 0;
};
struct BFloat16 {
  uint16_t bits = 0;
};

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float half_to_float(Half h) {
  const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1f, mant = h.bits & 0x3ff;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000 | (mant << 13));  // inf / nan
  if (exp == 0) {
    // Zero or subnormal: value = mant * 2^-24.
    float v = static_cast<float>(mant) * 5.9604644775390625e-08f;
    return sign ? -v : v;
  }
  return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

inline Half float_to_half(float f) {
  uint32_t u = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000);
  u &= 0x7fffffff;
  Half h;
  if (u > 0x7f800000) {  // nan: keep it quiet
    h.bits = sign | 0x7e00;
  } else if (u >= 0x477ff000) {  // rounds to >= 65520: overflow to inf
    h.bits = sign | 0x7c00;
  } else if (u < 0x38800000) {  // below the smallest normal half: subnormal or zero
    // Adding 0.5 shifts the value so the float hardware rounds mantissa bits to nearest even.
    float v = bits_float(u) + 0.5f;
    h.bits = sign | static_cast<uint16_t>(float_bits(v) - 0x3f000000);
  } else {
    const uint32_t odd = (u >> 13) & 1;
    u += 0xc8000fff + odd;  // rebias exponent (-112 << 23) and round to nearest even
    h.bits = sign | static_cast<uint16_t>(u >> 13);
  }
  return h;
}

inline float bf16_to_float(BFloat16 b) { return bits_float(static_cast<uint32_t>(b.bits) << 16); }

inline BFloat16 float_to_bf16(float f) {
  uint32_t u = float_bits(f);
  BFloat16 b;
  if ((u & 0x7fffffff) > 0x7f800000) {
    b.bits = static_cast<uint16_t>((u >> 16) | 0x40);
  } else {
    u += 0x7fff + ((u >> 16) & 1);
    b.bits = static_cast<uint16_t>(u >> 16);
  }
  return b;
}

}  // namespace fx
