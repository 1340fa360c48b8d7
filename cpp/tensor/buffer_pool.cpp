#include "tensor/buffer_pool.h"

#include <algorithm>
#include <new>

namespace fx {
namespace {

constexpr size_t kAlignment = 64;  // as tensor.cpp's own allocations
thread_local BufferPool* t_current = nullptr;

}  // namespace

BufferPool::~BufferPool() {
  for (auto& [bytes, blocks] : free_)
    for (uint8_t* p : blocks) ::operator delete(p, std::align_val_t(kAlignment));
}

uint8_t* BufferPool::take(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  uint8_t* p = nullptr;
  auto it = free_.find(bytes);
  if (it != free_.end() && !it->second.empty()) {
    p = it->second.back();
    it->second.pop_back();
  } else {
    p = static_cast<uint8_t*>(::operator new(bytes, std::align_val_t(kAlignment), std::nothrow));
    if (!p) return nullptr;
    stats_.reserved_bytes += bytes;
    ++stats_.fresh_blocks;
  }
  stats_.live_bytes += bytes;
  stats_.peak_live_bytes = std::max(stats_.peak_live_bytes, stats_.live_bytes);
  return p;
}

void BufferPool::give(uint8_t* block, size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.live_bytes -= bytes;
  if (retired_) {
    ::operator delete(block, std::align_val_t(kAlignment));
    stats_.reserved_bytes -= bytes;
    return;
  }
  try {
    free_[bytes].push_back(block);
  } catch (const std::bad_alloc&) {  // no room to remember it: give it back to the heap instead
    ::operator delete(block, std::align_val_t(kAlignment));
    stats_.reserved_bytes -= bytes;
  }
}

BufferPool::Stats BufferPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void BufferPool::reset_peak() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.peak_live_bytes = stats_.live_bytes;
  stats_.fresh_blocks = 0;
}

void BufferPool::retire() {
  std::lock_guard<std::mutex> lock(mu_);
  retired_ = true;
  for (auto& [bytes, blocks] : free_) {
    for (uint8_t* p : blocks) ::operator delete(p, std::align_val_t(kAlignment));
    stats_.reserved_bytes -= bytes * blocks.size();
  }
  free_.clear();
}

BufferPool* BufferPool::current() { return t_current; }

BufferPool::Scope::Scope(BufferPool* pool) : prev_(t_current) { t_current = pool; }
BufferPool::Scope::~Scope() { t_current = prev_; }

}  // namespace fx
