// A small fixed thread pool for the hot kernels (GEMM panels, convolution pixel panels or output-channel
// tiles, depthwise and max-pooling planes).
//
// parallel_for(n, fn) cuts the items [0, n) into a few contiguous ranges per thread — a cut that depends
// only on n and the thread count — and the threads, the calling one too, claim ranges until none are left,
// calling fn(begin, end) on each (a thread may run several; one started late may run none). Kernels give
// every output element to exactly one item and compute it the same way whatever the split, so results are
// bit-identical for any thread count.
//
// One thread (the default) runs fn(0, n) inline. More threads need pthreads: native builds, and the
// WebAssembly "threads" variant (SharedArrayBuffer, workers started with the module). The single-threaded
// WebAssembly variant reports max_threads() == 1. Kernels are called from one thread at a time (the
// runtime's); parallel_for is not reentrant (a nested call runs inline).
#pragma once
#include <cstddef>
#include <cstdint>

namespace fx::kernels {

// The most threads this build can run (1 without pthreads).
int max_threads();
// Sets the thread count for later parallel_for calls, clamped to [1, max_threads()]; returns the count set.
// Worker threads start on first use and are kept; fewer threads later leave the extra ones idle.
int set_num_threads(int n);
int num_threads();

using ParallelFn = void (*)(void* ctx, size_t begin, size_t end);
void parallel_for_raw(size_t n, ParallelFn fn, void* ctx, size_t ranges_per_thread);

// fn(begin, end) over ranges covering [0, n) (see above), `ranges_per_thread` per thread; 1 when every
// call has a fixed cost worth paying only once per thread (a convolution packing all its input panels).
// Small jobs (n < 2) run inline.
template <class F>
void parallel_for(size_t n, const F& fn, size_t ranges_per_thread = 4) {
  parallel_for_raw(n, [](void* c, size_t b, size_t e) { (*static_cast<const F*>(c))(b, e); },
                   const_cast<F*>(&fn), ranges_per_thread);
}

// fn(i0, i1) over [0, n) in blocks of `block` elements shared by the threads (block boundaries depend only
// on n and block, so results do not depend on the thread count). A caller that finds the array too small to
// pay for waking threads calls fn(0, n) itself.
template <class F>
void parallel_blocks(int64_t n, int64_t block, const F& fn) {
  parallel_for(static_cast<size_t>((n + block - 1) / block), [&](size_t b, size_t e) {
    const int64_t i1 = static_cast<int64_t>(e) * block;
    fn(static_cast<int64_t>(b) * block, i1 < n ? i1 : n);
  });
}

// While a HotSection lives (the runtime holds one for each run), idle workers keep spinning for the next job
// instead of going to sleep after some tens of µs: a run's many small parallel jobs (a decoding step's
// GEMVs, between which attention, norms and copies run on the caller alone) then never pay a wake-up, which
// costs ~20–100 µs each, more than such a job; the caller, its own chunks done, also spins until the
// workers' chunks are (instead of sleeping on a condition variable after a few µs, which made a 2-thread
// decoding step slower than a 1-thread one). Sections nest; the workers sleep again once the last ends.
// Only when the thread count does not exceed the cores, so that spinning never takes the caller's core.
class HotSection {
 public:
  HotSection();
  ~HotSection();
  HotSection(const HotSection&) = delete;
  HotSection& operator=(const HotSection&) = delete;

 private:
  bool active_;
};

// Whether a job of `work` multiply-adds is worth handing to other threads: waking them costs ~10–50 µs,
// far more on a busy machine, so only jobs of ≥ ~0.1 ms on one core are split — or of ≥ ~10 µs within a
// HotSection, where the workers are awake and a split costs ~1 µs (a small model's GEMMs: the corpus's
// decoder block, d_model 64 at 32 tokens, runs its 0.1–0.5M multiply-add Linears split at 2 threads).
bool worth_parallel(double work);

// Whether a memory-bound pass that streams `bytes` once (a GEMV reading its weight matrix: a decoding step's
// Linear layers) is worth splitting: between back-to-back layers the workers are still spinning, so a split
// costs a few µs, and 64 KB take about as long to stream.
inline bool worth_parallel_stream(double bytes) { return bytes >= 65536.0; }

}  // namespace fx::kernels
