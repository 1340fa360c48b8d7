// nn.RNNCell / LSTMCell / GRUCell leaves (modules/rnn_cells.cpp) beyond the golden model
// (tests/golden/modules/rnn_cells.fxw): an unbatched call equals the batched one, a missing hidden state
// is zeros, and torch's errors for wrong ranks and a bad nonlinearity.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/registry.h"
#include "exec/interpreter.h"
#include "support/error.h"

namespace fx {
namespace {

Tensor f32(const Shape& shape, float start) {
  std::vector<float> v;
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  for (int64_t i = 0; i < n; ++i) v.push_back(std::sin(start + 0.7f * static_cast<float>(i)));
  return Tensor::from_bytes(shape, DType::Float32, v.data(), v.size() * sizeof(float));
}

// A graph calling the cell `type` (input 3, hidden 4) on x, and on (x, h) when `with_hidden`.
struct CellModel {
  GraphModule gm;
  CellModel(const std::string& type, int64_t gates, bool with_hidden, const std::string& nonlinearity = "tanh") {
    gm.modules()["cell"] = ModuleInfo{"torch.nn.modules.rnn." + type,
                                      {{"hidden_size", Value::integer(4)}, {"nonlinearity", Value::str(nonlinearity)}}};
    gm.tensors()["cell.weight_ih"] = NamedTensor{TensorKind::Parameter, f32({gates * 4, 3}, 0.1f)};
    gm.tensors()["cell.weight_hh"] = NamedTensor{TensorKind::Parameter, f32({gates * 4, 4}, 0.5f)};
    gm.tensors()["cell.bias_ih"] = NamedTensor{TensorKind::Parameter, f32({gates * 4}, 0.9f)};
    gm.tensors()["cell.bias_hh"] = NamedTensor{TensorKind::Parameter, f32({gates * 4}, 1.3f)};
    Graph& g = gm.graph();
    Node* x = g.placeholder("x");
    std::vector<Value> args{Value::node(x)};
    if (with_hidden) args.push_back(Value::node(g.placeholder("h")));
    g.output(Value::node(g.call_module("cell", args)));
  }
};

std::vector<float> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

TEST(RnnCells, UnbatchedInputIsABatchOfOneAndMissingHiddenIsZeros) {
  for (const auto& [type, gates] : std::vector<std::pair<std::string, int64_t>>{{"RNNCell", 1}, {"GRUCell", 3}}) {
    CellModel with_h(type, gates, true), without_h(type, gates, false);
    Interpreter a(with_h.gm), b(without_h.gm);
    Tensor x = f32({2, 3}, 0.2f);
    Object batched = a.run({Object(x), Object(f32({2, 4}, 0.4f))});
    ASSERT_EQ(batched.tensor().shape(), (Shape{2, 4})) << type;
    // Row 0 of the batch, unbatched (1-D input and hidden).
    Object one = a.run({Object(f32({3}, 0.2f)), Object(f32({4}, 0.4f))});
    ASSERT_EQ(one.tensor().shape(), (Shape{4})) << type;
    std::vector<float> full = values(batched.tensor()), row = values(one.tensor());
    for (size_t i = 0; i < row.size(); ++i) EXPECT_FLOAT_EQ(row[i], full[i]) << type;
    std::vector<float> zero_h = values(a.run({Object(x), Object(Tensor::zeros({2, 4}, DType::Float32))}).tensor());
    std::vector<float> no_h = values(b.run({Object(x)}).tensor());
    EXPECT_EQ(zero_h, no_h) << type;
  }
}

TEST(RnnCells, LstmCellReturnsHiddenAndCellState) {
  CellModel m("LSTMCell", 4, false);
  Interpreter interp(m.gm);
  Object r = interp.run({Object(f32({3}, 0.2f))});
  ASSERT_TRUE(r.is_sequence());
  ASSERT_EQ(r.items().size(), 2u);
  EXPECT_EQ(r.items()[0].tensor().shape(), (Shape{4}));
  EXPECT_EQ(r.items()[1].tensor().shape(), (Shape{4}));
}

TEST(RnnCells, TorchErrors) {
  CellModel m("RNNCell", 1, false);
  Interpreter interp(m.gm);
  try {
    interp.run({Object(f32({1, 2, 3}, 0.0f))});
    FAIL();
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("RNNCell: Expected input to be 1D or 2D, got 3D instead"), std::string::npos)
        << e.what();
  }
  CellModel bad("RNNCell", 1, false, "sigmoid");
  EXPECT_THROW({ Interpreter i(bad.gm); }, FxError);
}

}  // namespace
}  // namespace fx
