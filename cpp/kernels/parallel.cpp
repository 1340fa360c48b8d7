// The kernels' thread pool (see parallel.h): workers sleep on a condition variable between jobs and the
// caller on another once the job is done, each spinning briefly first so that back-to-back layers do not
// pay a full wake-up each.
//
// A job's range is cut into a few chunks per thread (the cut depends only on n and the thread count) and
// every thread, the caller too, claims chunks until none are left. So a thread that starts late (woken
// late, or its core taken by another process) leaves its share to the others instead of the whole job
// waiting for it. Which thread runs a chunk does not change what it computes.
#include "kernels/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten/threading.h>
#endif

namespace fx::kernels {
namespace {

constexpr int kMaxThreads = 64;
constexpr int kWorkerSpin = 50000;  // atomic loads, ~1 ns each

std::atomic<int> g_hot{0};  // live HotSections

struct Pool {
  std::mutex mu;
  std::condition_variable wake;
  std::condition_variable done;  // the caller waits here once its own part is done (after a short spin)
  std::vector<std::thread> workers;  // worker w runs part w + 1
  // The current job, published under mu with a new generation number.
  std::atomic<uint64_t> generation{0};
  ParallelFn fn = nullptr;
  void* ctx = nullptr;
  size_t n = 0;
  size_t chunks = 1;
  // The next chunk to claim, tagged with the job's generation in the high 32 bits: a worker that read a
  // job late cannot claim a chunk of the next one.
  std::atomic<uint64_t> next{0};
  std::atomic<size_t> finished{0};  // chunks of the current job done
  bool stop = false;
  int active = 1;  // threads taking part in the current job (workers 1..active-1 and the caller)

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
      generation.fetch_add(1);
    }
    wake.notify_all();
    for (auto& t : workers) t.join();
  }

  // Claims and runs chunks of job `gen` until none are left; returns how many it ran.
  size_t run_chunks(uint64_t gen, ParallelFn f, void* c, size_t items, size_t count) {
    size_t ran = 0;
    uint64_t cur = next.load(std::memory_order_acquire);
    for (;;) {
      if ((cur >> 32) != (gen & 0xffffffffu) || (cur & 0xffffffffu) >= count) return ran;
      if (!next.compare_exchange_weak(cur, cur + 1, std::memory_order_acq_rel)) continue;
      const size_t k = static_cast<size_t>(cur & 0xffffffffu);
      const size_t b = items * k / count, e = items * (k + 1) / count;
      if (b < e) f(c, b, e);
      ++ran;
      cur = next.load(std::memory_order_acquire);
    }
  }

  void finish(size_t ran, size_t count) {
    if (ran && finished.fetch_add(ran, std::memory_order_acq_rel) + ran == count) {
      std::lock_guard<std::mutex> lock(mu);
      done.notify_all();
    }
  }

  void worker_loop(int part) {
    uint64_t seen = 0;
    for (;;) {
      // A spin of some tens of µs catches back-to-back layers and the short serial steps between a
      // layer's jobs (a wake-up from the condition variable costs ~10–100 µs); longer would take the
      // core from the caller on a busy machine.
      // Within a HotSection the spin lasts until the next job (or the section's end).
      for (int spin = 0; (spin < kWorkerSpin || g_hot.load(std::memory_order_relaxed) > 0) &&
                         generation.load(std::memory_order_acquire) == seen;
           ++spin) {
      }
      ParallelFn f;
      void* c;
      size_t items, count;
      int act;
      {
        // The job and its generation are read together, under the lock they were written under.
        std::unique_lock<std::mutex> lock(mu);
        wake.wait(lock, [&] { return generation.load() != seen; });
        if (stop) return;
        seen = generation.load();
        f = fn, c = ctx, items = n, count = chunks, act = active;
      }
      if (part < act) finish(run_chunks(seen, f, c, items, count), count);
    }
  }
};

// The caller's chunks run one cache line below the frames that hold the job (`ctx` and what it refers to:
// the kernel's locals, read by the workers for every item). Without the gap the caller's own stack writes
// (a kernel's per-item sums) can share a cache line with them, and each write sends that line away from
// the workers: int8 decoding at 2 threads ran 15% slower in a build whose stack happened to fall that way.
__attribute__((noinline)) void run_own_chunks(Pool& p, uint64_t gen, ParallelFn fn, void* ctx, size_t n,
                                              size_t count) {
  [[maybe_unused]] alignas(64) volatile char gap[64];
  gap[0] = 0;
  p.finish(p.run_chunks(gen, fn, ctx, n, count), count);
}

int g_threads = 1;
std::atomic<bool> g_busy{false};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

int max_threads() {
#if defined(__EMSCRIPTEN__)
  if (!emscripten_has_threading_support()) return 1;
#endif
  return kMaxThreads;
}

int set_num_threads(int n) {
  g_threads = std::clamp(n, 1, max_threads());
  return g_threads;
}

int num_threads() { return g_threads; }

bool worth_parallel(double work) { return work >= (g_hot.load(std::memory_order_relaxed) > 0 ? 2.0e5 : 2.0e6); }

HotSection::HotSection() {
  static const unsigned cores = std::thread::hardware_concurrency();
  active_ = g_threads > 1 && (cores == 0 || static_cast<unsigned>(g_threads) <= cores);
  if (active_) g_hot.fetch_add(1, std::memory_order_relaxed);
}

HotSection::~HotSection() {
  if (active_) g_hot.fetch_sub(1, std::memory_order_relaxed);
}

void parallel_for_raw(size_t n, ParallelFn fn, void* ctx, size_t ranges_per_thread) {
  const int parts = static_cast<int>(std::min<size_t>(n, static_cast<size_t>(g_threads)));
  bool expected = false;
  if (parts <= 1 || !g_busy.compare_exchange_strong(expected, true)) {  // one thread, or nested: inline
    if (n) fn(ctx, 0, n);
    return;
  }
  Pool& p = pool();
  while (static_cast<int>(p.workers.size()) < parts - 1) {
    const int part = static_cast<int>(p.workers.size()) + 1;
    p.workers.emplace_back([&p, part] { p.worker_loop(part); });
  }
  const size_t count = std::min<size_t>(n, static_cast<size_t>(parts) * std::max<size_t>(1, ranges_per_thread));
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(p.mu);
    p.fn = fn, p.ctx = ctx, p.n = n, p.chunks = count, p.active = parts;
    p.finished.store(0, std::memory_order_relaxed);
    gen = p.generation.load() + 1;
    p.next.store((gen & 0xffffffffu) << 32, std::memory_order_release);
    p.generation.store(gen, std::memory_order_release);
  }
  p.wake.notify_all();
  run_own_chunks(p, gen, fn, ctx, n, count);
  auto all_done = [&] { return p.finished.load(std::memory_order_acquire) == count; };
  // Within a HotSection the caller spins until the workers' chunks are done: they run on cores of their
  // own and finish within microseconds of it, and a sleep on the condition variable would cost a wake-up
  // (~20–100 µs) per job — more than a decoding step's GEMV takes.
  for (int spin = 0; (spin < 2000 || g_hot.load(std::memory_order_relaxed) > 0) && !all_done(); ++spin) {
  }
  if (!all_done()) {
    std::unique_lock<std::mutex> lock(p.mu);
    p.done.wait(lock, all_done);
  }
  g_busy.store(false);
}

}  // namespace fx::kernels
