// grow_caches: a returned cat of a graph input becomes fxwasm.cat_grow; nothing else does, and nothing in a
// graph that writes in place. Through the plan, runs keep torch.cat's values and profiles its name.
#include "passes/grow_caches.h"

#include <gtest/gtest.h>

#include "passes_testing.h"
#include "runtime/plan.h"

namespace fx {
namespace {

// step(past, x) = (cat([past, x], 2) * 1, cat) — the cache returned, as a decoding step returns it.
struct Step {
  GraphModule gm;
  Node* past = gm.graph().placeholder("past");
  Node* x = gm.graph().placeholder("x");
  Node* cat = gm.graph().call_function("torch.cat", {Value::list({Value::node(past), Value::node(x)}), Value::integer(2)});
  Node* use = gm.graph().call_function("operator.mul", {Value::node(cat), Value::integer(1)});
  Step() { gm.graph().output(Value::tuple({Value::node(use), Value::node(cat)})); }
};

TEST(GrowCaches, AReturnedCatOfAnInput) {
  Step s;
  EXPECT_TRUE(GrowCaches().run(s.gm));
  EXPECT_EQ(s.cat->target(), "fxwasm.cat_grow");
  EXPECT_FALSE(GrowCaches().run(s.gm));  // nothing left to do
}

TEST(GrowCaches, LeavesOtherCats) {
  {  // not returned
    GraphModule gm;
    Node* a = gm.graph().placeholder("a");
    Node* c = gm.graph().call_function("torch.cat", {Value::list({Value::node(a), Value::node(a)})});
    gm.graph().output(Value::node(gm.graph().call_function("operator.mul", {Value::node(c), Value::integer(2)})));
    EXPECT_FALSE(GrowCaches().run(gm));
  }
  {  // the first piece is no input; three pieces
    GraphModule gm;
    Node* a = gm.graph().placeholder("a");
    Node* r = gm.graph().call_function("torch.relu", {Value::node(a)});
    Node* c1 = gm.graph().call_function("torch.cat", {Value::list({Value::node(r), Value::node(a)})});
    Node* c2 = gm.graph().call_function("torch.cat", {Value::list({Value::node(a), Value::node(a), Value::node(a)})});
    gm.graph().output(Value::tuple({Value::node(c1), Value::node(c2)}));
    EXPECT_FALSE(GrowCaches().run(gm));
  }
  {  // a graph that writes in place
    Step s;
    auto at = s.gm.graph().inserting_before(s.use);
    s.gm.graph().call_method("add_", {Value::node(s.x), Value::integer(1)});
    EXPECT_FALSE(GrowCaches().run(s.gm));
    EXPECT_EQ(s.cat->target(), "torch.cat");
  }
}

TEST(GrowCaches, ThePlanRunsItWithCatsValuesAndName) {
  Step s;
  Plan plan(s.gm);
  EXPECT_EQ(plan.lowered().graph().find("cat")->target(), "fxwasm.cat_grow");
  EXPECT_EQ(s.cat->target(), "torch.cat");  // the user's graph is not changed
  EXPECT_FALSE(plan.mutates_in_place());
  Object past(testing::f32({1, 2, 3, 4}, {1, 2, 2, 1}));
  Object x(testing::f32({5, 6}, {1, 2, 1, 1}));
  Profile profile;
  Object out = plan.run({past, x}, &profile);
  EXPECT_EQ(testing::values(out.items()[1]), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  bool seen = false;
  for (const NodeProfile& p : profile.nodes)
    if (p.name == "cat") {
      seen = true;
      EXPECT_EQ(p.target, "torch.cat");
    }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace fx
