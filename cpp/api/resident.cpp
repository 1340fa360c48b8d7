#include "api/resident.h"

#include <string>

#include "support/error.h"

namespace fx {

int64_t ResidentTensors::add(Tensor t) {
  const int64_t id = next_++;
  tensors_.emplace(id, std::move(t));
  return id;
}

const Tensor& ResidentTensors::get(int64_t id) const {
  auto it = tensors_.find(id);
  FX_CHECK(it != tensors_.end(), "resident tensor " + std::to_string(id) + " was disposed");
  return it->second;
}

void ResidentTensors::free(int64_t id) { tensors_.erase(id); }

ResidentTensors& resident_tensors() {
  static ResidentTensors table;
  return table;
}

}  // namespace fx
