#include <gtest/gtest.h>

#include "gemm_q_testing.h"

namespace fx {
namespace {

TEST(GemmQ, EveryCaseMatchesTheScalarReference) {
  int checked = 0;
  for (const qgemm_testing::QCase& t : qgemm_testing::cases()) {
    EXPECT_EQ(qgemm_testing::check_case(t), "");
    ++checked;
  }
  EXPECT_GT(checked, 900);
}

TEST(GemmQ, DequantizeRowsGivesTheStoredValues) {
  // int8: value = q · scale.
  const int8_t q8[6] = {-127, 0, 5, 127, -1, 3};
  const float s8[2] = {0.5f, 2.0f};
  float out[6];
  q8_dequantize_rows(2, 3, q8, 3, s8, out);
  EXPECT_EQ(out[0], -63.5f);
  EXPECT_EQ(out[2], 2.5f);
  EXPECT_EQ(out[3], 254.0f);
  EXPECT_EQ(out[5], 6.0f);
  // int4: element j in the low nibble of byte j, element 16 + j in its high nibble; value (nibble − 8)·scale.
  std::vector<uint8_t> q4(32, 0x88);  // K = 40: two blocks, the second partial
  q4[0] = 0xF0;                       // element 0: 0 − 8, element 16: 15 − 8
  q4[16 + 7] = 0x19;                  // element 39: 9 − 8, element 55 (beyond K): ignored
  const float s4[2] = {0.25f, 3.0f};
  std::vector<float> w(40, -1.0f);
  q4_dequantize_rows(1, 40, q4.data(), 32, s4, w.data());
  EXPECT_EQ(w[0], -2.0f);
  EXPECT_EQ(w[16], 1.75f);
  EXPECT_EQ(w[1], 0.0f);
  EXPECT_EQ(w[39], 3.0f);
  EXPECT_EQ(w[38], 0.0f);
}

}  // namespace
}  // namespace fx
