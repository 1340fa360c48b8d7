// The .fxw files under a folder (examples/, .cache/corpus, tests/golden/...), sorted, for tests that run
// every model they find. None when the folder does not exist.
#pragma once
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fx::testing {

inline std::vector<std::string> fxw_files(const std::filesystem::path& root) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".fxw") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace fx::testing
