// passes/quantize_weights.h and serialize/quantized_json.h: which tensors are quantized, the file written
// (docs/format.md §7) and read back, and the reader's checks of every field.
#include "passes/quantize_weights.h"

#include <cstring>

#include <gtest/gtest.h>

#include "../serialize/fxw_files.h"
#include "serialize/writer.h"
#include "tensor/quantized.h"

namespace fx {
namespace {

Tensor ramp(const Shape& shape, float step) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = std::sin(i * step);
  return t;
}

// x → fc (nn.Linear 40→70) → F.linear(get_attr w2) ; emb = F.embedding(ids, get_attr table); a LayerNorm-ish
// parameter used by add; an int64 buffer.
std::unique_ptr<GraphModule> sample() {
  auto gm = std::make_unique<GraphModule>();
  gm->producer() = Producer{"2.15.0", "0.1.0", "symbolic"};
  gm->modules()[""] = ModuleInfo{"my.Net", {}};
  gm->modules()["fc"] = ModuleInfo{"torch.nn.modules.linear.Linear", {}};
  gm->tensors()["fc.weight"] = NamedTensor{TensorKind::Parameter, ramp({70, 40}, 0.1f)};
  gm->tensors()["fc.bias"] = NamedTensor{TensorKind::Parameter, ramp({70}, 0.3f)};
  gm->tensors()["w2"] = NamedTensor{TensorKind::Parameter, ramp({8, 70}, 0.7f)};
  gm->tensors()["table"] = NamedTensor{TensorKind::Parameter, ramp({10, 8}, 0.2f)};
  gm->tensors()["gain"] = NamedTensor{TensorKind::Parameter, ramp({8}, 0.5f)};
  gm->tensors()["steps"] = NamedTensor{TensorKind::Buffer, Tensor::zeros({2}, DType::Int64)};
  Graph& g = gm->graph();
  Node* x = g.placeholder("x", "torch.Tensor");
  Node* ids = g.placeholder("ids", "torch.Tensor");
  Node* fc = g.call_module("fc", {Value::node(x)});
  Node* w2 = g.get_attr("w2");
  Node* lin = g.call_function("torch._C._nn.linear", {Value::node(fc), Value::node(w2)});
  Node* table = g.get_attr("table");
  Node* emb = g.call_function("torch.nn.functional.embedding", {Value::node(ids)}, {{"weight", Value::node(table)}});
  Node* gain = g.get_attr("gain");
  Node* add = g.call_function("operator.add", {Value::node(lin), Value::node(gain)});
  g.output(Value::tuple({Value::node(add), Value::node(emb)}));
  return gm;
}

TEST(QuantizeWeights, PicksLinearAndEmbeddingWeights) {
  auto gm = sample();
  EXPECT_EQ(linear_and_embedding_weights(*gm), (std::vector<std::string>{"fc.weight", "table", "w2"}));
  const QuantizeSummary s = quantize_weights(*gm, "int8");
  EXPECT_EQ(s.int8, 3);
  EXPECT_EQ(s.fp16, 2);  // fc.bias, gain
  EXPECT_EQ(quantized_of(gm->tensors()["fc.weight"].tensor)->scheme, QScheme::Int8);
  EXPECT_EQ(quantized_of(gm->tensors()["gain"].tensor)->scheme, QScheme::Float16);
  EXPECT_EQ(quantized_of(gm->tensors()["steps"].tensor), nullptr);
  EXPECT_EQ(quantize_weights(*gm, "int4").int4, 3);
  EXPECT_EQ(quantize_weights(*gm, "fp16").fp16, 5);
  EXPECT_EQ(quantize_weights(*gm, "fp32").fp32, 5);
  EXPECT_EQ(quantized_of(gm->tensors()["fc.weight"].tensor), nullptr);
  EXPECT_THROW(quantize_weights(*gm, "int3"), FxError);
}

TEST(QuantizeWeights, RoundTripsThroughTheFile) {
  for (const char* mode : {"int8", "int4", "fp16"}) {
    auto gm = sample();
    quantize_weights(*gm, mode);
    const std::vector<uint8_t> bytes = write_fxw(*gm);
    auto back = read_fxw(bytes.data(), bytes.size());
    for (const auto& [name, t] : gm->tensors()) {
      const Tensor& b = back->tensors().at(name).tensor;
      const QuantizedWeight* q = quantized_of(t.tensor);
      ASSERT_EQ(q == nullptr, quantized_of(b) == nullptr) << mode << " " << name;
      if (q) {
        EXPECT_EQ(quantized_of(b)->scheme, q->scheme);
        EXPECT_EQ(0, std::memcmp(q->data.raw_data(), quantized_of(b)->data.raw_data(), q->data.nbytes()));
      }
      ASSERT_EQ(b.numel(), t.tensor.numel());
      EXPECT_EQ(0, std::memcmp(b.raw_data(), t.tensor.raw_data(), b.nbytes())) << mode << " " << name;
    }
    // Written again, the same bytes.
    EXPECT_EQ(write_fxw(*back), bytes) << mode;
  }
}

// The file of sample() in int8, with its program passed through `edit`.
template <class Edit>
std::string error_after(Edit edit) {
  auto gm = sample();
  quantize_weights(*gm, "int4");
  quantize_weights(*gm, "int8");  // fc.weight etc. int8, others fp16
  const std::vector<uint8_t> bytes = write_fxw(*gm);
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  Json header = Json::parse(std::string(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(n)));
  Json program = Json::parse(header["__metadata__"]["program"].get<std::string>());
  edit(program, header);
  header["__metadata__"]["program"] = program.dump();
  return testing_fxw::read_error(
      testing_fxw::raw_file(header.dump(), std::vector<uint8_t>(bytes.begin() + 8 + static_cast<std::ptrdiff_t>(n), bytes.end())));
}

TEST(QuantizeWeights, ReaderChecksEveryField) {
  EXPECT_EQ(error_after([](Json&, Json&) {}), "");
  auto has = [](const std::string& error, const std::string& part) {
    return error.find(part) != std::string::npos ? ::testing::AssertionSuccess()
                                                 : ::testing::AssertionFailure() << error;
  };
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["fc.weight"]["scheme"] = "int2"; }),
                  "program.quantized['fc.weight']: scheme is missing or not one of int8, int4, fp16"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["fc.weight"]["axis"] = 1; }), "axis must be 0"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["fc.weight"]["dtype"] = "float64"; }),
                  "dtype (the weight's own dtype) must be \"float32\""));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["fc.weight"]["shape"] = {70, 41}; }),
                  "program.quantized['fc.weight']: the stored tensor is I8 [70, 40]; the scheme needs I8 [70, 41]"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["w2"]["scale"] = "fc.weight_scale"; }),
                  "belongs to another tensor too"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["fc.weight"]["scale"] = "gain"; }),
                  "scale 'gain' is not a quant_scale tensor of the file"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["gain"]["scale"] = "x"; }), "an fp16 tensor has no scale"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["nothing"] = p["quantized"]["gain"]; }),
                  "program.quantized['nothing']: names no parameter, buffer or constant of the file"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"].erase("fc.weight"); }),
                  "program.tensors['fc.weight_scale']: a quant_scale tensor that no program.quantized entry names"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["quantized"]["fc.weight"]["scheme"] = "int4"; }),
                  "axis must be 1 and block 32"));
  EXPECT_TRUE(has(error_after([](Json& p, Json& h) {
                    p["quantized"]["steps"] = {{"scheme", "fp16"}, {"dtype", "float32"}, {"shape", {2}}};
                  }),
                  "program.quantized['steps']: the stored tensor is I64 [2]; the scheme needs F16 [2]"));
  EXPECT_TRUE(has(error_after([](Json& p, Json&) { p["tensors"]["fc.weight_scale"] = "scales"; }),
                  "expected parameter, buffer, constant, reference or quant_scale"));
}

TEST(QuantizeWeights, ReaderChecksTheScaleTensor) {
  const std::string e = error_after([](Json&, Json& h) {
    // fc.weight_scale is F32 [70]: make the header claim F16 [140] of the same bytes.
    h["fc.weight_scale"]["dtype"] = "F16";
    h["fc.weight_scale"]["shape"] = {140};
  });
  EXPECT_NE(e.find("the scale tensor is F16 [140]; the scheme needs F32 [70]"), std::string::npos) << e;
}

}  // namespace
}  // namespace fx
