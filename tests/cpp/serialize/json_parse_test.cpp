// parse_json builds exactly the DOM Json::parse builds (order, duplicates, every value kind) and fails with
// the same exceptions and messages.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "serialize/json_parse.h"

namespace fx {
namespace {

using fxw::parse_json;

// Same dump (key order included) as Json::parse of the same text.
void expect_same(const std::string& text) {
  const Json want = Json::parse(text);
  const Json got = parse_json(text);
  EXPECT_EQ(got.dump(), want.dump()) << text;
  EXPECT_EQ(got, want) << text;
}

std::string big_object(size_t keys, bool with_duplicates) {
  std::string s = "{";
  for (size_t i = 0; i < keys; ++i) {
    if (i) s += ",";
    s += "\"k" + std::to_string((i * 7919) % keys) + "\":" + std::to_string(i);
    if (with_duplicates && i % 5 == 4) s += ",\"k" + std::to_string((i * 31) % keys) + "\":{\"again\":" + std::to_string(i) + "}";
  }
  return s + "}";
}

TEST(JsonParse, BuildsTheSameDomAsJsonParse) {
  expect_same("null");
  expect_same("[]");
  expect_same("{}");
  expect_same("  {\"a\": [1, -2, 3.5, 1e300, 18446744073709551615, -9223372036854775808, true, false, null]} ");
  expect_same("{\"s\": \"esc \\\" \\\\ \\n \\u00e9 \\ud83d\\ude00\", \"nested\": {\"x\": [[], {}, [{\"y\": 1}]]}}");
  expect_same("[{\"b\": 1, \"a\": 2}, {\"a\": 3, \"b\": 4}]");
}

TEST(JsonParse, KeepsKeyOrderAndLastDuplicateInSmallAndLargeObjects) {
  expect_same("{\"b\": 1, \"a\": 2, \"b\": 3}");  // small: scanned
  expect_same(big_object(15, true));
  expect_same(big_object(16, true));
  expect_same(big_object(17, true));
  expect_same(big_object(500, false));
  expect_same(big_object(500, true));
  expect_same("{\"t\": " + big_object(300, true) + ", \"u\": [" + big_object(40, true) + "," + big_object(3, true) + "]}");
  const Json j = parse_json("{" + std::string("\"x\":1,\"y\":2,") + big_object(30, false).substr(1));
  EXPECT_EQ(j.begin().key(), "x");
}

TEST(JsonParse, FailsAsJsonParseDoes) {
  const std::vector<std::string> bad = {"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1}}", "nul", "\"\\x\"", "[1] 2",
                                        "{\"a\": [1, 2}", "1e99999", "\"\x01\"", big_object(40, true) + ","};
  for (const std::string& text : bad) {
    std::string want, got;
    try {
      const Json parsed = Json::parse(text);
    } catch (const Json::exception& e) {
      want = e.what();
    }
    try {
      const Json parsed = parse_json(text);
    } catch (const Json::exception& e) {
      got = e.what();
    }
    EXPECT_FALSE(want.empty()) << text;
    EXPECT_EQ(got, want) << text;
  }
}

}  // namespace
}  // namespace fx
