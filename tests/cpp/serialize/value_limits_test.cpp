// Values a file may not hold: integers outside int64 (which Json's parser would read as rounded floats)
// and bool tensors whose bytes are neither 0 nor 1 — each an FxError naming the field or the tensor.
#include <gtest/gtest.h>

#include <string>

#include "fxw_files.h"
#include "serialize/json_parse.h"

namespace fx {
namespace {

using namespace testing_fxw;

// small_program() with relu's args replaced by `args_text` (raw JSON text: any integer literal).
std::vector<uint8_t> file_with_args(const std::string& args_text) {
  Json p = small_program();
  p["nodes"][1] = node("call_function", "add", "operator.add", Json::array({ref("x"), "ARGS"}));
  p["nodes"][2] = node("output", "output", "output", {ref("add")});
  std::string program = p.dump();
  const std::string mark = "\"ARGS\"";
  program.replace(program.find(mark), mark.size(), args_text);
  Json h = Json::object();
  h["__metadata__"] = {{"format", "fxwasm"}, {"format_version", "1"}, {"program", program}};
  return raw_file(h.dump());
}

TEST(ValueLimits, IntegersOutsideInt64AreErrorsNamingTheField) {
  for (const std::string big : {"18446744073709551616", "-9223372036854775809", "9223372036854775808",
                                "123456789012345678901234567890"}) {
    const std::string err = read_error(file_with_args(big));
    EXPECT_NE(err.find("node 'add': args: integer " + big + " does not fit in 64-bit signed"), std::string::npos)
        << big << ": " << err;
  }
  EXPECT_NE(read_error(file_with_args("{\"$tuple\": [1, -99999999999999999999]}")).find("does not fit"),
            std::string::npos);
  for (const std::string ok : {"9223372036854775807", "-9223372036854775808", "1.8446744073709552e19"}) {
    const std::string err = read_error(file_with_args(ok));
    EXPECT_EQ(err.find("does not fit"), std::string::npos) << ok << ": " << err;
  }
  const auto bytes = file_with_args("-9223372036854775808");
  auto gm = read_fxw(bytes.data(), bytes.size());
  EXPECT_EQ(gm->graph().find("add")->args()[1].as_int(), INT64_MIN);
}

TEST(ValueLimits, ParserKeepsBigIntegersAsMarkers) {
  const Json j = fxw::parse_json("[18446744073709551616, 1.5, 2, -9223372036854775809]");
  EXPECT_TRUE(fxw::is_big_integer(j[0]));
  EXPECT_EQ(fxw::big_integer_text(j[0]), "18446744073709551616");
  EXPECT_TRUE(j[1].is_number_float());
  EXPECT_TRUE(j[2].is_number_unsigned());
  EXPECT_EQ(fxw::big_integer_text(j[3]), "-9223372036854775809");
}

std::vector<uint8_t> bool_file(const std::vector<uint8_t>& bytes) {
  Json p = small_program();
  p["tensors"] = {{"mask", "buffer"}};
  Json tensors = {{"mask", {{"dtype", "BOOL"}, {"shape", {static_cast<int64_t>(bytes.size())}},
                            {"data_offsets", {0, bytes.size()}}}}};
  return file_for(p, tensors, bytes);
}

TEST(ValueLimits, BoolTensorBytesMustBeZeroOrOne) {
  EXPECT_EQ(read_error(bool_file({0, 1, 1, 0})), "");
  EXPECT_NE(read_error(bool_file({0, 1, 2, 0})).find("tensor 'mask': BOOL element 2 is byte 2; a bool must be 0 or 1"),
            std::string::npos)
      << read_error(bool_file({0, 1, 2, 0}));
  EXPECT_NE(read_error(bool_file({255})).find("tensor 'mask': BOOL element 0 is byte 255"), std::string::npos);
}

}  // namespace
}  // namespace fx
