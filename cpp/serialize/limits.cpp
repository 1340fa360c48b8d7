#include "serialize/limits.h"

#include "support/error.h"

namespace fx {
namespace fxw {

size_t json_nesting_depth(const char* text, size_t size) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) deepest = depth;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return deepest;
}

void check_json_depth(const std::string& text, const std::string& what) {
  const size_t depth = json_nesting_depth(text.data(), text.size());
  if (depth > kMaxJsonDepth)
    throw FxError(what + ": JSON nests " + std::to_string(depth) + " levels deep; the limit is " +
                  std::to_string(kMaxJsonDepth));
}

std::string clip(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return s.substr(0, cut) + "...";
}

void check_string_length(const std::string& s, const std::string& what, const std::string& node) {
  if (s.size() > kMaxStringBytes)
    throw FxError(what + ": string of " + std::to_string(s.size()) + " bytes exceeds the " +
                  std::to_string(kMaxStringBytes) + "-byte limit",
                  node);
}

}  // namespace fxw
}  // namespace fx
