#include "ops/registry.h"

#include <gtest/gtest.h>

#include "ops/number.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

TEST(OpRegistry, AliasesResolveToOneEntry) {
  const OpRegistry& r = OpRegistry::global();
  const OpDef* abs = r.find_function("torch.abs");
  ASSERT_NE(abs, nullptr);
  EXPECT_EQ(abs->name, "torch.abs");
  EXPECT_EQ(r.find_function("aten.abs.default"), abs);
  EXPECT_EQ(r.find_function("torch.Tensor.abs"), abs);
  EXPECT_EQ(r.find_function("operator.abs"), abs);
  EXPECT_EQ(r.find_method("abs"), abs);
  EXPECT_EQ(r.find(Op::CallMethod, "abs"), abs);
  EXPECT_EQ(r.find(Op::CallFunction, "abs"), nullptr);  // a method name is not a function target
  EXPECT_EQ(r.find_method("torch.abs"), nullptr);
  EXPECT_EQ(r.find(Op::CallModule, "torch.abs"), nullptr);
  EXPECT_EQ(r.find_function("operator.add"), r.find_function("aten.add.Tensor"));
  EXPECT_EQ(r.find_method("sum"), r.find_function("torch.sum"));
  EXPECT_EQ(r.find_function("operator.truediv"), r.find_function("torch.div"));
  EXPECT_EQ(r.find_function("operator.lt"), r.find_method("lt"));
  EXPECT_EQ(r.find_function("torch.nn.functional.relu"), r.find_method("relu"));
}

Object dummy(const OpCall&) { return Object(); }

TEST(OpRegistry, DuplicateNamesAreRejected) {
  OpRegistry r;
  r.add(OpDef{"test.op", {"test.alias"}, {"op"}, dummy});
  EXPECT_THROW(r.add(OpDef{"test.alias", {}, {}, dummy}), FxError);
  EXPECT_THROW(r.add(OpDef{"test.other", {}, {"op"}, dummy}), FxError);
  EXPECT_THROW(r.add(OpDef{"test.none", {}, {}, nullptr}), FxError);
  EXPECT_NE(r.find_function("test.alias"), nullptr);
  EXPECT_EQ(r.find_function("test.other"), nullptr);  // a rejected entry leaves nothing behind
}

TEST(OpRegistry, CallByTarget) {
  Object r = OpRegistry::global().call("operator.add", {Object(Value::integer(2)), Object(Value::integer(3))});
  EXPECT_EQ(r.value(), Value::integer(5));
  EXPECT_THROW(OpRegistry::global().call("torch.nope", {}), FxError);
}

OpCall make_call(std::vector<Object> args, std::vector<std::pair<std::string, Object>> kwargs = {}) {
  OpCall c;
  c.args = std::move(args);
  c.kwargs = std::move(kwargs);
  return c;
}

std::string error_of(const Schema& s, const OpCall& c) {
  try {
    s.parse(c);
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

TEST(Schema, ParsesPositionalKeywordAndDefaults) {
  Schema s("add(input|self, other, *, alpha=1, mode='x', scale=0.5, flag=True, opt=None)");
  Args a = s.parse(make_call({Object(Value::integer(1))}, {{"other", Object(Value::floating(2.5))},
                                                            {"alpha", Object(Value::integer(3))}}));
  EXPECT_EQ(a.integer(0), 1);
  EXPECT_EQ(a.number(1).d, 2.5);
  EXPECT_TRUE(a.given(2));
  EXPECT_EQ(a.integer(2), 3);
  EXPECT_EQ(a.str(3), "x");
  EXPECT_EQ(a.number(4).d, 0.5);
  EXPECT_TRUE(a.boolean(5));
  EXPECT_TRUE(a.is_none(6));
  EXPECT_FALSE(a.given(6));
  Args b = s.parse(make_call({}, {{"self", Object(Value::integer(4))}, {"other", Object(Value::integer(5))}}));
  EXPECT_EQ(b.integer(0), 4);  // aten's name for the same parameter
}

TEST(Schema, ErrorsReadLikePython) {
  Schema s("sum(input|self, dim=None, keepdim=False, *, dtype=None)");
  Object t(Tensor::zeros({2}, DType::Float32));
  EXPECT_EQ(error_of(s, make_call({})), "sum() missing required argument 'input'");
  EXPECT_EQ(error_of(s, make_call({t, Object(), Object(), Object()})),
            "sum() takes 3 positional arguments but 4 were given");
  EXPECT_EQ(error_of(s, make_call({t}, {{"axis", Object()}})), "sum() got an unexpected keyword argument 'axis'");
  EXPECT_EQ(error_of(s, make_call({t, Object(Value::integer(0))}, {{"dim", Object()}})),
            "sum() got multiple values for argument 'dim'");
  Args a = s.parse(make_call({Object(Value::integer(1))}));
  EXPECT_THROW(a.tensor(0), FxError);
  try {
    a.tensor(0);
  } catch (const FxError& e) {
    EXPECT_STREQ(e.what(), "sum(): argument 'input' must be Tensor, not int 1");
  }
  Args d = s.parse(make_call({t, Object(Value::tuple({Value::integer(0), Value::integer(-1)}))},
                             {{"dtype", Object(Value::dtype("float64"))}}));
  EXPECT_EQ(*d.int_list(1), (std::vector<int64_t>{0, -1}));
  EXPECT_EQ(*d.dtype(3), DType::Float64);
  EXPECT_THROW(Schema("broken"), FxError);
}

TEST(PythonNumbers, FollowPythonRules) {
  auto I = Number::integer;
  auto F = Number::floating;
  EXPECT_EQ(py_binary(PyBinary::FloorDiv, I(-7), I(2)).i, -4);
  EXPECT_EQ(py_binary(PyBinary::Mod, I(-7), I(2)).i, 1);
  EXPECT_EQ(py_binary(PyBinary::Mod, I(7), I(-2)).i, -1);
  EXPECT_EQ(py_binary(PyBinary::Mod, F(7.5), I(-2)).d, -0.5);
  EXPECT_EQ(py_binary(PyBinary::FloorDiv, F(-7.0), F(2.5)).d, -3.0);
  EXPECT_TRUE(py_binary(PyBinary::TrueDiv, I(1), I(2)).is_float());
  EXPECT_EQ(py_binary(PyBinary::Pow, I(2), I(-1)).d, 0.5);
  EXPECT_EQ(py_binary(PyBinary::Pow, I(3), I(4)).i, 81);
  EXPECT_EQ(py_binary(PyBinary::Add, Number::boolean(true), Number::boolean(true)).i, 2);
  EXPECT_EQ(py_binary(PyBinary::Add, Number::boolean(true), Number::boolean(true)).kind, ScalarKind::Int);
  EXPECT_EQ(py_binary(PyBinary::Lt, I(1), F(1.5)).kind, ScalarKind::Bool);
  EXPECT_THROW(py_binary(PyBinary::TrueDiv, I(1), I(0)), FxError);
  EXPECT_THROW(py_binary(PyBinary::Mod, F(1), F(0)), FxError);
  EXPECT_THROW(py_binary(PyBinary::Mul, I(INT64_MAX), I(2)), FxError);
  EXPECT_THROW(py_binary(PyBinary::Pow, F(-8), F(1.0 / 3)), FxError);
  EXPECT_EQ(py_neg(I(3)).i, -3);
  EXPECT_EQ(py_abs(F(-0.0)).d, 0.0);
}

}  // namespace
}  // namespace fx
