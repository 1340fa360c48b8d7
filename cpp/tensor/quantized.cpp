#include "tensor/quantized.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/half.h"
#include "support/error.h"

namespace fx {
namespace {

constexpr int64_t kBlock = 32;

int64_t int4_blocks(int64_t K) { return (K + kBlock - 1) / kBlock; }

bool all_finite(const float* w, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(w[i])) return false;
  return true;
}

// Int8: scale = max|row| / 127 (1 for an all-zero row), q = round-half-even(w / scale) in [-127, 127].
std::shared_ptr<QuantizedWeight> quantize_int8(const float* w, int64_t N, int64_t K) {
  auto q = std::make_shared<QuantizedWeight>();
  q->scheme = QScheme::Int8;
  q->data = Tensor::empty({N, K}, DType::Int8);
  q->scale = Tensor::empty({N}, DType::Float32);
  int8_t* d = q->data.data<int8_t>();
  float* s = q->scale.data<float>();
  for (int64_t n = 0; n < N; ++n) {
    const float* row = w + n * K;
    float amax = 0.0f;
    for (int64_t k = 0; k < K; ++k) amax = std::max(amax, std::fabs(row[k]));
    float scale = amax / 127.0f;
    if (scale == 0.0f) scale = 1.0f;
    s[n] = scale;
    for (int64_t k = 0; k < K; ++k)
      d[n * K + k] = static_cast<int8_t>(std::min(127.0f, std::max(-127.0f, std::nearbyint(row[k] / scale))));
  }
  q->scale_f32 = q->scale;
  return q;
}

// Int4 (GGUF Q4_0): per block of 32 (zero-padded past K), m = the first value of largest magnitude,
// scale = float16(m / -8) (1 when that is 0), q = clamp(round-half-even(w / scale), -8, 7) + 8; byte j holds
// q[j] in its low nibble and q[16 + j] in its high one. nullptr when a scale overflows float16.
std::shared_ptr<QuantizedWeight> quantize_int4(const float* w, int64_t N, int64_t K) {
  const int64_t KB = int4_blocks(K);
  auto q = std::make_shared<QuantizedWeight>();
  q->scheme = QScheme::Int4;
  q->data = Tensor::empty({N, KB * 16}, DType::UInt8);
  q->scale = Tensor::empty({N, KB}, DType::Float16);
  q->scale_f32 = Tensor::empty({N, KB}, DType::Float32);
  uint8_t* d = q->data.data<uint8_t>();
  uint16_t* s16 = q->scale.data<uint16_t>();
  float* s32 = q->scale_f32.data<float>();
  float block[kBlock];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t b = 0; b < KB; ++b) {
      float m = 0.0f;
      for (int64_t j = 0; j < kBlock; ++j) {
        const int64_t k = b * kBlock + j;
        block[j] = k < K ? w[n * K + k] : 0.0f;
        if (std::fabs(block[j]) > std::fabs(m)) m = block[j];
      }
      Half h = float_to_half(m / -8.0f);
      float scale = half_to_float(h);
      if (std::isinf(scale)) return nullptr;
      if (scale == 0.0f) h = float_to_half(1.0f), scale = 1.0f;
      s16[n * KB + b] = h.bits;
      s32[n * KB + b] = scale;
      uint8_t nib[kBlock];
      for (int64_t j = 0; j < kBlock; ++j)
        nib[j] = static_cast<uint8_t>(std::min(7.0f, std::max(-8.0f, std::nearbyint(block[j] / scale))) + 8.0f);
      for (int64_t j = 0; j < 16; ++j) d[(n * KB + b) * 16 + j] = static_cast<uint8_t>(nib[j] | (nib[16 + j] << 4));
    }
  return q;
}

// Float16: round to nearest even; nullptr when a finite value would overflow to inf.
std::shared_ptr<QuantizedWeight> quantize_fp16(const float* w, const Shape& shape) {
  auto q = std::make_shared<QuantizedWeight>();
  q->scheme = QScheme::Float16;
  q->data = Tensor::empty(shape, DType::Float16);
  uint16_t* d = q->data.data<uint16_t>();
  const int64_t n = q->data.numel();
  for (int64_t i = 0; i < n; ++i) {
    const Half h = float_to_half(w[i]);
    if ((h.bits & 0x7fff) == 0x7c00 && std::isfinite(w[i])) return nullptr;
    d[i] = h.bits;
  }
  return q;
}

}  // namespace

const char* qscheme_name(QScheme s) {
  switch (s) {
    case QScheme::Int8: return "int8";
    case QScheme::Int4: return "int4";
    case QScheme::Float16: return "fp16";
  }
  return "?";
}

bool parse_qscheme(const std::string& name, QScheme* out) {
  for (QScheme s : {QScheme::Int8, QScheme::Int4, QScheme::Float16})
    if (name == qscheme_name(s)) return *out = s, true;
  return false;
}

Tensor quantized_tensor(std::shared_ptr<const QuantizedWeight> q) {
  const Shape shape = q->shape;
  const size_t nbytes = static_cast<size_t>(checked_numel(shape)) * sizeof(float);
  return Tensor(Storage::quantized(nbytes, std::move(q)), DType::Float32, shape, contiguous_strides(shape), 0);
}

const QuantizedWeight* quantized_of(const Tensor& t) {
  if (!t.defined()) return nullptr;
  const QuantizedWeight* q = t.storage()->quantized_source().get();
  if (!q || t.dtype() != DType::Float32 || t.offset() != 0 || t.shape() != q->shape || !t.is_contiguous())
    return nullptr;
  return q;
}

void dequantize_into(const QuantizedWeight& q, float* out) {
  if (q.scheme == QScheme::Float16) {
    const uint16_t* d = q.data.data<uint16_t>();
    for (int64_t i = 0, n = q.data.numel(); i < n; ++i) out[i] = half_to_float(Half{d[i]});
    return;
  }
  const int64_t N = q.shape[0], K = q.shape[1];
  const float* s = q.scale_f32.data<float>();
  if (q.scheme == QScheme::Int8) {
    const int8_t* d = q.data.data<int8_t>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k) out[n * K + k] = static_cast<float>(d[n * K + k]) * s[n];
    return;
  }
  const int64_t KB = int4_blocks(K);
  const uint8_t* d = q.data.data<uint8_t>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t b = k / kBlock, j = k % kBlock;
      const uint8_t byte = d[(n * KB + b) * 16 + j % 16];
      out[n * K + k] = static_cast<float>((j < 16 ? (byte & 15) : (byte >> 4)) - 8) * s[n * KB + b];
    }
}

std::shared_ptr<const QuantizedWeight> quantize_weight(const Tensor& w0, QScheme scheme) {
  if (w0.dtype() != DType::Float32) return nullptr;
  const Tensor w = w0.contiguous();
  const float* v = w.data<float>();
  std::shared_ptr<QuantizedWeight> q;
  if (scheme == QScheme::Float16) {
    q = quantize_fp16(v, w.shape());
  } else {
    if (w.dim() != 2 || w.shape()[1] == 0 || !all_finite(v, w.numel())) return nullptr;
    q = scheme == QScheme::Int8 ? quantize_int8(v, w.shape()[0], w.shape()[1])
                                : quantize_int4(v, w.shape()[0], w.shape()[1]);
  }
  if (q) q->shape = w.shape();
  return q;
}

}  // namespace fx
