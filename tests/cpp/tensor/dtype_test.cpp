#include "tensor/dtype.h"

#include <gtest/gtest.h>

#include "support/error.h"
#include "tensor/promote.h"

namespace fx {
namespace {

TEST(DType, NamesRoundTrip) {
  for (DType t : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int64,
                  DType::Int32, DType::Int16, DType::Int8, DType::UInt8, DType::Bool, DType::Complex64,
                  DType::Complex128}) {
    EXPECT_EQ(dtype_from_name(dtype_name(t)), t);
    EXPECT_EQ(dtype_from_safetensors(dtype_safetensors_name(t)), t);
  }
  EXPECT_EQ(dtype_from_name("long"), DType::Int64);
  EXPECT_EQ(dtype_from_name("torch.half"), DType::Float16);
  EXPECT_EQ(dtype_size(DType::BFloat16), 2u);
  EXPECT_THROW(dtype_from_name("complex32"), FxError);
  EXPECT_THROW(dtype_from_safetensors("F8"), FxError);
  EXPECT_FALSE(dtype_is_integral(DType::Bool));
  EXPECT_TRUE(dtype_is_integral(DType::UInt8));
}

// Expectations below are torch 2.15 outputs (torch.promote_types / torch.result_type).
TEST(Promote, PromoteTypes) {
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int32), DType::Int32);
  EXPECT_EQ(promote_types(DType::Bool, DType::UInt8), DType::UInt8);
  EXPECT_EQ(promote_types(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Int64, DType::Float16), DType::Float16);
  EXPECT_EQ(promote_types(DType::Float32, DType::Float64), DType::Float64);
  EXPECT_EQ(promote_types(DType::Int16, DType::Int32), DType::Int32);
}

Tensor t(DType d, Shape s) { return Tensor::empty(s, d); }

TEST(Promote, ResultTypeTiers) {
  EXPECT_EQ(result_type(t(DType::Int32, {2}), ScalarKind::Float), DType::Float32);
  EXPECT_EQ(result_type(t(DType::Int64, {2}), ScalarKind::Float), DType::Float32);
  EXPECT_EQ(result_type(t(DType::Bool, {2}), ScalarKind::Int), DType::Int64);
  EXPECT_EQ(result_type(t(DType::Bool, {2}), ScalarKind::Bool), DType::Bool);
  EXPECT_EQ(result_type(t(DType::Float16, {2}), ScalarKind::Float), DType::Float16);
  EXPECT_EQ(result_type(t(DType::UInt8, {2}), ScalarKind::Int), DType::UInt8);
  EXPECT_EQ(result_type(t(DType::Float32, {2}), ScalarKind::Float), DType::Float32);
  EXPECT_EQ(result_type(t(DType::Float64, {2}), ScalarKind::Float), DType::Float64);
  // Zero-dim tensors rank below dim tensors unless of a higher category.
  EXPECT_EQ(result_type(t(DType::Int8, {2}), t(DType::Int64, {})), DType::Int8);
  EXPECT_EQ(result_type(t(DType::Float32, {2}), t(DType::Float64, {})), DType::Float32);
  EXPECT_EQ(result_type(t(DType::Int32, {2}), t(DType::Float64, {})), DType::Float64);
  EXPECT_EQ(result_type(t(DType::Int32, {}), t(DType::Int64, {})), DType::Int64);
  EXPECT_EQ(result_type(t(DType::Float64, {}), ScalarKind::Float), DType::Float64);
  EXPECT_EQ(result_type(t(DType::Int32, {}), ScalarKind::Float), DType::Float32);
  EXPECT_EQ(result_type(t(DType::Bool, {}), t(DType::Int32, {3})), DType::Int32);
  ResultType scalars;
  scalars.add_scalar(ScalarKind::Int);
  scalars.add_scalar(ScalarKind::Float);
  EXPECT_EQ(scalars.result(), DType::Float32);
  EXPECT_THROW(ResultType().result(), FxError);
}

}  // namespace
}  // namespace fx
