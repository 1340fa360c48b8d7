// PyTorch 2 quantization's per-tensor quantize and dequantize of packed float32 (ops/quant/decomposed.cpp):
//   quantize:   q = clamp(round_half_even(x · inv_scale) + zero_point, qmin, qmax), in float32 as torch
//               computes it, stored as int8 / uint8;
//   dequantize: x = (float(q) - zero_point) · scale.
#pragma once
#include <cstddef>
#include <cstdint>

namespace fx::kernels {

void quantize_f32_i8(size_t n, const float* x, float inv_scale, float zero_point, float qmin, float qmax, int8_t* q);
void quantize_f32_u8(size_t n, const float* x, float inv_scale, float zero_point, float qmin, float qmax, uint8_t* q);
void dequantize_i8_f32(size_t n, const int8_t* q, float zero_point, float scale, float* x);
void dequantize_u8_f32(size_t n, const uint8_t* q, float zero_point, float scale, float* x);

}  // namespace fx::kernels
