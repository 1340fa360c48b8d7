// Op registration from constant tables. A file with many ops lists them as rows of string literals and
// function pointers and registers them with one loop at startup (`const OpTable reg{kRows};`), instead
// of one `OpRegistrar{OpDef{...}}` static each: in wasm every such static costs ~150 B of initializer
// code (strings, name vectors and the OpDef built and destroyed inline), a row ~24 B of constant data.
// Registration order is the rows' order, as it was the statics'.
#pragma once
#include <cstddef>

#include "ops/registry.h"

namespace fx {

struct OpRow {
  const char* name;       // canonical call_function target, e.g. "torch.add"
  const char* functions;  // further call_function targets, separated by spaces ("" for none)
  const char* methods;    // call_method names, separated by spaces ("" for none)
  OpFn run;
  OpFn infer = nullptr;
  bool data_dependent = false;
};

// "a b c" -> {"a", "b", "c"}; "" -> {}.
Names split_names(const char* spaced);

// Registers every row as OpRegistrar{OpDef{...}} would (a name taken twice ends the program the same way).
void register_rows(const OpRow* rows, size_t n) noexcept;

struct OpTable {
  template <size_t N>
  explicit OpTable(const OpRow (&rows)[N]) noexcept {
    register_rows(rows, N);
  }
};

}  // namespace fx
