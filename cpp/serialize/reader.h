// Reading a .fxw file (docs/format.md) into a GraphModule, validating everything on the way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "module/graph_module.h"

namespace fx {

// Parses and validates the whole file; tensor bytes are copied into the module's own aligned storage, so
// `data` may be freed afterwards and may have any alignment. Throws FxError saying what is wrong and
// where: "fxwasm file: header length 9999999 exceeds file size 120",
// "node 'add': args refer to unknown node 'foo'".
std::unique_ptr<GraphModule> read_fxw(const uint8_t* data, size_t size);

}  // namespace fx
