#include "api/check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace fx {
namespace {

Object f32(std::vector<float> v, Shape shape) {
  return Object(Tensor::from_bytes(shape, DType::Float32, v.data(), v.size() * sizeof(float)));
}

TEST(CheckTest, WithinToleranceAsAllclose) {
  auto r = compare_outputs(f32({1.0f, 2.0f}, {2}), f32({1.0f, 2.0001f}, {2}), 1e-4, 1e-5);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].pass);
  EXPECT_NEAR(r[0].max_abs, 1e-4, 1e-6);
  EXPECT_EQ(r[0].path, "");
}

TEST(CheckTest, MismatchCountsElements) {
  auto r = compare_outputs(f32({1, 2, 3}, {3}), f32({1, 2.5f, 3.5f}, {3}), 1e-4, 1e-5);
  EXPECT_FALSE(r[0].pass);
  EXPECT_EQ(r[0].mismatched, 2);
  EXPECT_DOUBLE_EQ(r[0].max_abs, 0.5);
  EXPECT_NEAR(r[0].max_rel, 0.5 / 2.5, 1e-12);
}

// As torch.allclose(actual, expected, equal_nan=False): NaN is unequal to everything, NaN included.
TEST(CheckTest, NanEqualsNanOnlyWhenAsked) {
  auto r = compare_outputs(f32({NAN}, {1}), f32({NAN}, {1}), 1e-4, 1e-5);
  EXPECT_FALSE(r[0].pass);
  EXPECT_EQ(r[0].mismatched, 1);
  r = compare_outputs(f32({NAN}, {1}), f32({NAN}, {1}), 1e-4, 1e-5, /*equal_nan=*/true);
  EXPECT_TRUE(r[0].pass);
  r = compare_outputs(f32({1}, {1}), f32({NAN}, {1}), 1e-4, 1e-5, true);
  EXPECT_FALSE(r[0].pass);
  r = compare_outputs(f32({NAN}, {1}), f32({1}, {1}), 1e-4, 1e-5, true);
  EXPECT_FALSE(r[0].pass);
  r = compare_outputs(Object(Value::floating(NAN)), Object(Value::floating(NAN)), 1e-4, 1e-5);
  EXPECT_FALSE(r[0].pass);
}

// An infinity is close only to the same infinity: atol + rtol * |inf| is inf, so the formula alone
// would let -inf and any finite number pass against a stored +inf.
TEST(CheckTest, InfinitiesEqualOnlyInSign) {
  auto r = compare_outputs(f32({INFINITY, -INFINITY}, {2}), f32({INFINITY, -INFINITY}, {2}), 1e-4, 1e-5);
  EXPECT_TRUE(r[0].pass);
  EXPECT_EQ(r[0].max_abs, 0.0);
  r = compare_outputs(f32({-INFINITY}, {1}), f32({INFINITY}, {1}), 1e-4, 1e-5);
  EXPECT_FALSE(r[0].pass);
  r = compare_outputs(f32({1.0f}, {1}), f32({INFINITY}, {1}), 1e-4, 1e-5);
  EXPECT_FALSE(r[0].pass);
  r = compare_outputs(f32({3.4e38f}, {1}), f32({-INFINITY}, {1}), 1, 1);
  EXPECT_FALSE(r[0].pass);
  r = compare_outputs(f32({INFINITY}, {1}), f32({1.0f}, {1}), 1, 1);
  EXPECT_FALSE(r[0].pass);
  r = compare_outputs(f32({INFINITY, 1, 2}, {3}), f32({-INFINITY, 1, 2}, {3}), 1e-4, 1e-5, true);
  EXPECT_EQ(r[0].mismatched, 1);
  r = compare_outputs(Object(Value::floating(-INFINITY)), Object(Value::floating(INFINITY)), 1e-4, 1e-5);
  EXPECT_FALSE(r[0].pass);
  // Finite values keep torch's formula: |a - e| <= atol + rtol * |e|.
  r = compare_outputs(f32({1.0f + 1.5e-4f}, {1}), f32({1.0f}, {1}), 1e-4, 1e-4);
  EXPECT_TRUE(r[0].pass);
  r = compare_outputs(f32({1.0f + 2.5e-4f}, {1}), f32({1.0f}, {1}), 1e-4, 1e-4);
  EXPECT_FALSE(r[0].pass);
}

TEST(CheckTest, ShapeAndStructureDifferencesFail) {
  auto r = compare_outputs(f32({1, 2}, {2}), f32({1, 2}, {1, 2}), 1, 1);
  EXPECT_FALSE(r[0].pass);
  EXPECT_NE(r[0].message.find("shape"), std::string::npos);
  r = compare_outputs(Object::tuple({f32({1}, {1})}), Object::tuple({f32({1}, {1}), f32({1}, {1})}), 1, 1);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].pass);
}

TEST(CheckTest, NestedPathsAndScalars) {
  Object a = Object::tuple({Object(Value::integer(3)), Object::dict({{"y", f32({1}, {1})}})});
  Object e = Object::tuple({Object(Value::integer(3)), Object::dict({{"y", f32({1}, {1})}})});
  auto r = compare_outputs(a, e, 0, 0);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].path, "[0]");
  EXPECT_EQ(r[1].path, "[1]['y']");
  EXPECT_TRUE(r[0].pass && r[1].pass);
}

TEST(CheckTest, ReportJson) {
  CheckReport rep;
  rep.status = CheckStatus::Fail;
  rep.outputs = compare_outputs(f32({1}, {1}), f32({NAN}, {1}), 0, 0);
  auto j = nlohmann::json::parse(rep.to_json());
  EXPECT_EQ(j["status"], "fail");
  EXPECT_EQ(j["outputs"][0]["max_abs"], "inf");
}

}  // namespace
}  // namespace fx
