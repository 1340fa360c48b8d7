// Linked into fxwasm-threads.wasm only (CMakeLists.txt: -Wl,--wrap=__gxx_personality_wasm0).
//
// Why: with -fwasm-exceptions, a landing pad writes its index and LSDA into `__wasm_lpad_context`, calls
// libunwind's _Unwind_CallPersonality, and reads back the selector that says which catch clause matches.
// Emscripten 3.1.6's libunwind declares that context thread_local; clang 14 (the compiler Debian pairs
// with it) still emits the landing pads against a plain global. Under -pthread the two are different
// memory (the plain reference resolves to the TLS offset as an absolute address), so the personality
// never saw the landing pad and every typed catch (`catch (const FxError&)`) fell through to
// `catch (...)`: every error read "internal error: unknown exception", and the core's own typed catches
// (constant folding, data-dependent shapes, the interpreter naming the failing node) did not fire.
//
// This wrapper hands the personality the context the landing pads really use (copied in, the selector
// copied back), whatever address the link gave it. That context is one for all threads, as the compiled
// code has it anyway; only the calling thread throws (the kernels on the pool threads do not).
#include <unwind.h>

#include <cstdint>

extern "C" {

struct FxLandingPadContext {
  uintptr_t lpad_index;
  uintptr_t lsda;
  uintptr_t selector;
};

// The compiler's (non-thread-local) reference: the memory the landing pads write and read.
extern FxLandingPadContext __wasm_lpad_context;

_Unwind_Reason_Code __real___gxx_personality_wasm0(int version, _Unwind_Action actions, uint64_t exception_class,
                                                   _Unwind_Exception* exception, _Unwind_Context* context);

_Unwind_Reason_Code __wrap___gxx_personality_wasm0(int version, _Unwind_Action actions, uint64_t exception_class,
                                                   _Unwind_Exception* exception, _Unwind_Context* /*libunwind's*/) {
  volatile FxLandingPadContext* landing = &__wasm_lpad_context;
  FxLandingPadContext context{landing->lpad_index, landing->lsda, 0};
  const _Unwind_Reason_Code result = __real___gxx_personality_wasm0(
      version, actions, exception_class, exception, reinterpret_cast<_Unwind_Context*>(&context));
  landing->selector = context.selector;
  // The LTO link puts that context at address 0: the far end of the main thread's stack, which is first in
  // memory (CMakeLists.txt), so only a stack within 12 bytes of overflowing could share it.
  return result;
}

}  // extern "C"
