// Everything a .fxw file drives before any input is given, run on one file: shared by the libFuzzer
// target (tests/fuzz/fxw_fuzzer.cpp) and the replay of the saved crashes
// (tests/cpp/serialize/regressions_test.cpp), so a regression file is replayed exactly as it was found.
//
// A malformed file must be rejected by the load with an fx::FxError. A file the load accepts must lint,
// write, and read back. Its text views and runtime plan (Interpreter construction) may fail, but only with
// an FxError (the views of a graph torch itself could not print, e.g. an operator.getitem without
// arguments; an unsupported op; bad module hyperparameters): the CLI turns those into exit 2 with a
// message. Anything else is a Finding (or a crash / sanitizer report on the way).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/model.h"
#include "runtime/interpreter.h"
#include "serialize/reader.h"
#include "support/error.h"

namespace fx {
namespace fuzz {

struct Finding : std::logic_error {
  using std::logic_error::logic_error;
};

struct Outcome {
  bool accepted = false;
  std::string error;  // the load's FxError message when rejected
};

inline Outcome exercise_fxw(const uint8_t* data, size_t size) {
  Outcome out;
  std::unique_ptr<Model> model;
  try {
    model = Model::load(data, size, "<fuzz>", /*allow_unsupported=*/true);  // the views get exercised too
  } catch (const FxError& e) {
    out.error = e.what();
    return out;
  } catch (const std::bad_alloc&) {
    throw;  // the caller decides (the fuzzer's memory limit is below what a valid file may need)
  } catch (const std::exception& e) {
    throw Finding(std::string("the load threw a non-FxError exception: ") + e.what());
  }
  out.accepted = true;
  std::string step;
  // Views: an FxError is a clean answer; another exception is a finding.
  for (const char* view : {"print_tabular", "code", "info_json", "graph_json"}) {
    try {
      const std::string v = view;
      if (v == "print_tabular") (void)model->print_tabular();
      if (v == "code") (void)model->code();
      if (v == "info_json") (void)model->info_json();
      if (v == "graph_json") (void)model->graph_json();
    } catch (const FxError&) {
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      throw Finding(std::string("accepted by the load, but ") + view + " threw a non-FxError exception: " + e.what());
    }
  }
  try {
    step = "lint";
    model->graph_module().graph().lint();
    step = "save";
    const std::vector<uint8_t> again = model->save();
    step = "reading what was saved";
    (void)read_fxw(again.data(), again.size());
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw Finding("accepted by the load, but " + step + " failed: " + e.what());
  }
  try {
    Interpreter plain(model->graph_module());
    Interpreter fused(model->graph_module(), /*fuse=*/true);  // as Model runs it
  } catch (const FxError&) {
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw Finding(std::string("building the runtime plan threw a non-FxError exception: ") + e.what());
  }
  return out;
}

}  // namespace fuzz
}  // namespace fx
