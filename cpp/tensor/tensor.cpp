#include "tensor/tensor.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "support/error.h"
#include "tensor/buffer_pool.h"
#include "tensor/quantized.h"

namespace fx {
std::string shape_to_string(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

namespace {

constexpr size_t kAlignment = 64;

// Copies a strided view into packed row-major order, element by element of width W bytes.
// Kept here (not in kernels/) because the tensor layer must not depend on kernels.
template <typename W>
void pack_strided(const W* src, W* dst, const Shape& shape, const Shape& strides) {
  const size_t nd = shape.size();
  if (nd == 0) {
    *dst = *src;
    return;
  }
  std::vector<int64_t> idx(nd, 0);
  const int64_t inner = shape[nd - 1], inner_stride = strides[nd - 1];
  int64_t base = 0;
  for (;;) {
    for (int64_t i = 0; i < inner; ++i) *dst++ = src[base + i * inner_stride];
    // Advance the outer index (row-major), updating base incrementally.
    size_t d = nd - 1;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++idx[d] < shape[d]) {
        base += strides[d];
        break;
      }
      base -= (shape[d] - 1) * strides[d];
      idx[d] = 0;
    }
  }
}


}  // namespace

Storage::Storage(size_t nbytes) : nbytes_(nbytes) {
  size_t padded = nbytes == 0 ? kAlignment : nbytes;
  if (padded > std::numeric_limits<size_t>::max() - kAlignment)
    throw FxError("cannot allocate " + std::to_string(nbytes) + " bytes: size too large");
  padded = (padded + kAlignment - 1) / kAlignment * kAlignment;
  if (BufferPool* pool = BufferPool::current()) {  // a run's intermediate: from the runtime's arena
    data_ = pool->take(padded);
    if (data_) pool_ = pool->shared_from_this(), block_bytes_ = padded;
  } else {
    data_ = static_cast<uint8_t*>(::operator new(padded, std::align_val_t(kAlignment), std::nothrow));
  }
  if (!data_) throw FxError("out of memory: cannot allocate " + std::to_string(nbytes) + " bytes");
}

Storage::Storage(uint8_t* data, size_t nbytes, std::shared_ptr<void> owner)
    : data_(data), nbytes_(nbytes), owner_(std::move(owner)) {
  FX_CHECK(data_ != nullptr && owner_ != nullptr, "storage view over no block");
  FX_CHECK(reinterpret_cast<uintptr_t>(data_) % kAlignment == 0, "storage view: bytes not 64-byte aligned");
}

std::shared_ptr<Storage> Storage::meta(size_t nbytes) {
  std::shared_ptr<Storage> s(new Storage());
  s->nbytes_ = nbytes;
  return s;
}

std::shared_ptr<Storage> Storage::quantized(size_t nbytes, std::shared_ptr<const QuantizedWeight> source) {
  std::shared_ptr<Storage> s(new Storage());
  s->nbytes_ = nbytes;
  s->quantized_ = std::move(source);
  return s;
}

void Storage::materialize() const {
  if (!quantized_) throw_data_dependent();
  const size_t padded = (std::max<size_t>(nbytes_, 1) + kAlignment - 1) / kAlignment * kAlignment;
  auto* block = static_cast<uint8_t*>(::operator new(padded, std::align_val_t(kAlignment), std::nothrow));
  if (!block) throw FxError("out of memory: cannot allocate " + std::to_string(nbytes_) + " bytes");
  dequantize_into(*quantized_, reinterpret_cast<float*>(block));
  data_ = block;
}

Storage::~Storage() {
  if (pool_) pool_->give(data_, block_bytes_);
  else if (!owner_ && data_) ::operator delete(data_, std::align_val_t(kAlignment));
}

int64_t checked_numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw FxError("invalid shape " + shape_to_string(shape) + ": negative dimension");
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      throw FxError("invalid shape " + shape_to_string(shape) + ": element count overflows");
    n *= d;
  }
  return n;
}

Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    // an empty tensor's shape may multiply past int64 ([0, 2^62, 2^62]); its strides are never used to
    // address anything, so they saturate instead of overflowing
    if (i > 0 && __builtin_mul_overflow(s, shape[i] > 0 ? shape[i] : 1, &s)) s = INT64_MAX;
  }
  return strides;
}

// Whether the product of `shape` (no negative dims) overflows int64.
static bool numel_overflows(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d >= 0 && __builtin_mul_overflow(n, d, &n)) return true;
  return false;
}

static size_t checked_nbytes(const Shape& shape, DType dtype) {
  if (numel_overflows(shape))  // torch's wording for an allocation
    throw FxError("Storage size calculation overflowed with sizes=" + shape_to_string(shape));
  int64_t n = checked_numel(shape);
  size_t es = dtype_size(dtype);
  if (static_cast<uint64_t>(n) > std::numeric_limits<size_t>::max() / es)
    throw FxError("tensor of shape " + shape_to_string(shape) + " is too large");
  return static_cast<size_t>(n) * es;
}

Tensor Tensor::meta(const Shape& shape, DType dtype) {
  return Tensor(Storage::meta(checked_nbytes(shape, dtype)), dtype, shape, contiguous_strides(shape), 0);
}

Tensor Tensor::empty(const Shape& shape, DType dtype) {
  if (meta_mode()) return meta(shape, dtype);
  auto storage = std::make_shared<Storage>(checked_nbytes(shape, dtype));
  return Tensor(std::move(storage), dtype, shape, contiguous_strides(shape), 0);
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  if (t.is_meta()) return t;
  std::memset(t.storage_->data(), 0, t.storage_->nbytes());
  return t;
}

Tensor Tensor::from_bytes(const Shape& shape, DType dtype, const void* bytes, size_t nbytes) {
  size_t expected = checked_nbytes(shape, dtype);
  if (nbytes != expected)
    throw FxError("tensor of shape " + shape_to_string(shape) + " and dtype " + dtype_name(dtype) + " needs " +
                  std::to_string(expected) + " bytes, got " + std::to_string(nbytes));
  // Known bytes: a real tensor, in meta mode too (tensor/meta.h).
  Tensor t(std::make_shared<Storage>(expected), dtype, shape, contiguous_strides(shape), 0);
  if (nbytes) std::memcpy(t.storage_->data(), bytes, nbytes);
  return t;
}

Tensor Tensor::view_bytes(const Shape& shape, DType dtype, uint8_t* bytes, size_t nbytes,
                          std::shared_ptr<void> owner) {
  if (nbytes == 0 || reinterpret_cast<uintptr_t>(bytes) % kAlignment != 0)
    return from_bytes(shape, dtype, bytes, nbytes);
  size_t expected = checked_nbytes(shape, dtype);
  if (nbytes != expected)
    throw FxError("tensor of shape " + shape_to_string(shape) + " and dtype " + dtype_name(dtype) + " needs " +
                  std::to_string(expected) + " bytes, got " + std::to_string(nbytes));
  auto storage = std::make_shared<Storage>(bytes, nbytes, std::move(owner));
  return Tensor(std::move(storage), dtype, shape, contiguous_strides(shape), 0);
}

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Shape strides, int64_t offset)
    : storage_(std::move(storage)), dtype_(dtype), shape_(std::move(shape)), strides_(std::move(strides)),
      offset_(offset) {
  FX_CHECK(storage_ != nullptr, "tensor view over null storage");
  FX_CHECK(strides_.size() == shape_.size(), "tensor view: strides rank differs from shape rank");
  FX_CHECK(offset_ >= 0, "tensor view: negative offset");
  if (numel_overflows(shape_)) throw FxError("numel: integer multiplication overflow");  // torch's wording for a view
  int64_t n = checked_numel(shape_);
  if (n == 0) return;
  // Every reachable element must lie inside the storage: check the lowest and highest element index.
  int64_t lo = offset_, hi = offset_;
  for (size_t i = 0; i < shape_.size(); ++i) {
    int64_t span = 0;
    if (__builtin_mul_overflow(shape_[i] - 1, strides_[i], &span) ||
        __builtin_add_overflow(strides_[i] >= 0 ? hi : lo, span, strides_[i] >= 0 ? &hi : &lo))
      throw FxError("tensor view of shape " + shape_to_string(shape_) + ": strides overflow");
  }
  int64_t capacity = static_cast<int64_t>(storage_->nbytes() / dtype_size(dtype_));
  if (lo < 0 || hi >= capacity)
    throw FxError("tensor view of shape " + shape_to_string(shape_) + " reaches outside its storage");
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 0) return true;
    if (shape_[i] == 1) continue;  // a size-1 dim's stride never matters (torch's rule)
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

Tensor Tensor::contiguous() const {
  if (!defined() || is_contiguous()) return *this;
  return clone();
}

Tensor Tensor::clone() const {
  FX_CHECK(defined(), "clone of an undefined tensor");
  // A meta tensor's clone is meta; a real one's is real, in meta mode too (known values stay known).
  if (is_meta()) return meta(shape_, dtype_);
  Tensor out(std::make_shared<Storage>(checked_nbytes(shape_, dtype_)), dtype_, shape_, contiguous_strides(shape_), 0);
  if (numel() == 0) return out;
  if (is_contiguous()) {
    std::memcpy(out.raw_data(), raw_data(), nbytes());
    return out;
  }
  switch (dtype_size(dtype_)) {
    case 1: pack_strided(data<uint8_t>(), out.data<uint8_t>(), shape_, strides_); break;
    case 2: pack_strided(data<uint16_t>(), out.data<uint16_t>(), shape_, strides_); break;
    case 4: pack_strided(data<uint32_t>(), out.data<uint32_t>(), shape_, strides_); break;
    case 8: pack_strided(data<uint64_t>(), out.data<uint64_t>(), shape_, strides_); break;
    case 16: pack_strided(data<Bytes16>(), out.data<Bytes16>(), shape_, strides_); break;
    default: throw FxError("clone: unsupported element size");
  }
  return out;
}

}  // namespace fx
