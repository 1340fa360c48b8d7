// Everything a .fxw file drives before any input is given, run on one file: shared by the libFuzzer
// target (tests/fuzz/fxw_fuzzer.cpp) and the replay of the saved crashes
// (tests/cpp/serialize/regressions_test.cpp), so a regression file is replayed exactly as it was found.
//
// A malformed file must be rejected by the load with an fx::FxError. A file the load accepts must lint,
// write, and read back. Its text views and runtime plan (Interpreter construction) may fail, but only with
// an FxError (the views of a graph torch itself could not print, e.g. an operator.getitem without
// arguments; an unsupported op; bad module hyperparameters): the CLI turns those into exit 2 with a
// message. Anything else is a Finding (or a crash / sanitizer report on the way).
//
// Then the model runs once (small graphs only) on inputs made from the file's last bytes — its tensor data,
// which the fuzzer mutates freely: nested lists, tuples and dicts (some past the 64-level limit), integers
// at and past int64's ends, non-finite floats, and tensors of extreme shapes whose byte counts may not
// match, in the JSON form inputs cross the bindings in (api/wire.h). Those may fail, but only with an FxError.
#pragma once
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/model.h"
#include "api/wire.h"
#include "exec/interpreter.h"
#include "runtime/plan.h"
#include "serialize/reader.h"
#include "support/error.h"

namespace fx {
namespace fuzz {

struct Finding : std::logic_error {
  using std::logic_error::logic_error;
};

// Run inputs in the wire's JSON form, decoded from `n` bytes at `p` (zeros once they run out).
class InputMaker {
 public:
  InputMaker(const uint8_t* p, size_t n) : p_(p), n_(n) {}

  std::string inputs(size_t count) {
    std::string out = "[";
    for (size_t i = 0; i < count; ++i) out += (i ? "," : "") + value(0);
    return out + "]";
  }

 private:
  uint8_t next() { return at_ < n_ ? p_[at_++] : 0; }

  std::string value(int depth) {
    const uint8_t b = next();
    if (depth > 6) return tensor();  // the generator's own recursion stays shallow
    switch (b % 11) {
      case 0: return "null";
      case 1: return b & 0x80 ? "true" : "false";
      case 2: {
        static const char* ints[] = {"0", "-1", "7", "9223372036854775807", "-9223372036854775808",
                                     "9223372036854775808", "18446744073709551615", "18446744073709551616",
                                     "-9223372036854775809", "100000000000000000000000"};
        return ints[next() % 10];
      }
      case 3: {
        static const char* floats[] = {"0.5", "-0.0", "1e308", "{\"$float\":\"nan\"}",
                                       "{\"$float\":\"inf\"}", "{\"$float\":\"-inf\"}",
                                       "{\"$float\":1}"};
        return floats[next() % 7];
      }
      case 4: return "\"s\"";
      case 5: {  // nested deeper than the limit, or near it (written out, not recursed)
        const size_t levels = 60 + next() % 16 + (b & 0x80 ? 2000 : 0);
        return std::string(levels, '[') + tensor() + std::string(levels, ']');
      }
      case 6: case 7: {
        const size_t k = next() % 4;
        std::string out = b % 11 == 6 ? "[" : "{\"$tuple\":[";
        for (size_t i = 0; i < k; ++i) out += (i ? "," : "") + value(depth + 1);
        return out + (b % 11 == 6 ? "]" : "]}");
      }
      case 8: return "{\"$dict\":{\"k\":" + value(depth + 1) + "}}";
      default: return tensor();
    }
  }

  std::string tensor() {
    static const char* dtypes[] = {"float32", "float64", "float16", "bfloat16", "int64",
                                   "int32",   "int16",   "int8",    "uint8",    "bool"};
    static const size_t sizes[] = {4, 8, 2, 2, 8, 4, 2, 1, 1, 1};
    static const char* dims[] = {"0", "1", "2", "3", "5", "2147483648", "4611686018427387904", "-1"};
    static const uint64_t values[] = {0, 1, 2, 3, 5, 2147483648ull, 4611686018427387904ull, 0};
    const size_t d = next() % 10;
    const size_t rank = next() % 5;
    std::string shape = "[";
    uint64_t numel = 1;
    bool fits = true;
    for (size_t i = 0; i < rank; ++i) {
      const size_t k = next() % 8;
      shape += std::string(i ? "," : "") + dims[k];
      if (k == 7 || (values[k] && numel > (uint64_t(1) << 40) / values[k])) fits = false;
      numel *= values[k];
    }
    shape += "]";
    // The right byte count for a shape that fits the buffer; otherwise whatever the next byte says.
    const uint64_t nbytes = fits && numel * sizes[d] <= sizeof(buffer_) ? numel * sizes[d] : next() * 8u;
    return "{\"$tensor\":{\"dtype\":\"" + std::string(dtypes[d]) + "\",\"shape\":" + shape +
           ",\"ptr\":" + std::to_string(reinterpret_cast<uintptr_t>(buffer_)) + ",\"nbytes\":" +
           std::to_string(nbytes) + "}}";
  }

  const uint8_t* p_;
  size_t n_;
  size_t at_ = 0;
  alignas(64) static inline uint8_t buffer_[4096] = {};  // zeros: valid for every dtype (bools included)
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
    Plan plan(model->graph_module());  // as Model runs it: the passes on a copy, then the executor
  } catch (const FxError&) {
    return out;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw Finding(std::string("building the runtime plan threw a non-FxError exception: ") + e.what());
  }
  // One run, for graphs small enough to keep the fuzzer fast.
  if (model->graph_module().graph().size() > 64) return out;
  const size_t tail = std::min<size_t>(size, 256);
  InputMaker maker(data + size - tail, tail);
  const std::vector<std::string> names = model->input_names();
  const std::string text = maker.inputs(names.size());
  try {
    (void)model->run(inputs_from_wire(text, nullptr, names));
  } catch (const FxError&) {
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw Finding(std::string("a run threw a non-FxError exception: ") + e.what() + " (inputs: " +
                  text.substr(0, 300) + ")");
  }
  return out;
}

}  // namespace fuzz
}  // namespace fx
