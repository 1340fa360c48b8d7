// The .fxw format's limits (docs/format.md §4) and the pre-parse nesting check. Every limit is enforced
// before the data it bounds is used, so a hostile file costs at most these amounts of work and memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace fx {
namespace fxw {

constexpr uint64_t kMaxHeaderBytes = 256ull * 1024 * 1024;
constexpr size_t kMaxJsonDepth = 64;
constexpr size_t kMaxStringBytes = 64 * 1024;
constexpr size_t kMaxNodes = 1000000;
constexpr size_t kMaxRank = 16;
constexpr size_t kAlignment = 64;  // what the writer aligns the data section and each tensor to

// Deepest nesting of [ and { in JSON text, found by a linear scan that skips strings (with escapes).
// It never recurses, so it is safe on any input; the text need not be valid JSON.
size_t json_nesting_depth(const char* text, size_t size);

// Throws FxError "<what>: JSON nests N levels deep; the limit is 64" when the text is too deep.
void check_json_depth(const std::string& text, const std::string& what);

// `s` cut to at most `max` bytes (with "..." when cut), for quoting file content in error messages: a
// message never carries more than a few hundred bytes of the file, whatever it holds.
std::string clip(const std::string& s, size_t max = 200);

// Throws FxError "<what>: string of N bytes exceeds the 65536-byte limit" when s is too long.
void check_string_length(const std::string& s, const std::string& what, const std::string& node = {});

}  // namespace fxw
}  // namespace fx
