// quantized_decomposed ops against values the reference torch printed (torch.ops.quantized_decomposed.*):
// rounding half to even, clamping, per-channel along axis 1, choose_qparams' scale and zero point, and
// torch's errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ops/call_op.h"
#include "support/error.h"

namespace fx {
namespace {

template <class T>
Tensor make(const std::vector<T>& v, Shape shape, DType dtype) {
  return Tensor::from_bytes(shape, dtype, v.data(), v.size() * sizeof(T));
}
Object f(double d) { return Object(Value::floating(d)); }
Object i(int64_t v) { return Object(Value::integer(v)); }
Object dt(const char* name) { return Object(Value::dtype(name)); }

template <class T>
std::vector<T> values(const Object& o) {
  const Tensor t = o.tensor().contiguous();
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

TEST(QuantizedDecomposed, QuantizePerTensorRoundsHalfToEvenAndClamps) {
  Tensor x = make<float>({-1.0f, -0.25f, 0.0f, 0.125f, 0.375f, 2.0f, 100.0f}, {7}, DType::Float32);
  Object q = call_op("quantized_decomposed.quantize_per_tensor.default",
                     {Object(x), f(0.25), i(3), i(-128), i(127), dt("int8")});
  EXPECT_EQ(q.tensor().dtype(), DType::Int8);
  EXPECT_EQ(values<int8_t>(q), (std::vector<int8_t>{-1, 2, 3, 3, 5, 11, 127}));
}

// A packed input takes one pass (kernels/quantize_f32.h), a strided one torch's composition: same values.
TEST(QuantizedDecomposed, PackedAndStridedInputsAgree) {
  std::vector<float> v(24);
  for (size_t k = 0; k < v.size(); ++k) v[k] = (static_cast<float>(k) - 11.5f) * 0.37f;
  v[5] = 1e9f;
  const Tensor x = make<float>(v, {4, 6}, DType::Float32);
  const Tensor xt = Tensor(x.storage(), x.dtype(), {6, 4}, {1, 6}, 0);  // xᵀ, a strided view
  for (const char* dtype : {"int8", "uint8"}) {
    const int64_t lo = dtype[0] == 'u' ? 0 : -128, hi = dtype[0] == 'u' ? 255 : 127;
    Object packed = call_op("quantized_decomposed.quantize_per_tensor.default",
                            {Object(xt.contiguous()), f(0.3), i(7), i(lo), i(hi), dt(dtype)});
    Object strided = call_op("quantized_decomposed.quantize_per_tensor.default",
                             {Object(xt), f(0.3), i(7), i(lo), i(hi), dt(dtype)});
    EXPECT_EQ(values<int8_t>(packed), values<int8_t>(Object(strided.tensor().contiguous()))) << dtype;
    Object back = call_op("quantized_decomposed.dequantize_per_tensor.default",
                          {packed, f(0.3), i(7), i(lo), i(hi), dt(dtype)});
    Object back_strided = call_op("quantized_decomposed.dequantize_per_tensor.default",
                                  {strided, f(0.3), i(7), i(lo), i(hi), dt(dtype)});
    EXPECT_EQ(values<float>(back), values<float>(Object(back_strided.tensor().contiguous()))) << dtype;
  }
}

TEST(QuantizedDecomposed, DequantizePerTensor) {
  Tensor q = make<int8_t>({-128, -1, 0, 5, 127}, {5}, DType::Int8);
  Object x = call_op("quantized_decomposed.dequantize_per_tensor.default",
                     {Object(q), f(0.1), i(-2), i(-128), i(127), dt("int8")});
  EXPECT_EQ(values<float>(x), (std::vector<float>{-12.6f, 0.1f, 0.2f, 0.7f, 12.900001f}));
}

TEST(QuantizedDecomposed, QuantizePerChannelAlongAxisOne) {
  Tensor w = make<float>({0.5f, -1.0f, 0.3f, 2.0f, 0.1f, -0.7f}, {2, 3}, DType::Float32);
  Object q = call_op("quantized_decomposed.quantize_per_channel.default",
                     {Object(w), Object(make<float>({0.1f, 0.2f, 0.3f}, {3}, DType::Float32)),
                      Object(make<int64_t>({0, 1, -1}, {3}, DType::Int64)), i(1), i(-127), i(127), dt("int8")});
  EXPECT_EQ(q.tensor().shape(), (Shape{2, 3}));
  EXPECT_EQ(values<int8_t>(q), (std::vector<int8_t>{5, -4, 0, 20, 1, -3}));
}

TEST(QuantizedDecomposed, ChooseQparamsAsTorch) {
  Object r = call_op("quantized_decomposed.choose_qparams.tensor",
                     {Object(make<float>({-0.7f, 0.2f, 1.3f, 0.05f}, {4}, DType::Float32)), i(-128), i(127),
                      f(1.0 / 4096), dt("int8")});
  EXPECT_EQ(values<double>(r.items()[0]), (std::vector<double>{0.007843137718737125}));
  EXPECT_EQ(values<int64_t>(r.items()[1]), (std::vector<int64_t>{-39}));
  r = call_op("quantized_decomposed.choose_qparams.tensor",
              {Object(make<float>({0.5f, 0.2f}, {2}, DType::Float32)), i(-128), i(127), f(1.0 / 4096), dt("int8")});
  EXPECT_EQ(values<double>(r.items()[0]), (std::vector<double>{0.0019607844296842813}));
  EXPECT_EQ(values<int64_t>(r.items()[1]), (std::vector<int64_t>{-128}));
}

TEST(QuantizedDecomposed, TorchsErrors) {
  Tensor q = make<int8_t>({1, 2}, {2}, DType::Int8);
  EXPECT_THROW(call_op("quantized_decomposed.quantize_per_tensor.default",
                       {Object(q), f(0.1), i(0), i(-128), i(127), dt("int8")}),
               FxError);  // input must be float
  EXPECT_THROW(call_op("quantized_decomposed.dequantize_per_tensor.default",
                       {Object(q), f(0.1), i(0), i(0), i(255), dt("uint8")}),
               FxError);  // dtype mismatch
  Tensor x = make<float>({1.0f}, {1}, DType::Float32);
  try {
    call_op("quantized_decomposed.quantize_per_tensor.default", {Object(x), f(0.1), i(0), i(-200), i(127), dt("int8")});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("quant_min out of bounds for dtype"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fx
