// write_fxw: round trips through read_fxw, lays the file out as safetensors with 64-byte alignment.
#include "serialize/writer.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "fxw_files.h"

namespace fx {
namespace {

using namespace testing_fxw;

std::unique_ptr<GraphModule> sample_module() {
  auto gm = std::make_unique<GraphModule>();
  gm->producer() = Producer{"2.15.0", "0.1.0", "symbolic"};
  gm->modules()[""] = ModuleInfo{"my.Net", {}};
  gm->modules()["fc"] = ModuleInfo{"torch.nn.modules.linear.Linear",
                                   {{"in_features", Value::integer(3)}, {"out_features", Value::integer(2)},
                                    {"bias", Value::boolean(true)}, {"eps", Value::floating(1e-5)}}};
  Tensor w = Tensor::empty({2, 3}, DType::Float32);
  for (int i = 0; i < 6; ++i) w.data<float>()[i] = 0.5f * i - 1.0f;
  Tensor steps = Tensor::empty({}, DType::Int64);
  *steps.data<int64_t>() = 42;
  Tensor mask = Tensor::empty({3}, DType::Bool);
  mask.data<bool>()[0] = true, mask.data<bool>()[1] = false, mask.data<bool>()[2] = true;
  Tensor half = Tensor::zeros({5}, DType::BFloat16);
  // a transposed view: the writer packs it
  Tensor wt(w.storage(), DType::Float32, {3, 2}, {1, 3}, 0);
  gm->tensors()["fc.weight"] = NamedTensor{TensorKind::Parameter, w};
  gm->tensors()["fc.steps"] = NamedTensor{TensorKind::Buffer, steps};
  gm->tensors()["_tensor_constant0"] = NamedTensor{TensorKind::Constant, mask};
  gm->tensors()["half"] = NamedTensor{TensorKind::Constant, half};
  gm->tensors()["empty"] = NamedTensor{TensorKind::Constant, Tensor::empty({0, 4}, DType::Int32)};
  gm->tensors()["wt"] = NamedTensor{TensorKind::Constant, wt};

  Graph& g = gm->graph();
  Node* x = g.placeholder("x", "torch.Tensor");
  x->set_meta("shape", Value::size({Value::integer(1), Value::integer(3)}));
  x->set_meta("dtype", Value::dtype("float32"));
  Node* c = g.get_attr("_tensor_constant0");
  Node* fc = g.call_module("fc", {Value::node(x)});
  fc->set_meta("stack_trace", Value::str("  File \"m.py\", line 3, in forward\n    return self.fc(x)\n"));
  Node* view = g.call_method("view", {Value::node(fc), Value::integer(-1)});
  Node* idx = g.call_function("operator.getitem",
                              {Value::node(view), Value::tuple({Value::slice(Value::none(), Value::integer(2),
                                                                             Value::none()),
                                                                Value::ellipsis()})});
  Node* to = g.call_function(
      "torch.ones", {Value::size({Value::integer(2)})},
      {{"dtype", Value::dtype("float16")}, {"device", Value::device("cpu")},
       {"layout", Value::layout("strided")}, {"memory_format", Value::memory_format("contiguous_format")},
       {"fill", Value::floating(std::numeric_limits<double>::infinity())},
       {"opts", Value::dict({{"z", Value::list({Value::none(), Value::boolean(false)})}, {"a", Value::str("s")}})}});
  g.output(Value::tuple({Value::node(idx), Value::node(to), Value::node(c)}));

  gm->reference().present = true;
  gm->reference().inputs = {Object(w)};
  gm->reference().outputs = Object::tuple({Object(wt), Object(Value::integer(3)), Object(Value::boolean(true)),
                                           Object::list({Object(mask), Object(Value::floating(0.5))}),
                                           Object::dict({{"a.b", Object(steps)}, {"a", Object::dict({{"b", Object(half)}})}})});
  return gm;
}

uint64_t header_length(const std::vector<uint8_t>& bytes) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  return n;
}

void expect_same_object(const Object& a, const Object& b) {
  ASSERT_EQ(a.kind(), b.kind());
  switch (a.kind()) {
    case Object::Kind::Tensor: expect_same_tensor(a.tensor(), b.tensor()); break;
    case Object::Kind::Value: EXPECT_EQ(a.value(), b.value()); break;
    case Object::Kind::Tuple:
    case Object::Kind::List:
      ASSERT_EQ(a.items().size(), b.items().size());
      for (size_t i = 0; i < a.items().size(); ++i) expect_same_object(a.items()[i], b.items()[i]);
      break;
    case Object::Kind::Dict:
      ASSERT_EQ(a.dict_items().size(), b.dict_items().size());
      for (size_t i = 0; i < a.dict_items().size(); ++i) {
        EXPECT_EQ(a.dict_items()[i].first, b.dict_items()[i].first);
        expect_same_object(a.dict_items()[i].second, b.dict_items()[i].second);
      }
      break;
  }
}

TEST(Writer, RoundTripsEverything) {
  auto gm = sample_module();
  const std::vector<uint8_t> bytes = write_fxw(*gm);
  auto back = read_fxw(bytes.data(), bytes.size());

  expect_same_graph(gm->graph(), back->graph());
  back->graph().lint();
  EXPECT_EQ(back->producer().torch_version, "2.15.0");
  EXPECT_EQ(back->producer().exporter_version, "0.1.0");
  EXPECT_EQ(back->producer().tracer, "symbolic");
  ASSERT_EQ(back->modules().size(), 2u);
  EXPECT_EQ(back->modules().at("").type, "my.Net");
  EXPECT_EQ(back->modules().at("fc").type, "torch.nn.modules.linear.Linear");
  EXPECT_EQ(back->modules().at("fc").hparams, gm->modules().at("fc").hparams);
  EXPECT_EQ(back->modules().at("fc").hparams[0].first, "in_features");
  ASSERT_EQ(back->tensors().size(), gm->tensors().size());
  for (const auto& [name, t] : gm->tensors()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(back->tensors().count(name));
    EXPECT_EQ(back->tensors().at(name).kind, t.kind);
    expect_same_tensor(t.tensor, back->tensors().at(name).tensor);
  }
  EXPECT_EQ(back->tensors().at("wt").tensor.data<float>()[1], 0.5f);  // wt[0][1] = w[1][0]
  ASSERT_TRUE(back->reference().present);
  ASSERT_EQ(back->reference().inputs.size(), 1u);
  expect_same_object(gm->reference().inputs[0], back->reference().inputs[0]);
  expect_same_object(gm->reference().outputs, back->reference().outputs);

  // writing what was read gives the same bytes
  EXPECT_EQ(write_fxw(*back), bytes);
}

TEST(Writer, LaysOutAlignedGapFreeSafetensors) {
  auto gm = sample_module();
  const std::vector<uint8_t> bytes = write_fxw(*gm);
  const uint64_t n = header_length(bytes);
  EXPECT_EQ((8 + n) % 64, 0u);
  const std::string header_text(bytes.begin() + 8, bytes.begin() + 8 + n);
  const Json header = Json::parse(header_text);
  EXPECT_EQ(header_text.back() == ' ' || header_text.back() == '}', true);
  const uint64_t data_size = bytes.size() - 8 - n;

  std::vector<std::pair<uint64_t, uint64_t>> spans;
  size_t pads = 0;
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it.key() == "__metadata__") {
      EXPECT_EQ(it.value()["format"], "fxwasm");
      EXPECT_EQ(it.value()["format_version"], "1");
      EXPECT_TRUE(it.value()["program"].is_string());
      continue;
    }
    const uint64_t b = it.value()["data_offsets"][0], e = it.value()["data_offsets"][1];
    if (it.key().rfind("__pad__.", 0) == 0) {
      ++pads;
      EXPECT_EQ(it.value()["dtype"], "U8");
    } else {
      EXPECT_EQ(b % 64, 0u) << it.key();
    }
    spans.emplace_back(b, e);
  }
  EXPECT_GT(pads, 0u);
  std::sort(spans.begin(), spans.end());
  uint64_t at = 0;
  for (const auto& [b, e] : spans) {
    EXPECT_EQ(b, at);  // contiguous, no gaps, no overlap — what safetensors requires
    at = e;
  }
  EXPECT_EQ(at, data_size);

  const Json program = Json::parse(header["__metadata__"]["program"].get<std::string>());
  EXPECT_EQ(program["tensors"]["fc.weight"], "parameter");
  EXPECT_EQ(program["tensors"]["fc.steps"], "buffer");
  EXPECT_EQ(program["tensors"]["_tensor_constant0"], "constant");
  EXPECT_EQ(program["tensors"]["__ref__.in.0"], "reference");
  EXPECT_EQ(program["reference"]["inputs"][0]["$tensor"], "__ref__.in.0");
  EXPECT_EQ(program["reference"]["outputs"]["$tuple"][0]["$tensor"], "__ref__.out.0");
  EXPECT_EQ(program["reference"]["outputs"]["$tuple"][3][0]["$tensor"], "__ref__.out.3.0");
  // "a.b" and "a" → "b" both have path .4.a.b: names stay unique
  EXPECT_EQ(program["reference"]["outputs"]["$tuple"][4]["$dict"]["a.b"]["$tensor"], "__ref__.out.4.a.b");
  EXPECT_EQ(program["reference"]["outputs"]["$tuple"][4]["$dict"]["a"]["$dict"]["b"]["$tensor"], "__ref__.out.4.a.b~1");
  EXPECT_EQ(program["nodes"][0]["type"], "torch.Tensor");
  EXPECT_EQ(program["nodes"][5]["kwargs"]["fill"], Json::parse(R"({"$float":"inf"})"));
  EXPECT_EQ(program["modules"]["fc"]["hparams"]["eps"].dump(), "1e-05");
}

TEST(Writer, RefusesReservedNamesAndTooDeepValues) {
  auto gm = sample_module();
  gm->tensors()["__pad__.0"] = NamedTensor{TensorKind::Constant, Tensor::zeros({1}, DType::UInt8)};
  EXPECT_THROW(write_fxw(*gm), FxError);

  GraphModule deep;
  Node* x = deep.graph().placeholder("x");
  Value v = Value::node(x);
  for (int i = 0; i < 70; ++i) v = Value::list({v});
  deep.graph().output(v);
  try {
    write_fxw(deep);
    FAIL() << "expected an FxError";
  } catch (const FxError& e) {
    EXPECT_EQ(e.node(), "output");
    EXPECT_NE(std::string(e.what()).find("deeper"), std::string::npos);
  }
}

}  // namespace
}  // namespace fx
