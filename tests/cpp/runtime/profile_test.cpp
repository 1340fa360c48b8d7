// The profiler as a client of the executor (runtime/profile.h): per node time, shape, dtype, liveness.
#include "runtime/profile.h"

#include <gtest/gtest.h>

#include "../seed_graph.h"

namespace fx {
namespace {

using testing::build_seed;
using testing::f32;

TEST(Profiler, RecordsShapesDtypesAndTime) {
  GraphModule gm;
  build_seed(gm);
  Interpreter interp(gm);
  Profile p;
  Profiler profiler(p);
  interp.run({Object(f32({2, 3}, {1, 2, 3, 4, 5, 6})), Object(f32({1}, {1}))}, &profiler);
  profiler.finish(interp.memory());
  ASSERT_EQ(p.nodes.size(), 8u);
  EXPECT_EQ(p.nodes[2].name, "abs_1");
  EXPECT_EQ(p.nodes[2].target, "torch.abs");
  EXPECT_TRUE(p.nodes[2].is_tensor);
  EXPECT_EQ(p.nodes[2].shape, (Shape{2, 3}));
  EXPECT_EQ(p.nodes[6].dtype, DType::Bool);
  EXPECT_EQ(p.nodes[6].shape, Shape{});
  EXPECT_FALSE(p.nodes[7].is_tensor);  // the output tuple
  EXPECT_EQ(p.nodes[7].result, "tuple of 2");
  for (const auto& n : p.nodes) EXPECT_GE(n.ms, 0.0);
  EXPECT_GE(p.total_ms, 0.0);
}

}  // namespace
}  // namespace fx
