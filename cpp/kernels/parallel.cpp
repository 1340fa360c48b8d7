// The kernels' thread pool (see parallel.h): workers sleep on a condition variable between jobs and the
// caller on another once its part is done, each spinning briefly first so that back-to-back layers do not
// pay a full wake-up each.
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
  int parts = 1;
  std::atomic<int> pending{0};  // parts of the current job not finished yet
  bool stop = false;

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
      generation.fetch_add(1);
    }
    wake.notify_all();
    for (auto& t : workers) t.join();
  }

  static void run_part(ParallelFn fn, void* ctx, size_t n, int parts, int part) {
    const size_t b = n * part / parts, e = n * (part + 1) / parts;
    if (b < e) fn(ctx, b, e);
  }

  void worker_loop(int part) {
    uint64_t seen = 0;
    for (;;) {
      // A short spin catches back-to-back layers; longer would take the core from the caller on a busy
      // machine.
      for (int spin = 0; spin < 2000 && generation.load(std::memory_order_acquire) == seen; ++spin) {
      }
      ParallelFn f;
      void* c;
      size_t items;
      int p;
      {
        // The job and its generation are read together, under the lock they were written under.
        std::unique_lock<std::mutex> lock(mu);
        wake.wait(lock, [&] { return generation.load() != seen; });
        if (stop) return;
        seen = generation.load();
        f = fn, c = ctx, items = n, p = parts;
      }
      if (part < p) {
        run_part(f, c, items, p, part);
        if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard<std::mutex> lock(mu);
          done.notify_all();
        }
      }
    }
  }
};

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

void parallel_for_raw(size_t n, ParallelFn fn, void* ctx) {
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
  {
    std::lock_guard<std::mutex> lock(p.mu);
    p.fn = fn, p.ctx = ctx, p.n = n, p.parts = parts;
    p.pending.store(parts - 1, std::memory_order_relaxed);
    p.generation.fetch_add(1, std::memory_order_release);
  }
  p.wake.notify_all();
  Pool::run_part(fn, ctx, n, parts, 0);
  for (int spin = 0; spin < 2000 && p.pending.load(std::memory_order_acquire) != 0; ++spin) {
  }
  if (p.pending.load(std::memory_order_acquire) != 0) {
    std::unique_lock<std::mutex> lock(p.mu);
    p.done.wait(lock, [&] { return p.pending.load(std::memory_order_acquire) == 0; });
  }
  g_busy.store(false);
}

}  // namespace fx::kernels
