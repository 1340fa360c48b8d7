// The safetensors container of a .fxw file (docs/format.md §1): parsing and validating the header, and
// laying out tensors 64-byte aligned with __pad__ tensors when writing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace fx {
namespace fxw {

struct TensorEntry {
  std::string name;
  DType dtype = DType::Float32;
  Shape shape;
  uint64_t begin = 0;  // byte offsets in the data section
  uint64_t end = 0;
};

struct Container {
  std::string program;              // __metadata__.program, JSON text
  std::vector<TensorEntry> tensors;  // every tensor but __pad__.*, in header order
  const uint8_t* data = nullptr;    // the data section (inside the caller's buffer)
  size_t data_size = 0;
};

// Validates the header (length, depth, JSON, metadata, every entry's dtype/shape/offsets) and returns
// views into `bytes`; FxError "fxwasm file: ..." on anything malformed.
Container parse_container(const uint8_t* bytes, size_t size);

// A tensor to write: its name and its (any-layout) tensor.
struct TensorToWrite {
  std::string name;
  const Tensor* tensor;
};
// The file's bytes: header padded so data starts at a multiple of 64, each tensor 64-byte aligned.
std::vector<uint8_t> build_container(const std::string& program, const std::vector<TensorToWrite>& tensors);

}  // namespace fxw
}  // namespace fx
