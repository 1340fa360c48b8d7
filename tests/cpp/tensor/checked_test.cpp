// tensor/checked.h and the element-count checks of Tensor: sizes that overflow int64 or divide by zero
// are FxErrors with torch's wording, never a wrapped size or a trap.
#include "tensor/checked.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tensor/tensor.h"

namespace fx {
namespace {

std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const FxError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckedSizes, ArithmeticThrowsInsteadOfWrapping) {
  EXPECT_EQ(checked_mul(int64_t{1} << 31, int64_t{1} << 31, "x"), int64_t{1} << 62);
  EXPECT_THROW(checked_mul(int64_t{1} << 32, int64_t{1} << 32, "x"), FxError);
  EXPECT_THROW(checked_add(INT64_MAX, 1, "x"), FxError);
  EXPECT_THROW(checked_sub(INT64_MIN, 1, "x"), FxError);
  EXPECT_THROW(checked_div(5, 0, "x"), FxError);            // a trap in wasm otherwise
  EXPECT_THROW(checked_div(INT64_MIN, -1, "x"), FxError);   // the other trapping division
  EXPECT_THROW(checked_mod(5, 0, "x"), FxError);
  EXPECT_EQ(checked_mod(INT64_MIN, -1, "x"), 0);
  const std::string msg = error_of([] { checked_mul(int64_t{1} << 40, int64_t{1} << 40, "conv output size"); });
  EXPECT_NE(msg.find("conv output size"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1099511627776"), std::string::npos) << msg;
}

TEST(CheckedSizes, WindowOutputLength) {
  EXPECT_EQ(checked_window_out(5, 0, 3, 1, 1, "w"), 3);
  EXPECT_EQ(checked_window_out(5, 2, 3, 2, 1, "w"), 3);
  EXPECT_EQ(checked_window_out(7, 0, 3, 1, 2, "w"), 3);
  EXPECT_THROW(checked_window_out(5, 0, 3, 0, 1, "w"), FxError);                 // stride 0
  EXPECT_THROW(checked_window_out(5, 0, 3, 1, int64_t{1} << 62, "w"), FxError);  // dilation * (k - 1) overflows
  EXPECT_THROW(checked_window_out(5, INT64_MAX, 1, 1, 1, "w"), FxError);         // in + pad overflows
}

// A shape whose element count overflows int64: torch's allocation message naming the sizes asked.
TEST(CheckedSizes, OverflowingShapesName) {
  const std::string alloc = error_of([] { Tensor::empty({int64_t{1} << 40, int64_t{1} << 40}, DType::Float32); });
  EXPECT_NE(alloc.find("Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]"),
            std::string::npos) << alloc;
  const std::string meta = error_of([] { Tensor::meta({int64_t{1} << 62, 4}, DType::Int8); });
  EXPECT_NE(meta.find("Storage size calculation overflowed"), std::string::npos) << meta;
  const std::string view = error_of([] {
    Tensor t = Tensor::zeros({1}, DType::Float32);
    Tensor(t.storage(), DType::Float32, {int64_t{1} << 62, int64_t{1} << 62, 0}, {0, 0, 0}, 0);
  });
  EXPECT_NE(view.find("numel: integer multiplication overflow"), std::string::npos) << view;
}

}  // namespace
}  // namespace fx
