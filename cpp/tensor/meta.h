// Meta tensors and meta mode, for shape and dtype inference without running kernels (as torch's "meta"
// device). A meta tensor has a shape, strides, a dtype and a storage of known size but no bytes: views
// over it work unchanged (they only compute shapes and strides), reading or writing its elements throws
// DataDependent. In meta mode (a MetaScope on this thread) every new tensor (Tensor::empty/zeros, clone)
// is a meta tensor and the ops' dtype dispatch skips kernels (ops/dispatch.h), so an op's own `run`
// computes its result's shape and dtype, checking its arguments as usual, without touching any data.
#pragma once
#include <string>

#include "support/error.h"

namespace fx {

// A result that depends on tensor values (nonzero, item(), a bool mask's count…): unknown under
// inference. An FxError, so one that escapes still reads as a clean error.
class DataDependent : public FxError {
 public:
  explicit DataDependent(const std::string& what) : FxError(what) {}
};

bool meta_mode();

// Meta mode on this thread for the scope's lifetime (nests).
class MetaScope {
 public:
  MetaScope();
  ~MetaScope();
  MetaScope(const MetaScope&) = delete;
  MetaScope& operator=(const MetaScope&) = delete;

 private:
  bool previous_;
};

[[noreturn]] void throw_data_dependent();

}  // namespace fx
