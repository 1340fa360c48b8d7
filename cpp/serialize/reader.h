// Reading a .fxw file (docs/format.md) into a GraphModule, validating everything on the way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "program/graph_module.h"

namespace fx {

// Parses and validates the whole file held in `file` (a block from alloc_file_block, `size` bytes used).
// The tensors view the file's bytes without copying them and keep the block alive (the writer aligns
// each tensor to 64 bytes; a tensor that is not aligned is copied). Throws FxError saying what is wrong
// and where: "fxwasm file: header length 9999999 exceeds file size 120",
// "node 'add': args refer to unknown node 'foo'".
std::unique_ptr<GraphModule> read_fxw_block(std::shared_ptr<uint8_t> file, size_t size);
// The same from bytes the caller keeps: they are copied once into a new block first, so `data` may be
// freed afterwards and may have any alignment.
std::unique_ptr<GraphModule> read_fxw(const uint8_t* data, size_t size);

// A 64-byte aligned block for a file of `size` bytes (rounded up to 64), freed with std::free; nullptr
// when out of memory. own_file_block hands it to a shared owner that frees it when the last tensor
// viewing it goes.
uint8_t* alloc_file_block(size_t size);
std::shared_ptr<uint8_t> own_file_block(uint8_t* block);

}  // namespace fx
