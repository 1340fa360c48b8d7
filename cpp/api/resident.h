// Tensors the caller keeps in the runtime between runs (JS: run(..., {resident: true}) and ResidentTensor,
// web/src/resident.js): a run's outputs stay where the run left them, in the layout it left them in, and
// go back in as inputs without a copy either way — a decoder's KV caches then never cross into JS, and a
// cache the step graph grows (ops/array/cat_grow.cpp) is appended to in place. On the wire a resident
// tensor's block pointer is its id, negated (api/wire.h). Ids are never reused.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "tensor/tensor.h"

namespace fx {

class ResidentTensors {
 public:
  int64_t add(Tensor t);
  // FxError when `id` names no tensor (freed, or never given out).
  const Tensor& get(int64_t id) const;
  void free(int64_t id);  // nothing when already freed
  size_t size() const { return tensors_.size(); }

 private:
  std::unordered_map<int64_t, Tensor> tensors_;
  int64_t next_ = 1;
};

// The runtime's one table.
ResidentTensors& resident_tensors();

}  // namespace fx
