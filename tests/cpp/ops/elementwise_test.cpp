// Op behaviour the golden cases cannot express: views as inputs, outputs never aliasing inputs.
#include <gtest/gtest.h>

#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Tensor arange(const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, DType::Float64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = static_cast<double>(i);
  return to_dtype(t, dtype);
}

Object call(const std::string& target, std::vector<Object> args,
            std::vector<std::pair<std::string, Object>> kwargs = {}) {
  return OpRegistry::global().call(target, std::move(args), std::move(kwargs));
}

TEST(Elementwise, TransposedAndExpandedInputs) {
  Tensor a = arange({2, 3}, DType::Float32);
  Tensor at(a.storage(), DType::Float32, {3, 2}, {1, 3}, 0);  // a.T
  Tensor col = expand_to(arange({3, 1}, DType::Int64), {3, 2});
  Tensor y = call("operator.sub", {Object(at), Object(col)}).tensor();
  EXPECT_EQ(y.dtype(), DType::Float32);
  // laid out as torch lays it out: like a.T, the first operand (torch: y.stride() == (1, 3))
  EXPECT_EQ(y.strides(), (Shape{1, 3}));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(y.data<float>()[i * 1 + j * 3], a.data<float>()[j * 3 + i] - i);
}

TEST(Elementwise, ResultNeverAliasesInput) {
  Tensor a = arange({4}, DType::Float32);
  Tensor y = call("operator.add", {Object(a), Object(Value::integer(0))}).tensor();
  EXPECT_NE(y.storage(), a.storage());
  Tensor r = call("torch.relu", {Object(a)}).tensor();
  EXPECT_NE(r.storage(), a.storage());
}

// float32 operands where one repeats over the other's leading dims (a bias, a position embedding) run the
// kernel once per repetition: the same values as element by element, either side, with leading 1s.
TEST(Elementwise, RepeatedOperandMatchesElementByElement) {
  struct Case {
    Shape a, b;
  };
  for (const Case& c : {Case{{2, 3, 17}, {3, 17}}, Case{{3, 17}, {2, 3, 17}}, Case{{4, 2, 16}, {1, 1, 16}},
                        Case{{1, 16}, {1, 1, 16}}, Case{{5, 33}, {33}}, Case{{2, 4, 3}, {4, 3}} /* rows < 16 */}) {
    Tensor a = arange(c.a, DType::Float32), b = arange(c.b, DType::Float32);
    for (int64_t i = 0; i < b.numel(); ++i) b.data<float>()[i] = 0.5f + 0.25f * static_cast<float>(i);  // no 0
    for (const char* op : {"operator.add", "operator.sub", "operator.mul", "operator.truediv"}) {
      Tensor y = call(op, {Object(a), Object(b)}).tensor();
      const Shape want = broadcast_shapes(c.a, c.b);
      ASSERT_EQ(y.shape(), want) << op;
      Tensor ea = expand_to(a, want).contiguous(), eb = expand_to(b, want).contiguous();
      for (int64_t i = 0; i < y.numel(); ++i) {
        const float x = ea.data<float>()[i], z = eb.data<float>()[i];
        const std::string o = op;
        const float r = o == "operator.add" ? x + z : o == "operator.sub" ? x - z : o == "operator.mul" ? x * z : x / z;
        ASSERT_EQ(y.data<float>()[i], r) << op << " at " << i;
      }
    }
  }
}

TEST(Elementwise, IntegerOverflowWrapsLikeTorch) {
  int32_t v[2] = {INT32_MAX, INT32_MIN};
  Tensor t = Tensor::from_bytes({2}, DType::Int32, v, sizeof v);
  Tensor y = call("operator.add", {Object(t), Object(Value::integer(1))}).tensor();
  EXPECT_EQ(y.data<int32_t>()[0], INT32_MIN);
  Tensor n = call("torch.neg", {Object(t)}).tensor();
  EXPECT_EQ(n.data<int32_t>()[1], INT32_MIN);
}

TEST(ReduceSum, StridedSliceAndNonAdjacentDims) {
  Tensor x = arange({2, 3, 4}, DType::Float32);
  Tensor xt(x.storage(), DType::Float32, {4, 3, 2}, {1, 4, 12}, 0);  // x.permute(2, 1, 0)
  Tensor s = call("torch.sum", {Object(xt), Object(Value::tuple({Value::integer(0), Value::integer(2)}))},
                  {{"keepdim", Object(Value::boolean(true))}})
                 .tensor();
  EXPECT_EQ(s.shape(), (Shape{1, 3, 1}));
  for (int j = 0; j < 3; ++j) {
    float want = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) want += static_cast<float>(i * 12 + j * 4 + k);
    EXPECT_EQ(s.data<float>()[j], want);
  }
}

TEST(ToDtype, SameDtypeIsNoCopyOtherwiseConverts) {
  Tensor x = arange({3}, DType::Float32);
  EXPECT_EQ(to_dtype(x, DType::Float32).storage(), x.storage());
  Tensor h = to_dtype(x, DType::Float16);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_EQ(to_dtype(h, DType::Float64).data<double>()[2], 2.0);
  EXPECT_EQ(tensor_item(to_dtype(arange({1}, DType::Float32), DType::Bool)).kind, ScalarKind::Bool);
  EXPECT_THROW(tensor_item(x), FxError);
}

}  // namespace
}  // namespace fx
