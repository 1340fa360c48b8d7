// The shape propagation pass fills node meta without running kernels: on every committed example, every
// corpus model and every module golden, each shape and dtype it records equals that of a real run on the
// stored reference inputs (nodes it cannot infer keep no meta here; tests/cpp/ops/op_infer_test.cpp
// reports them).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "passes/shape_prop.h"
#include "exec/interpreter.h"
#include "serialize/reader.h"
#include "support/error.h"
#include "../model_files.h"

namespace fx {
namespace {

namespace fs = std::filesystem;

using testing::fxw_files;

std::unique_ptr<GraphModule> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return read_fxw(bytes.data(), bytes.size());
}

// Propagates from the reference inputs' shapes (the placeholders' meta may be symbolic) and compares
// each node's meta with what a real run gives. Returns how many nodes were compared.
int check_file(const std::string& path) {
  std::unique_ptr<GraphModule> gm = read(path);
  if (!gm->reference().present) return 0;
  std::map<std::string, std::pair<Value, Value>> ran;
  Interpreter interp(*gm);
  interp.set_node_hook([&](const Node& n, const Object& v) {
    Value shape, dtype;
    if (n.op() != Op::Output && shape_meta_of(v, shape, dtype)) ran[n.name()] = {shape, dtype};
  });
  interp.run(gm->reference().inputs);
  for (Node* n : gm->graph().nodes()) {  // what the exporter recorded must not hide a wrong inference
    Kwargs& meta = n->meta();
    meta.erase(std::remove_if(meta.begin(), meta.end(),
                              [](const auto& kv) { return kv.first == "shape" || kv.first == "dtype"; }),
               meta.end());
  }
  ShapePropagation prop(gm->reference().inputs);
  run_pass(prop, *gm);
  int compared = 0;
  for (const Node* n : gm->graph().nodes()) {
    auto it = ran.find(n->name());
    if (it == ran.end()) continue;
    const Value* shape = n->meta_value("shape");
    const Value* dtype = n->meta_value("dtype");
    if (!shape && !dtype) continue;  // unknown to inference
    EXPECT_TRUE(shape && *shape == it->second.first)
        << path << ": node " << n->name() << ": meta shape " << (shape ? shape->repr() : "none") << ", ran "
        << it->second.first.repr();
    EXPECT_TRUE(dtype && *dtype == it->second.second)
        << path << ": node " << n->name() << ": meta dtype " << (dtype ? dtype->repr() : "none") << ", ran "
        << it->second.second.repr();
    ++compared;
  }
  return compared;
}

TEST(ShapeProp, EveryModelsMetaEqualsARealRun) {
  const fs::path root = FXWASM_SOURCE_DIR;
  int files = 0, nodes = 0;
  for (const char* dir : {"examples", ".cache/corpus", "tests/golden/modules"}) {
    for (const std::string& f : fxw_files(root / dir)) {
      try {
        nodes += check_file(f);
      } catch (const FxError& e) {
        ADD_FAILURE() << f << ": " << e.what();
      }
      ++files;
    }
  }
  EXPECT_GT(files, 20);
  EXPECT_GT(nodes, 500);
}

// From the placeholders' meta alone (no inputs given): the toy example's recorded shapes.
TEST(ShapeProp, FromPlaceholderMeta) {
  auto gm = read(std::string(FXWASM_SOURCE_DIR) + "/examples/seed/toy_example.fxw");
  for (Node* n : gm->graph().nodes())
    if (n->op() != Op::Placeholder) n->meta().clear();
  ShapePropagation prop;
  EXPECT_TRUE(run_pass(prop, *gm));
  EXPECT_EQ(gm->graph().find("x")->meta_value("shape")->repr(), "torch.Size([10])");
  EXPECT_EQ(gm->graph().find("lt")->meta_value("dtype")->repr(), "torch.bool");
  EXPECT_EQ(gm->graph().find("lt")->meta_value("shape")->repr(), "torch.Size([])");
}

}  // namespace
}  // namespace fx
