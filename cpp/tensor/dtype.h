// The dtypes of the tensor layer, with the names torch and safetensors use for them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace fx {

enum class DType { Float32, Float64, Float16, BFloat16, Int64, Int32, Int16, Int8, UInt8, Bool };

size_t dtype_size(DType t);
const char* dtype_name(DType t);             // torch's name without "torch.": "float32", "int64", "bool"
DType dtype_from_name(const std::string& s);  // accepts torch names ("float32", "float", "long"); FxError otherwise
const char* dtype_safetensors_name(DType t); // "F32", "F64", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "BOOL"
DType dtype_from_safetensors(const std::string& s);  // FxError on unknown
bool dtype_is_floating(DType t);
bool dtype_is_integral(DType t);  // includes Bool? no: ints only

}  // namespace fx
