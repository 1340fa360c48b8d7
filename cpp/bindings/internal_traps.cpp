// A test hook, not API: fx_internal_trap(kind) makes the module trap on purpose, so tests can check
// what web/src/runtime.js promises after any trap (tests/js/traps.test.js): the call throws FxError, the
// instance's models say it was reset, the next load gets a fresh instance, other instances keep working.
// Kind "worker" traps on a kernel thread of the pthreads build. Only the runtime's own call path reaches it
// (Module.fx_internal_trap; nothing in web/src exports it).
#include <emscripten/bind.h>
#include <emscripten/threading.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "kernels/parallel.h"

namespace {

// Deep enough for any stack (1 MiB): the stack is first in memory (CMakeLists.txt), so running past its end
// is an out-of-bounds access, a trap, not corruption.
// Each frame hands its array to the next call, so the optimiser cannot turn the recursion into a loop.
int recurse(int depth, volatile char* parent) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(parent[0] + 1);
  if (depth == 0) return frame[0];
  return recurse(depth - 1, frame) + frame[0];
}

int fx_internal_trap(std::string kind) {
  // Both operands volatile: LLVM rewrites `1 / x` as a select (division by zero being undefined).
  volatile int zero = 0;
  volatile int seven = 7;
  if (kind == "divide") return seven / zero;  // i32.div_s traps: "divide by zero"
  if (kind == "stack") {
    volatile char root[1] = {0};
    return recurse(1 << 20, root);
  }
  if (kind == "memory") {
    // One byte past the end of linear memory (a heap at the 4 GiB maximum has no such byte: trap anyway).
    const uint64_t end = static_cast<uint64_t>(__builtin_wasm_memory_size(0)) * 65536;
    if (end >= (uint64_t{1} << 32)) __builtin_trap();
    return *reinterpret_cast<volatile uint8_t*>(static_cast<uintptr_t>(end));
  }
  if (kind == "abort") std::abort();
  if (kind == "worker") {
    // A trap on a kernel thread of the pthreads build, while the caller waits for it (-2: no such thread).
    if (fx::kernels::num_threads() < 2) return -2;
    fx::kernels::parallel_for(64, [](size_t, size_t) {
      if (!emscripten_is_main_runtime_thread()) __builtin_trap();
      for (volatile int i = 0; i < 20000000; i = i + 1) {
      }  // a slow caller: the other threads take ranges too
    });
    return 0;
  }
  if (kind == "unreachable") __builtin_trap();
  return -1;  // unknown kind: no trap
}

}  // namespace

EMSCRIPTEN_BINDINGS(fxwasm_internal) {
  emscripten::function("fx_internal_trap", &fx_internal_trap);
}
