// Complex tensors through the ops: view_as_real / view_as_complex share storage (and refuse what torch
// refuses), complex arithmetic with real operands promoted, casts both ways, abs / angle / conj / polar.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "ops/call_op.h"
#include "support/error.h"
#include "tensor/tensor.h"

namespace fx {
namespace {

using C = std::complex<float>;

Tensor complex_tensor(const Shape& shape, std::initializer_list<C> values) {
  Tensor t = Tensor::empty(shape, DType::Complex64);
  int i = 0;
  for (C v : values) t.data<C>()[i++] = v;
  return t;
}

Tensor call(const char* op, std::vector<Object> args) { return call_op(op, std::move(args)).tensor(); }

C at(const Tensor& t, int64_t i) { return t.contiguous().data<C>()[i]; }

TEST(ComplexOps, ViewAsRealAndBackShareStorage) {
  Tensor z = complex_tensor({2}, {C(1, 2), C(3, 4)});
  Tensor r = call("torch.view_as_real", {Object(z)});
  EXPECT_EQ(r.dtype(), DType::Float32);
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(r.storage(), z.storage());
  r.data<float>()[3] = 40;  // writes through to z
  EXPECT_EQ(at(z, 1), C(3, 40));
  Tensor back = call("torch.view_as_complex", {Object(r)});
  EXPECT_EQ(back.dtype(), DType::Complex64);
  EXPECT_EQ(back.shape(), (Shape{2}));
  EXPECT_EQ(at(back, 0), C(1, 2));
}

TEST(ComplexOps, ViewAsComplexRefusesWhatTorchRefuses) {
  Tensor odd = Tensor::zeros({3}, DType::Float32);
  EXPECT_THROW(call("torch.view_as_complex", {Object(odd)}), FxError);  // last dim not 2
  Tensor ints = Tensor::zeros({2, 2}, DType::Int64);
  EXPECT_THROW(call("torch.view_as_complex", {Object(ints)}), FxError);
  Tensor m = Tensor::zeros({2, 2}, DType::Float32);
  Tensor mt(m.storage(), DType::Float32, {2, 2}, {1, 2}, 0);  // last stride 2
  EXPECT_THROW(call("torch.view_as_complex", {Object(mt)}), FxError);
  EXPECT_THROW(call("torch.view_as_real", {Object(m)}), FxError);
  EXPECT_THROW(call("torch.imag", {Object(m)}), FxError);
}

TEST(ComplexOps, ArithmeticPromotesRealOperands) {
  Tensor z = complex_tensor({2}, {C(1, 2), C(-3, 0.5f)});
  Tensor w = complex_tensor({2}, {C(0.5f, -1), C(2, 2)});
  Tensor prod = call("torch.mul", {Object(z), Object(w)});
  EXPECT_EQ(at(prod, 0), C(1, 2) * C(0.5f, -1));
  EXPECT_EQ(at(prod, 1), C(-3, 0.5f) * C(2, 2));
  Tensor q = call("torch.div", {Object(z), Object(w)});
  EXPECT_NEAR(std::abs(at(q, 1) - C(-3, 0.5f) / C(2, 2)), 0, 1e-6);
  Tensor real = Tensor::empty({2}, DType::Float64);
  real.data<double>()[0] = 2;
  real.data<double>()[1] = -1;
  Tensor sum = call("torch.add", {Object(z), Object(real)});
  EXPECT_EQ(sum.dtype(), DType::Complex128);  // complex64 with float64: complex128, as torch
  EXPECT_EQ(sum.contiguous().data<std::complex<double>>()[1], std::complex<double>(-4, 0.5));
  Tensor scaled = call_op("torch.sub", {Object(z), Object(w)}, {{"alpha", Object(Value::integer(2))}}).tensor();
  EXPECT_EQ(at(scaled, 0), C(0, 4));
  Tensor neg = call("torch.neg", {Object(z)});
  EXPECT_EQ(at(neg, 1), C(3, -0.5f));
}

TEST(ComplexOps, CastsKeepTheRealPart) {
  Tensor z = complex_tensor({2}, {C(1.5f, 2), C(0, 0)});
  Tensor f = call_op("torch.Tensor.to", {Object(z), Object(Value::dtype("float32"))}).tensor();
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(f.data<float>()[0], 1.5f);
  Tensor b = call_op("torch.Tensor.to", {Object(z), Object(Value::dtype("bool"))}).tensor();
  EXPECT_TRUE(b.data<bool>()[0]);
  EXPECT_FALSE(b.data<bool>()[1]);
  Tensor i = Tensor::empty({1}, DType::Int64);
  i.data<int64_t>()[0] = 7;
  Tensor c = call_op("torch.Tensor.to", {Object(i), Object(Value::dtype("complex128"))}).tensor();
  EXPECT_EQ(c.data<std::complex<double>>()[0], std::complex<double>(7, 0));
}

TEST(ComplexOps, AbsAngleConjPolar) {
  Tensor z = complex_tensor({2}, {C(3, 4), C(-1, 0)});
  Tensor a = call("torch.abs", {Object(z)});
  EXPECT_EQ(a.dtype(), DType::Float32);
  EXPECT_FLOAT_EQ(a.contiguous().data<float>()[0], 5.0f);
  Tensor ang = call("torch.angle", {Object(z)});
  EXPECT_FLOAT_EQ(ang.contiguous().data<float>()[1], static_cast<float>(M_PI));
  Tensor cj = call("torch.conj", {Object(z)});
  EXPECT_EQ(at(cj, 0), C(3, -4));
  EXPECT_EQ(at(z, 0), C(3, 4));  // a copy: z itself unchanged
  Tensor r = Tensor::empty({1}, DType::Float32), t = Tensor::empty({1}, DType::Float32);
  r.data<float>()[0] = 2;
  t.data<float>()[0] = static_cast<float>(M_PI / 2);
  Tensor p = call("torch.polar", {Object(r), Object(t)});
  EXPECT_NEAR(at(p, 0).real(), 0, 1e-6);
  EXPECT_FLOAT_EQ(at(p, 0).imag(), 2.0f);
  Tensor re = call("torch.real", {Object(z)}), im = call("torch.imag", {Object(z)});
  EXPECT_EQ(re.contiguous().data<float>()[0], 3.0f);
  EXPECT_EQ(im.contiguous().data<float>()[0], 4.0f);
  Tensor made = call("torch.complex", {Object(re), Object(im)});
  EXPECT_EQ(at(made, 1), C(-1, 0));
}

TEST(ComplexOps, OpsThatMoveValuesMoveWholeComplexElements) {
  Tensor z = complex_tensor({2}, {C(1, 2), C(3, 4)});
  Tensor w = complex_tensor({1}, {C(5, 6)});
  Tensor cat = call_op("torch.cat", {Object::list({Object(z), Object(w)})}).tensor();
  ASSERT_EQ(cat.shape(), (Shape{3}));
  EXPECT_EQ(at(cat, 2), C(5, 6));
  Tensor flipped = call_op("torch.flip", {Object(z), Object::list({Object(Value::integer(0))})}).tensor();
  EXPECT_EQ(at(flipped, 0), C(3, 4));
  Tensor d = Tensor::empty({2}, DType::Complex128);
  d.data<std::complex<double>>()[0] = {1, -1};
  d.data<std::complex<double>>()[1] = {2, -2};
  Tensor padded = call_op("torch.nn.functional.pad", {Object(d), Object::tuple({Object(Value::integer(1)), Object(Value::integer(0))})}).tensor();
  ASSERT_EQ(padded.shape(), (Shape{3}));
  EXPECT_EQ(padded.contiguous().data<std::complex<double>>()[2], std::complex<double>(2, -2));
  EXPECT_EQ(padded.contiguous().data<std::complex<double>>()[0], std::complex<double>(0, 0));
}

TEST(ComplexOps, OpsWithoutComplexKernelsRefuseRatherThanDropTheImaginaryPart) {
  Tensor z = complex_tensor({2}, {C(0, 1), C(2, 3)});
  for (const char* op : {"torch.log1p", "torch.lt", "torch.maximum", "torch.cumsum"}) {
    std::vector<Object> args = {Object(z)};
    if (std::string(op) == "torch.lt" || std::string(op) == "torch.maximum") args.push_back(Object(z));
    if (std::string(op) == "torch.cumsum") args.push_back(Object(Value::integer(0)));
    EXPECT_THROW(call_op(op, args), FxError) << op;
  }
  // explicit casts keep the real part, as torch's .to() does
  Tensor f = call_op("torch.Tensor.float", {Object(z)}).tensor();
  EXPECT_EQ(f.data<float>()[1], 2.0f);
}

TEST(ComplexOps, ElementwiseFunctionsSumAndMatmul) {
  Tensor z = complex_tensor({2}, {C(0, 1), C(2, 3)});
  Tensor e = call("torch.exp", {Object(z)});
  EXPECT_LT(std::abs(at(e, 1) - std::exp(C(2, 3))), 1e-4f);
  Tensor s = call("torch.sum", {Object(z)});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(at(s, 0), C(2, 4));
  Tensor eq = call("torch.eq", {Object(z), Object(complex_tensor({2}, {C(0, 1), C(2, -3)}))});
  EXPECT_TRUE(eq.data<bool>()[0]);
  EXPECT_FALSE(eq.data<bool>()[1]);
  Tensor m = complex_tensor({2, 2}, {C(1, 1), C(0, 2), C(-1, 0), C(3, -1)});
  Tensor v = complex_tensor({2}, {C(2, 0), C(1, 1)});
  Tensor mv = call("torch.matmul", {Object(m), Object(v)});
  EXPECT_LT(std::abs(at(mv, 0) - (C(1, 1) * C(2, 0) + C(0, 2) * C(1, 1))), 1e-6f);
  EXPECT_LT(std::abs(at(mv, 1) - (C(-1, 0) * C(2, 0) + C(3, -1) * C(1, 1))), 1e-6f);
}

}  // namespace
}  // namespace fx
