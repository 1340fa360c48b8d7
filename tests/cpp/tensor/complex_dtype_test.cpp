// complex64 / complex128 in the tensor layer: sizes and names (torch's and safetensors'), torch's promotion
// rules with the other dtypes and tiers, and copies of strided complex views.
#include <gtest/gtest.h>

#include <complex>

#include "support/error.h"
#include "tensor/dtype.h"
#include "tensor/promote.h"
#include "tensor/tensor.h"

namespace fx {
namespace {

TEST(ComplexDType, SizesAndNames) {
  EXPECT_EQ(dtype_size(DType::Complex64), 8u);
  EXPECT_EQ(dtype_size(DType::Complex128), 16u);
  EXPECT_STREQ(dtype_name(DType::Complex64), "complex64");
  EXPECT_EQ(dtype_from_name("torch.cfloat"), DType::Complex64);
  EXPECT_EQ(dtype_from_name("complex128"), DType::Complex128);
  EXPECT_STREQ(dtype_safetensors_name(DType::Complex128), "C128");
  EXPECT_EQ(dtype_from_safetensors("C64"), DType::Complex64);
  EXPECT_TRUE(dtype_is_complex(DType::Complex64));
  EXPECT_FALSE(dtype_is_floating(DType::Complex64));
  EXPECT_EQ(dtype_real_part(DType::Complex128), DType::Float64);
  EXPECT_EQ(dtype_to_complex(DType::Float16), DType::Complex64);
}

TEST(ComplexDType, PromotesAsTorch) {
  EXPECT_EQ(promote_types(DType::Complex64, DType::Float64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Int64, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Bool, DType::Complex128), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Complex64, DType::Complex128), DType::Complex128);
  // tiers: a zero-dim complex128 with a float32 tensor gives complex64 (torch.result_type)
  ResultType r;
  r.add_tensor(DType::Float32, 2);
  r.add_tensor(DType::Complex128, 0);
  EXPECT_EQ(r.result(), DType::Complex64);
  ResultType s;  // and an int tensor with it: the zero-dim's category wins, its own dtype
  s.add_tensor(DType::Int32, 1);
  s.add_tensor(DType::Complex128, 0);
  EXPECT_EQ(s.result(), DType::Complex128);
  ResultType t;  // a Python float does not lower a complex tensor
  t.add_tensor(DType::Complex64, 1);
  t.add_scalar(ScalarKind::Float);
  EXPECT_EQ(t.result(), DType::Complex64);
}

TEST(ComplexDType, StridedCopiesMoveWholeElements) {
  using C = std::complex<double>;
  Tensor t = Tensor::empty({2, 3}, DType::Complex128);
  for (int i = 0; i < 6; ++i) t.data<C>()[i] = C(i, -i);
  Tensor tt(t.storage(), DType::Complex128, {3, 2}, {1, 3}, 0);  // the transpose
  Tensor c = tt.contiguous();
  const C want[] = {C(0, 0), C(3, -3), C(1, -1), C(4, -4), C(2, -2), C(5, -5)};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c.data<C>()[i], want[i]) << i;
}

}  // namespace
}  // namespace fx
