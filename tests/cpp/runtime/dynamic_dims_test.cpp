// Placeholders whose meta says a size is symbolic (sym_dims: torch.export's dynamic_shapes, Dynamo's dynamic
// graphs) run at any size in the symbol's range; dims of one symbol must agree; the rest stay exact.
#include <gtest/gtest.h>

#include "../serialize/fxw_files.h"
#include "api/model.h"

namespace fx {
namespace {

using namespace testing_fxw;

Json meta_for(std::initializer_list<int64_t> example, Json sym_dims) {
  Json size = Json::object(), dtype = Json::object(), meta = Json::object();
  size["$size"] = Json::array();
  for (int64_t d : example) size["$size"].push_back(d);
  dtype["$dtype"] = "float32";
  meta["shape"] = size;
  meta["dtype"] = dtype;
  meta["sym_dims"] = std::move(sym_dims);
  return meta;
}

// x [batch, 8] and y [batch, 5] with batch in [1, 64] (as torch.export records Dim("batch", min=1, max=64)),
// out = x.sum(1) + y.sum(1).
std::unique_ptr<Model> dynamic_model() {
  Json p = small_program();
  p["producer"]["tracer"] = "export";
  p["nodes"] = Json::array({node("placeholder", "x", "x"), node("placeholder", "y", "y"),
                            node("call_method", "sx", "sum", Json::array({ref("x"), 1})),
                            node("call_method", "sy", "sum", Json::array({ref("y"), 1})),
                            node("call_function", "add", "operator.add", Json::array({ref("sx"), ref("sy")})),
                            node("output", "output", "output", Json::array({ref("add")}))});
  p["nodes"][0]["meta"] = meta_for({3, 8}, Json::array({Json::array({"s0", 1, 64}), nullptr}));
  p["nodes"][1]["meta"] = meta_for({3, 5}, Json::array({Json::array({"s0", 1, 64}), nullptr}));
  const auto bytes = file_for(p);
  return Model::load(bytes.data(), bytes.size(), "dynamic.fxw");
}

std::string run_error(Model& m, std::vector<Object> inputs) {
  try {
    m.run(inputs);
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

Object ones(Shape s) {
  Tensor t = Tensor::empty(s, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = 1;
  return Object(t);
}

TEST(DynamicDims, AnySizeInRangeRuns) {
  auto model = dynamic_model();
  for (int64_t batch : {1, 3, 7, 64}) {
    const Object out = model->run({ones({batch, 8}), ones({batch, 5})});
    ASSERT_TRUE(out.is_tensor());
    EXPECT_EQ(out.tensor().shape(), (Shape{batch}));
    EXPECT_EQ(out.tensor().data<float>()[batch - 1], 13.0f);
  }
}

TEST(DynamicDims, OutOfRangeDisagreeingAndFixedDimsAreRefusedNamingTheInput) {
  auto model = dynamic_model();
  EXPECT_EQ(run_error(*model, {ones({65, 8}), ones({65, 5})}), "node 'x': input 'x' dim 0 is 65, outside s0's range [1, 64]");
  EXPECT_EQ(run_error(*model, {ones({0, 8}), ones({0, 5})}), "node 'x': input 'x' dim 0 is 0, outside s0's range [1, 64]");
  EXPECT_EQ(run_error(*model, {ones({4, 8}), ones({5, 5})}),
            "node 'y': input 'y' dim 0 is 5, but s0 is 4 (from input 'x'): sizes of one symbol must agree");
  EXPECT_EQ(run_error(*model, {ones({4, 9}), ones({4, 5})}),
            "node 'x': input 'x' expects float32 [s0, 8], 1 <= s0 <= 64, got float32 [4, 9]");
}

TEST(DynamicDims, MalformedSymDimsAreALoadErrorNamingTheNode) {
  Json p = small_program();
  p["producer"]["tracer"] = "export";
  p["nodes"] = Json::array({node("placeholder", "x", "x"), node("output", "output", "output", Json::array({ref("x")}))});
  p["nodes"][0]["meta"] = meta_for({3, 8}, Json::array({Json::array({"s0", 1, 64})}));  // one entry for two dims
  const auto bytes = file_for(p);
  try {
    Model::load(bytes.data(), bytes.size(), "bad.fxw");
    FAIL() << "loaded";
  } catch (const FxError& e) {
    EXPECT_EQ(std::string(e.what()), "node 'x': bad.fxw: placeholder meta sym_dims: expected one entry per dim of the shape (2)");
    EXPECT_EQ(e.node(), "x");
  }
}

}  // namespace
}  // namespace fx
