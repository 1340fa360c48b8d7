// View aliasing as torch defines it: views share storage, writes through a view (or an in-place op on
// one) are visible in the base, copies are independent. Values are checked against hand-computed
// results; the golden files cover the numerics against torch.
#include <gtest/gtest.h>

#include <cmath>

#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object call(const std::string& target, std::vector<Object> args,
            std::vector<std::pair<std::string, Object>> kwargs = {}) {
  return OpRegistry::global().call(target, std::move(args), std::move(kwargs));
}
Object method(const std::string& name, std::vector<Object> args) {
  const OpDef* def = OpRegistry::global().find_method(name);
  if (!def) throw FxError("no method " + name);
  OpCall c;
  c.args = std::move(args);
  return def->run(c);
}
Object i(int64_t v) { return Object(Value::integer(v)); }
Object f(double v) { return Object(Value::floating(v)); }

// x = arange(6.).view(2, 3) = [[0, 1, 2], [3, 4, 5]]
Tensor base() { return call("torch.arange", {f(6.0)}).tensor().contiguous(); }
Tensor grid() { return method("view", {Object(base()), i(2), i(3)}).tensor(); }
std::vector<double> values(const Tensor& t) {
  Tensor d = to_dtype(t, DType::Float64).contiguous();
  return std::vector<double>(d.data<double>(), d.data<double>() + d.numel());
}

TEST(ShapeOps, ViewsShareStorage) {
  Tensor x = grid();
  for (const char* m : {"t", "contiguous", "detach"}) {
    Tensor v = method(m, {Object(x)}).tensor();
    EXPECT_EQ(v.storage(), x.storage()) << m;
  }
  EXPECT_EQ(method("permute", {Object(x), i(1), i(0)}).tensor().storage(), x.storage());
  EXPECT_EQ(method("unsqueeze", {Object(x), i(0)}).tensor().storage(), x.storage());
  EXPECT_EQ(method("expand", {Object(method("unsqueeze", {Object(x), i(0)}).tensor()), i(4), i(2), i(3)})
                .tensor().storage(), x.storage());
  EXPECT_EQ(call("operator.getitem", {Object(x), Object(Value::slice(Value(), Value(), Value::integer(2)))})
                .tensor().storage(), x.storage());
  EXPECT_EQ(call("torch.split", {Object(x), i(1), i(1)}).items()[2].tensor().storage(), x.storage());
  EXPECT_EQ(call("torch.Tensor.to", {Object(x), Object(Value::dtype("float32"))}).tensor().storage(), x.storage());
  // Copies: reshape of a transposed tensor, clone, advanced indexing, to() another dtype.
  Tensor xt = method("t", {Object(x)}).tensor();
  EXPECT_NE(call("torch.reshape", {Object(xt), Object(Value::tuple({Value::integer(6)}))}).tensor().storage(),
            x.storage());
  EXPECT_EQ(call("torch.reshape", {Object(x), Object(Value::tuple({Value::integer(6)}))}).tensor().storage(),
            x.storage());
  EXPECT_NE(method("clone", {Object(x)}).tensor().storage(), x.storage());
  Tensor idx = call("torch.tensor", {Object(Value::list({Value::integer(1), Value::integer(0)}))}).tensor();
  EXPECT_NE(call("operator.getitem", {Object(x), Object(idx)}).tensor().storage(), x.storage());
}

TEST(ShapeOps, InPlaceThroughAViewIsVisibleInTheBase) {
  Tensor x = grid();
  Tensor col = call("torch.select", {Object(method("t", {Object(x)}).tensor()), i(0), i(1)}).tensor();  // x[:, 1]
  Object r = call("torch.Tensor.add_", {Object(col), f(10.0)});
  EXPECT_EQ(r.tensor().storage(), x.storage());
  EXPECT_EQ(values(x), (std::vector<double>{0, 11, 2, 3, 14, 5}));
  // masked_fill_ on a slice, relu(inplace=True) on a transposed view, copy_ into a narrow.
  Tensor row = call("aten.slice.Tensor", {Object(x), i(0), i(1), i(2)}).tensor();
  Tensor mask = call("operator.gt", {Object(row), f(4.5)}).tensor();
  method("masked_fill_", {Object(row), Object(mask), f(-1.0)});
  EXPECT_EQ(values(x), (std::vector<double>{0, 11, 2, 3, -1, -1}));
  call("torch.nn.functional.relu", {Object(method("t", {Object(x)}).tensor())}, {{"inplace", Object(Value::boolean(true))}});
  EXPECT_EQ(values(x), (std::vector<double>{0, 11, 2, 3, 0, 0}));
  Tensor first = call("torch.narrow", {Object(x), i(1), i(0), i(1)}).tensor();
  method("copy_", {Object(first), Object(call("torch.full", {Object(Value::tuple({Value::integer(2), Value::integer(1)})),
                                                             i(7)}).tensor())});
  EXPECT_EQ(values(x), (std::vector<double>{7, 11, 2, 7, 0, 0}));
  // operator.setitem with a bool mask and with a slice.
  Tensor neg = call("operator.lt", {Object(x), f(1.0)}).tensor();
  call("operator.setitem", {Object(x), Object(neg), f(9.0)});
  EXPECT_EQ(values(x), (std::vector<double>{7, 11, 2, 7, 9, 9}));
  call("operator.setitem", {Object(x), Object(Value::tuple({Value::slice(Value(), Value(), Value()), Value::integer(2)})),
                            f(0.5)});
  EXPECT_EQ(values(x), (std::vector<double>{7, 11, 0.5, 7, 9, 0.5}));
}

TEST(ShapeOps, InPlaceChecksLikeTorch) {
  Tensor x = call("torch.zeros", {i(3)}, {{"dtype", Object(Value::dtype("int64"))}}).tensor();
  EXPECT_THROW(call("torch.Tensor.add_", {Object(x), f(0.5)}), FxError);  // Float can't be cast to Long
  Tensor y = call("torch.zeros", {i(3)}).tensor();
  EXPECT_THROW(call("torch.Tensor.add_", {Object(y), Object(grid())}), FxError);  // broadcast grows the shape
  EXPECT_EQ(values(y), (std::vector<double>{0, 0, 0}));  // a failed in-place op leaves the input alone
}

TEST(ShapeOps, ScalarValues) {
  Tensor x = grid();
  Object shape = call("builtins.getattr", {Object(x), Object(Value::str("shape"))});
  ASSERT_TRUE(shape.is_sequence());
  Object n = call("operator.getitem", {shape, i(-1)});
  EXPECT_EQ(n.value(), Value::integer(3));
  EXPECT_EQ(call("operator.mul", {n, call("operator.getitem", {shape, i(0)})}).value(), Value::integer(6));
  EXPECT_EQ(call("math.sqrt", {call("torch.numel", {Object(x)})}).value(), Value::floating(std::sqrt(6.0)));
  EXPECT_EQ(call("math.floor", {f(-2.5)}).value(), Value::integer(-3));
  EXPECT_EQ(call("builtins.len", {shape}).value(), Value::integer(2));
  EXPECT_EQ(call("operator.not_", {i(0)}).value(), Value::boolean(true));
  EXPECT_EQ(call("operator.invert", {i(5)}).value(), Value::integer(-6));
  EXPECT_EQ(call("builtins.max", {i(3), f(7.5), i(2)}).value(), Value::floating(7.5));
  EXPECT_EQ(method("size", {Object(x), i(0)}).value(), Value::integer(2));
  EXPECT_EQ(method("dim", {Object(x)}).value(), Value::integer(2));
  EXPECT_THROW(call("torch._assert", {Object(Value::boolean(false)), Object(Value::str("bad shape"))}), FxError);
  EXPECT_NO_THROW(call("torch._assert", {Object(Value::boolean(true)), Object(Value::str("ok"))}));
  Object sl = call("operator.getitem", {shape, Object(Value::slice(Value::integer(1), Value(), Value()))});
  ASSERT_EQ(sl.items().size(), 1u);
  EXPECT_EQ(sl.items()[0].value(), Value::integer(3));
}

}  // namespace
}  // namespace fx
