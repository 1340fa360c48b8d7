// fxwasm.cat_grow: torch.cat's value, in a block that later steps append to in place — and never a value a
// view shows overwritten, whichever older view of the cache comes back.
#include <gtest/gtest.h>

#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object grow(const Tensor& past, const Tensor& x, int64_t dim = 2) {
  return OpRegistry::global().call("fxwasm.cat_grow", {Object::list({Object(past), Object(x)}), Object(Value::integer(dim))});
}
Object cat(const Tensor& past, const Tensor& x, int64_t dim = 2) {
  return OpRegistry::global().call("torch.cat", {Object::list({Object(past), Object(x)}), Object(Value::integer(dim))});
}

// [1, heads, len, 4] filled with start, start + 1, ...
Tensor cache(int64_t heads, int64_t len, float start) {
  Tensor t = Tensor::empty({1, heads, len, 4}, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = start + static_cast<float>(i);
  return t;
}

std::vector<float> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

TEST(CatGrow, EqualsCatStepAfterStepAndAppendsInPlace) {
  Tensor past = cache(3, 5, 0);
  Tensor want = past;
  const uint8_t* block = nullptr;
  int copies = 0;
  for (int step = 0; step < 40; ++step) {
    Tensor x = cache(3, 1, 1000.0f * static_cast<float>(step + 1));
    Tensor got = grow(past, x).tensor();
    want = cat(want, x).tensor();
    ASSERT_EQ(got.shape(), want.shape());
    ASSERT_EQ(values(got), values(want)) << "step " << step;
    if (got.storage()->data() != block) ++copies, block = got.storage()->data();
    past = got;
  }
  // 40 steps from 5 positions: the first step, then a new block only when the room runs out (×1.5, ≥16).
  EXPECT_LE(copies, 5);
  EXPECT_GE(copies, 2);
}

TEST(CatGrow, AnOlderViewIsCopiedNotOverwritten) {
  Tensor p0 = grow(cache(2, 3, 0), cache(2, 1, 100)).tensor();  // first step: exact block
  Tensor p1 = grow(p0, cache(2, 1, 200)).tensor();               // a block with room
  Tensor p2 = grow(p1, cache(2, 1, 300)).tensor();               // appended in place
  EXPECT_EQ(p1.storage(), p2.storage());
  const std::vector<float> p1_before = values(p1), p2_before = values(p2);
  // p1 again (a second continuation of the same past, as a beam search would ask): a copy, p2 untouched.
  Tensor q2 = grow(p1, cache(2, 1, 400)).tensor();
  EXPECT_NE(q2.storage(), p1.storage());
  EXPECT_EQ(values(p1), p1_before);
  EXPECT_EQ(values(p2), p2_before);
  EXPECT_EQ(values(q2), values(cat(p1, cache(2, 1, 400)).tensor()));
}

TEST(CatGrow, OtherShapesAndTypesAreTorchCat) {
  // Another dim, dtype promotion, a mismatch: torch.cat's values and messages.
  Tensor a = cache(2, 3, 0), b = cache(2, 3, 50);
  EXPECT_EQ(values(grow(a, b, 1).tensor()), values(cat(a, b, 1).tensor()));
  // A 1-D empty first piece is skipped, as torch.cat skips it, whatever the dim.
  Tensor empty = Tensor::empty({0}, DType::Float32);
  EXPECT_EQ(values(grow(empty, a, 1).tensor()), values(a));
  EXPECT_EQ(values(grow(empty, a, 3).tensor()), values(a));
  Tensor d = to_dtype(cache(2, 1, 7), DType::Float64);
  EXPECT_EQ(grow(a, d).tensor().dtype(), DType::Float64);
  try {
    grow(a, cache(3, 1, 0));
    FAIL() << "expected a size mismatch";
  } catch (const FxError& e) {
    EXPECT_NE(std::string(e.what()).find("Sizes of tensors must match except in dimension 2"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace fx
