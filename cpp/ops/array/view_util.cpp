#include "ops/array/view_util.h"

#include "kernels/copy_strided.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {

int64_t checked_dim(int64_t dim, int64_t ndim) {
  const int64_t range = ndim > 0 ? ndim : 1;
  if (dim < -range || dim >= range)
    throw FxError("Dimension out of range (expected to be in range of [" + std::to_string(-range) + ", " +
                  std::to_string(range - 1) + "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + range : dim;
}

Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset) {
  return Tensor(base.storage(), base.dtype(), std::move(shape), std::move(strides), offset);
}

std::optional<Shape> view_strides(const Tensor& t, const Shape& shape) {
  // ATen's computeStride: walk the old dims in chunks that are contiguous among themselves and match
  // each chunk with new dims of the same element count.
  const Shape& old_shape = t.shape();
  const Shape& old_strides = t.strides();
  Shape strides(shape.size());
  if (old_shape.empty()) return Shape(shape.size(), 1);
  int64_t numel = t.numel();
  if (numel == 0) {
    if (old_shape == shape) return old_strides;
    return contiguous_strides(shape);
  }
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_shape.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_shape[d];
    if (d == 0 || (old_shape[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = old_strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return strides;
}

Shape infer_size(const Shape& shape, int64_t numel) {
  Shape out = shape;
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) throw FxError("only one dimension can be inferred");
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw FxError("invalid shape dimension " + std::to_string(shape[i]));
    } else {  // wrapping, as torch's own product: an overflowing shape then fails its checks the same way
      known = static_cast<int64_t>(static_cast<uint64_t>(known) * static_cast<uint64_t>(shape[i]));
    }
  }
  auto invalid = [&] {
    return FxError("shape '" + shape_to_string(shape) + "' is invalid for input of size " + std::to_string(numel));
  };
  if (infer >= 0) {
    if (known == 0) {
      if (numel != 0) throw invalid();
      throw FxError("cannot reshape tensor of 0 elements into shape " + shape_to_string(shape) +
                    " because the unspecified dimension size -1 can be any value and is ambiguous");
    }
    if (numel % known != 0) throw invalid();
    out[infer] = numel / known;
  } else if (known != numel) {
    throw invalid();
  }
  return out;
}

Tensor reshape(const Tensor& t, const Shape& shape) {
  Shape s = infer_size(shape, t.numel());
  if (auto st = view_strides(t, s)) return make_view(t, s, *st, t.offset());
  Tensor packed = t.clone();
  return make_view(packed, s, contiguous_strides(s), 0);
}

bool is_int_object(const Object& o) {
  return o.is_value() && (o.value().kind() == ValueKind::Int || o.value().kind() == ValueKind::Bool);
}

int64_t int_of(const Object& o, const std::string& what) {
  if (o.is_value() && o.value().kind() == ValueKind::Int) return o.value().as_int();
  if (o.is_value() && o.value().kind() == ValueKind::Bool) return o.value().as_bool() ? 1 : 0;
  if (o.is_tensor() && o.tensor().numel() == 1 && !dtype_is_floating(o.tensor().dtype()))
    return tensor_item(o.tensor()).i;  // a SymInt that became a 0-dim integer tensor
  throw FxError(what + " must be an int, not " + o.describe());
}

std::vector<int64_t> ints_of(const Object& o, const std::string& what) {
  if (!o.is_sequence()) return {int_of(o, what)};
  std::vector<int64_t> out;
  for (const Object& x : o.items()) out.push_back(int_of(x, what));
  return out;
}

std::vector<int64_t> vararg_ints(const OpCall& call, size_t first, const std::string& kw, const std::string& op) {
  // The argument's name for messages is built only when a value is not a plain int: this runs for every
  // view / reshape / permute / repeat a model makes.
  auto int_at = [&](const Object& x) {
    if (x.is_value() && x.value().kind() == ValueKind::Int) return x.value().as_int();
    return int_of(x, op + "(): argument '" + kw + "'");
  };
  auto ints_at = [&](const Object& o) {
    std::vector<int64_t> out;
    if (!o.is_sequence()) return std::vector<int64_t>{int_at(o)};
    for (const Object& x : o.items()) out.push_back(int_at(x));
    return out;
  };
  for (const auto& [k, v] : call.kwargs) {
    if (k != kw) throw FxError(op + "() got an unexpected keyword argument '" + k + "'");
    if (call.args.size() > first) throw FxError(op + "() got multiple values for argument '" + kw + "'");
    return ints_at(v);
  }
  if (call.args.size() == first + 1 && call.args[first].is_sequence()) return ints_at(call.args[first]);
  std::vector<int64_t> out;
  for (size_t i = first; i < call.args.size(); ++i) out.push_back(int_at(call.args[i]));
  return out;
}

const char* torch_type_name(DType t) {
  switch (t) {
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Int64: return "Long";
    case DType::Int32: return "Int";
    case DType::Int16: return "Short";
    case DType::Int8: return "Char";
    case DType::UInt8: return "Byte";
    case DType::Bool: return "Bool";
    case DType::Complex64: return "ComplexFloat";
    case DType::Complex128: return "ComplexDouble";
  }
  return "?";
}

bool can_cast(DType from, DType to) {
  // c10::canCast: no complex → non-complex, no floating → integral and no non-bool → bool.
  if (dtype_is_complex(from) && !dtype_is_complex(to)) return false;
  if (dtype_is_floating(from) && !dtype_is_floating(to) && !dtype_is_complex(to)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

void copy_into(const Tensor& dst, const Tensor& src) {
  Tensor s = to_dtype_discarding_imag(src, dst.dtype());
  if (s.storage() == dst.storage()) s = s.clone();  // x.copy_(x.t()) must read before it writes
  Shape ss = broadcast_strides(s, dst.shape());
  if (meta_mode()) return;  // shape inference: no kernel runs (tensor/meta.h)
  Tensor d = dst;  // a handle: writes go to the shared storage
  const int nd = static_cast<int>(dst.dim());
  switch (dtype_size(dst.dtype())) {
    case 1: kernels::copy_strided(nd, d.shape().data(), s.data<uint8_t>(), ss.data(), d.data<uint8_t>(), d.strides().data()); break;
    case 2: kernels::copy_strided(nd, d.shape().data(), s.data<uint16_t>(), ss.data(), d.data<uint16_t>(), d.strides().data()); break;
    case 4: kernels::copy_strided(nd, d.shape().data(), s.data<uint32_t>(), ss.data(), d.data<uint32_t>(), d.strides().data()); break;
    case 8: kernels::copy_strided(nd, d.shape().data(), s.data<uint64_t>(), ss.data(), d.data<uint64_t>(), d.strides().data()); break;
    case 16: kernels::copy_strided(nd, d.shape().data(), s.data<Bytes16>(), ss.data(), d.data<Bytes16>(), d.strides().data()); break;
    default: throw FxError("copy: unsupported element size");
  }
}

Object write_inplace(const Tensor& self, const Tensor& result) {
  if (!can_cast(result.dtype(), self.dtype()))
    throw FxError(std::string("result type ") + torch_type_name(result.dtype()) +
                  " can't be cast to the desired output type " + torch_type_name(self.dtype()));
  if (result.shape() != self.shape())
    throw FxError("output with shape " + shape_to_string(self.shape()) + " doesn't match the broadcast shape " +
                  shape_to_string(result.shape()));
  copy_into(self, result);
  return Object(self);
}

Object run_inplace(OpFn fn, const OpCall& call) {
  if (call.args.empty() || !call.args[0].is_tensor())
    throw FxError("an in-place op needs a tensor to write into, got " +
                  (call.args.empty() ? std::string("nothing") : call.args[0].describe()));
  Object r = fn(call);
  return write_inplace(call.args[0].tensor(), r.tensor());
}

}  // namespace fx
