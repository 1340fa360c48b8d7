// JSON text → Json DOM for the reader's two big documents (the safetensors header and the program).
#pragma once
#include <cstdint>
#include <string>

#include "serialize/value_json.h"

namespace fx {
namespace fxw {

// The same DOM Json::parse(text) builds — values, key order, a repeated key's last value kept at its first
// place — and the same exceptions (Json::parse_error) on bad text, but in time linear in an object's keys:
// Json::parse finds each new key by a scan of its object (ordered_map), quadratic in the object's size,
// which was a third of the load time of a model with a few hundred tensors. Like Json::parse, it does not
// limit nesting: check the depth first (limits.h).
Json parse_json(const std::string& text);
// check_json_depth(text, what) (limits.h), then parse_json(text) — in one pass over the text when it is in
// the common subset parse_json reads without Json's parser (the same result and errors either way).
Json parse_json_checked(const std::string& text, const std::string& what);

// An integer literal that fits neither int64 nor uint64 (18446744073709551616, -9223372036854775809):
// Json::parse reads it as a rounded float; parse_json keeps its text as a binary value of this subtype (JSON
// text never yields a binary value otherwise), which every decoder rejects naming its field.
constexpr std::uint8_t kBigIntegerSubtype = 64;
Json big_integer(const std::string& text);
bool is_big_integer(const Json& j);
std::string big_integer_text(const Json& j);  // its digits (clipped)

}  // namespace fxw
}  // namespace fx
