#include "api/supported.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "nn/registry.h"
#include "ops/registry.h"

namespace fx {
namespace {

bool has(const nlohmann::json& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

TEST(SupportedOps, ListsEverySpellingOfTheRegistriesSorted) {
  const auto j = nlohmann::json::parse(supported_ops_json());
  ASSERT_TRUE(j.at("functions").is_array());
  for (const char* key : {"functions", "methods", "modules"}) {
    auto names = j.at(key).get<std::vector<std::string>>();
    EXPECT_FALSE(names.empty()) << key;
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << key;
  }
  // each list is exactly what the registries resolve
  for (const auto& f : j["functions"]) EXPECT_NE(OpRegistry::global().find_function(f), nullptr) << f;
  for (const auto& m : j["methods"]) EXPECT_NE(OpRegistry::global().find_method(m), nullptr) << m;
  for (const auto& t : j["modules"]) EXPECT_NE(ModuleRegistry::global().find(t), nullptr) << t;
  size_t spellings = 0;
  for (const OpDef& def : OpRegistry::global().all()) spellings += 1 + def.functions.size();
  EXPECT_EQ(j["functions"].size(), spellings);
  EXPECT_TRUE(has(j["functions"], "torch.relu"));
  EXPECT_TRUE(has(j["methods"], "relu"));
  EXPECT_TRUE(has(j["modules"], "torch.nn.modules.conv.Conv2d"));
}

}  // namespace
}  // namespace fx
