// Tensor: a dynamic-dtype strided view over shared storage, like torch.Tensor (shape, strides, offset).
// Views (transpose, slice, expand...) share storage; xtensor adaptors give typed access for the ops.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensor/dtype.h"
#include "tensor/meta.h"

namespace fx {

using Shape = std::vector<int64_t>;

// "[2, 3]", as torch prints a size in messages.
std::string shape_to_string(const Shape& s);
class BufferPool;
struct QuantizedWeight;  // tensor/quantized.h

// A 64-byte aligned byte buffer: its own allocation, or a view into a bigger block (a loaded file) that
// `owner` keeps alive. Allocation failure throws FxError (never aborts).
class Storage {
 public:
  explicit Storage(size_t nbytes);
  // Views `nbytes` bytes at `data` (64-byte aligned, else FxError) inside the block `owner` keeps alive.
  Storage(uint8_t* data, size_t nbytes, std::shared_ptr<void> owner);
  // A meta storage (tensor/meta.h): `nbytes` long, with no bytes; data() throws DataDependent.
  static std::shared_ptr<Storage> meta(size_t nbytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  // A float32 weight stored quantized (tensor/quantized.h): no bytes until they are first read, then its
  // dequantised values; kernels that take the quantized form directly never read them.
  static std::shared_ptr<Storage> quantized(size_t nbytes, std::shared_ptr<const QuantizedWeight> source);
  uint8_t* data() {
    if (!data_) materialize();
    return data_;
  }
  const uint8_t* data() const {
    if (!data_) materialize();
    return data_;
  }
  bool is_meta() const { return data_ == nullptr && !quantized_; }
  const std::shared_ptr<const QuantizedWeight>& quantized_source() const { return quantized_; }
  size_t nbytes() const { return nbytes_; }

  // A block laid out for appending along one dim (ops/array/cat_grow.cpp, a KV cache growing by a step):
  // viewed as a contiguous tensor whose `dim` has room for `capacity` positions, of which the first
  // `filled` hold values. A view that ends at `filled` may be extended in place; any other (an older,
  // shorter view of the same block) is copied first, so no value a view shows is ever overwritten.
  struct Growth {
    int64_t dim = -1;  // -1: not laid out for appending
    int64_t capacity = 0;
    int64_t filled = 0;
  };
  Growth& growth() { return growth_; }
  const Growth& growth() const { return growth_; }

 private:
  Storage() = default;
  void materialize() const;  // a quantized storage's first read; a meta storage throws DataDependent
  mutable uint8_t* data_ = nullptr;  // null for a meta storage, and for a quantized one until first read
  size_t nbytes_ = 0;
  std::shared_ptr<void> owner_;  // set for a view: the block is freed by its owner, not here
  std::shared_ptr<BufferPool> pool_;  // set when the block came from a pool (tensor/buffer_pool.h)
  size_t block_bytes_ = 0;            // the block's size in the pool
  std::shared_ptr<const QuantizedWeight> quantized_;  // set for a quantized weight's storage
  Growth growth_;
};

class Tensor {
 public:
  Tensor() = default;  // undefined tensor
  static Tensor empty(const Shape& shape, DType dtype);   // contiguous, uninitialised (meta in meta mode)
  static Tensor meta(const Shape& shape, DType dtype);    // contiguous, no data (tensor/meta.h)
  static Tensor zeros(const Shape& shape, DType dtype);
  // Copies `nbytes` little-endian bytes into a new contiguous tensor (checked against shape × dtype);
  // a real tensor in meta mode too: its values are known.
  static Tensor from_bytes(const Shape& shape, DType dtype, const void* bytes, size_t nbytes);
  // A contiguous tensor over `nbytes` bytes inside the block `owner` keeps alive, without copying them —
  // or a copy (as from_bytes) when `bytes` is not 64-byte aligned.
  static Tensor view_bytes(const Shape& shape, DType dtype, uint8_t* bytes, size_t nbytes,
                           std::shared_ptr<void> owner);
  // A view over existing storage.
  Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Shape strides, int64_t offset);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }  // in elements
  int64_t offset() const { return offset_; }            // in elements
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const;
  size_t nbytes() const { return static_cast<size_t>(numel()) * dtype_size(dtype_); }
  bool is_contiguous() const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  bool is_meta() const { return storage_ && storage_->is_meta(); }

  // Pointer to element [0,...,0].
  template <typename T> T* data() { return reinterpret_cast<T*>(storage_->data()) + offset_; }
  template <typename T> const T* data() const { return reinterpret_cast<const T*>(storage_->data()) + offset_; }
  void* raw_data() { return storage_->data() + offset_ * dtype_size(dtype_); }
  const void* raw_data() const { return storage_->data() + offset_ * dtype_size(dtype_); }

  Tensor contiguous() const;  // self when already contiguous, else a packed copy
  Tensor clone() const;       // always a packed copy

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::Float32;
  Shape shape_;
  Shape strides_;
  int64_t offset_ = 0;
};

Shape contiguous_strides(const Shape& shape);
// Product of dims with overflow checks (FxError on a negative dim or overflow).
int64_t checked_numel(const Shape& shape);

}  // namespace fx
