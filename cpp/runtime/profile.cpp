#include "runtime/profile.h"

namespace fx {

Profiler::Profiler(Profile& profile) : profile_(profile), run_start_(Clock::now()) {}

void Profiler::before(const Node&) { node_start_ = Clock::now(); }

void Profiler::after(const Node& node, const Object& value, size_t live_values) {
  NodeProfile p;
  p.ms = std::chrono::duration<double, std::milli>(Clock::now() - node_start_).count();
  p.node = &node;
  p.name = node.name();
  p.op = node.op();
  p.target = node.target();
  p.is_tensor = value.is_tensor();
  if (p.is_tensor) {
    p.shape = value.tensor().shape();
    p.dtype = value.tensor().dtype();
  }
  p.result = value.describe();
  p.live_values = live_values;
  profile_.nodes.push_back(std::move(p));
}

void Profiler::finish(const BufferPool::Stats& memory) {
  profile_.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - run_start_).count();
  profile_.peak_bytes = memory.peak_live_bytes;
  profile_.arena_bytes = memory.reserved_bytes;
}

}  // namespace fx
