// The committed example examples/seed/toy_example.fxw (made by examples/seed/make_toy_example.py with
// the reference torch) reads back as the graph Dynamo produced for the seed's toy_example.
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "fxw_files.h"
#include "serialize/writer.h"

namespace fx {
namespace {

using namespace testing_fxw;

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Example, ToyExampleReadsAsDynamoMadeIt) {
  const auto bytes = read_file(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw");
  auto gm = read_fxw(bytes.data(), bytes.size());
  const auto nodes = gm->graph().nodes();
  const std::vector<std::string> expected = {
      "placeholder l_a_ L_a_ [] {}",
      "placeholder l_b_ L_b_ [] {}",
      R"(call_function abs_1 torch.abs [{"$node":"l_a_"}] {})",
      R"(call_function add operator.add [{"$node":"abs_1"},1] {})",
      R"(call_function x operator.truediv [{"$node":"l_a_"},{"$node":"add"}] {})",
      R"(call_method sum_1 sum [{"$node":"l_b_"}] {})",
      R"(call_function lt operator.lt [{"$node":"sum_1"},0] {})",
      R"(output output output [{"$tuple":[{"$node":"lt"},{"$node":"x"}]}] {})",
  };
  ASSERT_EQ(nodes.size(), expected.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string d = describe(*nodes[i]);
    EXPECT_EQ(d.substr(0, d.find(" type=")), expected[i]);
  }
  EXPECT_EQ(nodes[0]->type_expr(), "torch.Tensor");
  EXPECT_EQ(*nodes[2]->meta_value("shape"), Value::size({Value::integer(10)}));
  EXPECT_EQ(*nodes[6]->meta_value("dtype"), Value::dtype("bool"));
  EXPECT_NE(nodes[2]->meta_value("stack_trace")->as_str().find("torch.abs(a)"), std::string::npos);
  EXPECT_EQ(gm->producer().tracer, "dynamo");
  EXPECT_EQ(gm->producer().torch_version, "2.15.0");
  EXPECT_EQ(gm->modules().at("").type, "torch.fx.graph_module.GraphModule");
  EXPECT_TRUE(gm->tensors().empty());

  const Reference& ref = gm->reference();
  ASSERT_TRUE(ref.present);
  ASSERT_EQ(ref.inputs.size(), 2u);
  EXPECT_EQ(ref.inputs[0].tensor().shape(), (Shape{10}));
  EXPECT_EQ(ref.inputs[0].tensor().dtype(), DType::Float32);
  ASSERT_EQ(ref.outputs.kind(), Object::Kind::Tuple);
  const Tensor& lt = ref.outputs.items()[0].tensor();
  const Tensor& x = ref.outputs.items()[1].tensor();
  EXPECT_EQ(lt.dtype(), DType::Bool);
  EXPECT_EQ(lt.dim(), 0);
  // the stored outputs are what the graph computes from the stored inputs
  const float* a = ref.inputs[0].tensor().data<float>();
  const float* b = ref.inputs[1].tensor().data<float>();
  float sum_b = 0;
  for (int i = 0; i < 10; ++i) {
    EXPECT_FLOAT_EQ(x.data<float>()[i], a[i] / (std::fabs(a[i]) + 1.0f));
    sum_b += b[i];
  }
  EXPECT_EQ(*lt.data<bool>(), sum_b < 0);

  // the C++ writer gives a file that reads back the same
  const auto again = write_fxw(*gm);
  auto gm2 = read_fxw(again.data(), again.size());
  expect_same_graph(gm->graph(), gm2->graph());
}

}  // namespace
}  // namespace fx
