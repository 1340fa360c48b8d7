// parse_json builds exactly the DOM Json::parse builds (order, duplicates, every value kind) and fails with
// the same exceptions and messages.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "serialize/json_parse.h"
#include "serialize/limits.h"
#include "support/error.h"

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

// The fast path's edges (json_parse.cpp's FastReader) and what it leaves to Json's parser: the same DOM
// either way.
TEST(JsonParse, FastPathEdgesBuildTheSameDom) {
  for (const char* text :
       {"0", "-0", "7", "-7", "123456789012345678", "-123456789012345678", "1234567890123456789",
        "-1234567890123456789", "0.0", "-0.0", "1.5e3", "1E5", "1e-5", "2.5E+2",
        "1e308", "4.9e-324", "\"\"", "\"\x7f ~\"", "\"caf\xc3\xa9\"", "\"\\u0041\\n\"",
        "\"\\b\\f\\n\\r\\t\\/\\\\\\\"\"", "\xef\xbb\xbf{\"bom\": 1}", " \t\r\n[ 1 , 2 ]\n ",
        "{\"\": \"\", \"a\": {}}", "[[[[[[[[[[1]]]]]]]]]]", "{\"a\": [true, false, null, {\"b\": [ ]}]}"})
    expect_same(text);
  // An integer literal beyond 64 bits is the one difference: Json::parse reads it as a float, parse_json
  // keeps it as a marker its decoders reject (value_limits_test.cpp).
  EXPECT_TRUE(fxw::is_big_integer(parse_json("99999999999999999999")));
}

TEST(JsonParse, FailsAsJsonParseDoes) {
  const std::vector<std::string> bad = {"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1}}", "nul", "\"\\x\"", "[1] 2",
                                        "{\"a\": [1, 2}", "1e99999", "\"\x01\"", big_object(40, true) + ",",
                                        "01", "-", "-a", "1.", ".5", "1e", "1e+", "+1", "nullx", "tru", "[1 2]",
                                        "{\"a\":}", "{1: 2}", "{\"a\"}", "\"open", "\"\\", "[1,", "{\"a\":1,}",
                                        "\"\xff\"", "-1e400", "[\"a\"]]", "\"\\q\""};
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

// parse_json_checked = check_json_depth + parse_json, in one pass on the fast path: the limit itself is
// read, one level more fails with check_json_depth's message, whichever path the text takes.
TEST(JsonParse, CheckedParseLimitsDepthAsCheckJsonDepth) {
  auto nest = [](size_t depth, const std::string& leaf) {
    return std::string(depth, '[') + leaf + std::string(depth, ']');
  };
  for (const std::string leaf : {"1", "\"\\u0041\""}) {  // fast path, and Json's parser
    expect_same(nest(fxw::kMaxJsonDepth, leaf));
    EXPECT_EQ(fxw::parse_json_checked(nest(fxw::kMaxJsonDepth, leaf), "doc"), Json::parse(nest(fxw::kMaxJsonDepth, leaf)));
    std::string want, got;
    try {
      fxw::check_json_depth(nest(fxw::kMaxJsonDepth + 1, leaf), "doc");
    } catch (const FxError& e) {
      want = e.what();
    }
    try {
      fxw::parse_json_checked(nest(fxw::kMaxJsonDepth + 1, leaf), "doc");
    } catch (const FxError& e) {
      got = e.what();
    }
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(got, want);
  }
  // Too deep and invalid further on: the depth is reported, as check-then-parse did.
  EXPECT_THROW(fxw::parse_json_checked(nest(fxw::kMaxJsonDepth + 5, "1") + ",", "doc"), FxError);
}

}  // namespace
}  // namespace fx
