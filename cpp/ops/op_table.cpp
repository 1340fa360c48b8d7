#include "ops/op_table.h"

#include <cstring>
#include <utility>

namespace fx {

Names split_names(const char* spaced) {
  Names names;
  for (const char* p = spaced; *p;) {
    if (*p == ' ') { ++p; continue; }
    const char* end = std::strchr(p, ' ');
    if (!end) end = p + std::strlen(p);
    names.emplace_back(p, end);
    p = end;
  }
  return names;
}

void register_rows(const OpRow* rows, size_t n) noexcept {
  for (size_t i = 0; i < n; ++i) {
    const OpRow& r = rows[i];
    OpDef def{r.name, split_names(r.functions), split_names(r.methods), r.run, r.infer, r.data_dependent};
    OpRegistrar{std::move(def)};
  }
}

}  // namespace fx
