// Small string helpers shared by the text views.
#pragma once
#include <string>
#include <vector>

namespace fx {

// Python's sep.join(parts).
inline std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

}  // namespace fx
