#include "program/graph_module.h"

namespace fx {

const Tensor* GraphModule::find_tensor(const std::string& qualified_name) const {
  auto it = tensors_.find(qualified_name);
  return it == tensors_.end() ? nullptr : &it->second.tensor;
}

}  // namespace fx
