// The dtypes of the tensor layer, with the names torch and safetensors use for them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace fx {

// Complex64/Complex128 hold (real, imaginary) pairs of float32/float64 (std::complex's layout, torch's and
// safetensors' C64/C128); ops opt in to them (ops/dispatch.h dispatch_complex).
enum class DType { Float32, Float64, Float16, BFloat16, Int64, Int32, Int16, Int8, UInt8, Bool, Complex64, Complex128 };

size_t dtype_size(DType t);
// An element of 16 bytes (complex128), for the copies that move elements by width; Bytes16(0) is zero.
struct Bytes16 {
  uint64_t lo = 0, hi = 0;
  constexpr Bytes16() = default;
  constexpr explicit Bytes16(uint64_t low) : lo(low) {}
};
const char* dtype_name(DType t);             // torch's name without "torch.": "float32", "int64", "bool"
DType dtype_from_name(const std::string& s);  // accepts torch names ("float32", "float", "long"); FxError otherwise
const char* dtype_safetensors_name(DType t); // "F32", "F64", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "BOOL", "C64", "C128"
DType dtype_from_safetensors(const std::string& s);  // FxError on unknown
bool dtype_is_floating(DType t);
bool dtype_is_integral(DType t);  // the integer dtypes, not bool
bool dtype_is_complex(DType t);
// The real dtype of a complex one's parts (complex64 → float32, complex128 → float64); `t` otherwise.
DType dtype_real_part(DType t);
// The complex dtype whose parts are `t` (float64 → complex128, any other → complex64), as torch's toComplexType.
DType dtype_to_complex(DType t);

}  // namespace fx
