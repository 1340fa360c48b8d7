// BufferPool: a free-list arena for tensor buffers. While a BufferPool::Scope is active on a thread, every
// tensor buffer allocated on that thread (Storage(nbytes)) comes from the pool — a freed block of exactly
// that (64-byte rounded) size if there is one, else a fresh one — and goes back to the pool's free list when
// its last tensor is dropped. The runtime keeps one pool per interpreter and opens a scope around each run:
// values are released after their last use (exec/interpreter.h), so from the second run of the same
// shapes on, every intermediate reuses a block the first run made and steady-state runs call no malloc for
// tensor data. The pool's free blocks are freed with the pool (the interpreter, and the last tensor made
// from it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace fx {

class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  struct Stats {
    size_t live_bytes = 0;      // handed out now
    size_t peak_live_bytes = 0;  // most handed out at once since reset_peak()
    size_t reserved_bytes = 0;  // live + free: what the pool holds of the heap
    size_t fresh_blocks = 0;    // blocks allocated from the heap (not reused) since reset_peak()
  };

  BufferPool() = default;
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A block of `bytes` (a multiple of 64), 64-byte aligned; nullptr when the heap is exhausted.
  uint8_t* take(size_t bytes);
  void give(uint8_t* block, size_t bytes);

  Stats stats() const;
  // Starts a new measurement: peak = what is live now, fresh_blocks = 0.
  void reset_peak();
  // Its owner is done with it: frees the free blocks, and blocks given back later go straight to the heap
  // (tensors of a run may outlive the runtime that made them).
  void retire();

  // The pool of this thread's active scope, or nullptr.
  static BufferPool* current();

  class Scope {
   public:
    explicit Scope(BufferPool* pool);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    BufferPool* prev_;
  };

 private:
  mutable std::mutex mu_;
  std::unordered_map<size_t, std::vector<uint8_t*>> free_;  // by block size
  Stats stats_;
  bool retired_ = false;
};

}  // namespace fx
