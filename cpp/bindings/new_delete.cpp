// The WebAssembly builds' global operator new and delete: small blocks recycled through a per-thread
// SmallBlocks cache (support/small_blocks.h says why), everything else straight to malloc/free. Every
// block is a plain malloc block, so a block may be freed on another thread than the one that made it (it
// joins that thread's cache) and the aligned and array forms (libc++'s, which call these or malloc/free)
// mix with them safely.
//
// Measured in Node, each build against itself without this file (in-process A/B, alternating blocks): a
// chain of 125 views 0.85× the time single-threaded, 0.57–0.59× in the pthreads build; a decoding step
// (P=32) int8 0.95–0.98× at one thread, 0.89–0.91× at two, fp32 and the encoder level (0.98–1.01×).
// Native builds keep the C++ library's operators (glibc's malloc has per-thread caches of its own, and the
// sanitizers must see every allocation).
#include <malloc.h>

#include <cstdlib>
#include <new>

#include "support/small_blocks.h"

namespace {
thread_local fx::SmallBlocks t_blocks;
}  // namespace

void* operator new(size_t n) {
  const size_t c = fx::SmallBlocks::class_of_request(n);
  if (c) {
    if (void* p = t_blocks.take(c)) return p;
    n = c * fx::SmallBlocks::kStep;  // the whole class: the block comes back to class c
  }
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}

void operator delete(void* p) noexcept {
  if (p && !t_blocks.keep(p, fx::SmallBlocks::class_of_block(malloc_usable_size(p)))) std::free(p);
}

void operator delete(void* p, size_t) noexcept { operator delete(p); }
