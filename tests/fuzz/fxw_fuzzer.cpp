// libFuzzer target over everything a .fxw file drives before any input is given (tests/fuzz/fxw_exercise.h:
// reader, lint, text views, write → read, runtime plan). Built and run by scripts/fuzz.sh with clang++-14
// -fsanitize=fuzzer,address,undefined. A Finding, a crash or a sanitizer report stops the fuzzer with the
// input saved; the input then goes to tests/fuzz/regressions/.
#include <cstdio>
#include <cstdlib>
#include <new>

#include "fxw_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)fx::fuzz::exercise_fxw(data, size);
  } catch (const fx::fuzz::Finding& f) {
    std::fprintf(stderr, "fxw_fuzzer: finding: %s\n", f.what());
    std::abort();
  } catch (const std::bad_alloc&) {
    // Only below libFuzzer's own -malloc_limit_mb, which reports real over-allocation itself.
  }
  return 0;
}
