#include "tensor/dtype.h"

#include <unordered_map>

#include "support/error.h"

namespace fx {

size_t dtype_size(DType t) {
  switch (t) {
    case DType::Complex128: return 16;
    case DType::Float64: case DType::Int64: case DType::Complex64: return 8;
    case DType::Float32: case DType::Int32: return 4;
    case DType::Float16: case DType::BFloat16: case DType::Int16: return 2;
    case DType::Int8: case DType::UInt8: case DType::Bool: return 1;
  }
  throw FxError("invalid dtype");
}

const char* dtype_name(DType t) {
  switch (t) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Int64: return "int64";
    case DType::Int32: return "int32";
    case DType::Int16: return "int16";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Bool: return "bool";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
  }
  throw FxError("invalid dtype");
}

DType dtype_from_name(const std::string& s) {
  // torch's canonical names plus the aliases torch accepts as attributes (torch.float, torch.long, ...).
  static const std::unordered_map<std::string, DType> names = {
      {"float32", DType::Float32}, {"float", DType::Float32},   {"float64", DType::Float64},
      {"double", DType::Float64},  {"float16", DType::Float16}, {"half", DType::Float16},
      {"bfloat16", DType::BFloat16}, {"int64", DType::Int64},   {"long", DType::Int64},
      {"int32", DType::Int32},     {"int", DType::Int32},       {"int16", DType::Int16},
      {"short", DType::Int16},     {"int8", DType::Int8},       {"uint8", DType::UInt8},
      {"bool", DType::Bool},         {"complex64", DType::Complex64}, {"cfloat", DType::Complex64},
      {"complex128", DType::Complex128}, {"cdouble", DType::Complex128}};
  std::string key = s.rfind("torch.", 0) == 0 ? s.substr(6) : s;
  auto it = names.find(key);
  if (it == names.end()) throw FxError("unsupported dtype '" + s + "'");
  return it->second;
}

const char* dtype_safetensors_name(DType t) {
  switch (t) {
    case DType::Float32: return "F32";
    case DType::Float64: return "F64";
    case DType::Float16: return "F16";
    case DType::BFloat16: return "BF16";
    case DType::Int64: return "I64";
    case DType::Int32: return "I32";
    case DType::Int16: return "I16";
    case DType::Int8: return "I8";
    case DType::UInt8: return "U8";
    case DType::Bool: return "BOOL";
    case DType::Complex64: return "C64";
    case DType::Complex128: return "C128";
  }
  throw FxError("invalid dtype");
}

DType dtype_from_safetensors(const std::string& s) {
  static const std::unordered_map<std::string, DType> names = {
      {"F32", DType::Float32}, {"F64", DType::Float64}, {"F16", DType::Float16},
      {"BF16", DType::BFloat16}, {"I64", DType::Int64}, {"I32", DType::Int32},
      {"I16", DType::Int16},   {"I8", DType::Int8},     {"U8", DType::UInt8},
      {"BOOL", DType::Bool},   {"C64", DType::Complex64}, {"C128", DType::Complex128}};
  auto it = names.find(s);
  if (it == names.end()) throw FxError("unsupported safetensors dtype '" + s + "'");
  return it->second;
}

bool dtype_is_floating(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Float16 || t == DType::BFloat16;
}

bool dtype_is_integral(DType t) {
  return t == DType::Int64 || t == DType::Int32 || t == DType::Int16 || t == DType::Int8 ||
         t == DType::UInt8;
}

bool dtype_is_complex(DType t) { return t == DType::Complex64 || t == DType::Complex128; }

DType dtype_real_part(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}

DType dtype_to_complex(DType t) {
  if (dtype_is_complex(t)) return t;
  return t == DType::Float64 ? DType::Complex128 : DType::Complex64;
}

}  // namespace fx
