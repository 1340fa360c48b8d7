// The fused ops the epilogue-fusion pass (passes/fuse.h) writes: a convolution or a Linear whose residual
// add and activation run in the producing kernel's epilogue.
//   fxwasm.fused_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
//                       residual=None, activation=None, min_val=-1.0, max_val=1.0, approximate='none',
//                       scale=None)
//   fxwasm.fused_linear(input, weight, bias=None, residual=None, activation=None, min_val=-1.0,
//                       max_val=1.0, approximate='none')
// compute activation(op(input, weight, bias, ...) + residual) with activation one of 'relu', 'relu6',
// 'hardtanh' (min_val, max_val), 'gelu' (approximate) and 'silu'. A conv's `scale` (a float32 [OC]
// tensor: a BatchNorm folded by the runtime's plan, passes/fuse.h) multiplies each output channel of the
// convolution before its bias is added, as if the weight had been multiplied by it. float32: the clamp activations and the
// residual go into the GEMM's epilogue (for Linear the residual is the GEMM's C with beta 1), gelu and silu
// run over the fresh output in place; weights are packed once per weight tensor (a cache keyed by the
// tensor's storage, dropped with the tensor). Anything else (other dtypes, a residual that broadcasts, meta
// mode) runs the plain ops one after another, with their results and errors.
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "kernels/gelu_f32.h"
#include "kernels/gemm_f32.h"
#include "ops/nn/conv.h"
#include "ops/math/matmul.h"
#include "ops/registry.h"
#include "ops/tensor_util.h"
#include "ops/schema.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

// What a packing depends on besides the tensors: a conv's stride, dilation, padding and groups (a fixed
// array, so looking an entry up allocates nothing).
using PackKey = std::array<int64_t, 10>;

// Packed forms of weight tensors, keyed by the weight's and bias's storage (held weakly: an entry whose
// tensors are gone is dropped at the next insertion) and by whatever else the packing depends on.
template <typename Packed>
class PackCache {
 public:
  template <typename PackFn>
  std::shared_ptr<const Packed> get(const Tensor& w, const Tensor& b, const PackKey& key, const PackFn& pack) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto found = entries_.find(w.raw_data()); found != entries_.end())
      for (const Entry& e : found->second)
        if (e.matches(w, b, key)) return e.packed;
    auto& bucket = entries_[w.raw_data()];
    for (auto it = entries_.begin(); it != entries_.end();) {  // drop entries of released tensors
      auto& v = it->second;
      for (size_t i = 0; i < v.size();)
        if (v[i].w.expired() || (v[i].has_b && v[i].b.expired())) v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
        else ++i;
      it = v.empty() && &v != &bucket ? entries_.erase(it) : std::next(it);
    }
    Entry e;
    e.w = w.storage(), e.w_offset = w.offset(), e.w_shape = w.shape(), e.w_strides = w.strides();
    e.has_b = b.defined();
    if (e.has_b) e.b = b.storage(), e.b_offset = b.offset(), e.b_shape = b.shape(), e.b_strides = b.strides();
    e.key = key;
    e.packed = std::make_shared<const Packed>(pack());
    bucket.push_back(e);
    return e.packed;
  }

 private:
  struct Entry {
    std::weak_ptr<Storage> w, b;
    bool has_b = false;
    int64_t w_offset = 0, b_offset = 0;
    Shape w_shape, w_strides, b_shape, b_strides;
    PackKey key{};
    std::shared_ptr<const Packed> packed;
    bool matches(const Tensor& tw, const Tensor& tb, const PackKey& k) const {
      if (w.lock() != tw.storage() || w_offset != tw.offset() || w_shape != tw.shape() || w_strides != tw.strides() ||
          key != k || has_b != tb.defined())
        return false;
      return !has_b || (b.lock() == tb.storage() && b_offset == tb.offset() && b_shape == tb.shape() &&
                        b_strides == tb.strides());
    }
  };
  std::mutex mu_;
  std::unordered_map<const void*, std::vector<Entry>> entries_;
};

struct Activation {
  std::string kind;  // "" none
  float min = -std::numeric_limits<float>::infinity(), max = std::numeric_limits<float>::infinity();
  std::string approximate = "none";
  bool clamp() const { return kind == "relu" || kind == "relu6" || kind == "hardtanh"; }
};

// Parameters 8.. (conv) / 4.. (linear): activation, min_val, max_val, approximate.
Activation activation_args(const Args& a, size_t first, const char* op) {
  Activation act;
  if (a.is_none(first)) return act;
  act.kind = a.str(first);
  if (act.kind == "relu") act.min = 0.0f;
  else if (act.kind == "relu6") act.min = 0.0f, act.max = 6.0f;
  else if (act.kind == "hardtanh") {
    act.min = static_cast<float>(a.number(first + 1).as_double());
    act.max = static_cast<float>(a.number(first + 2).as_double());
  } else if (act.kind == "gelu") {
    act.approximate = a.str(first + 3);
    if (act.approximate != "none" && act.approximate != "tanh")
      throw FxError(std::string(op) + ": approximate must be 'none' or 'tanh', got '" + act.approximate + "'");
  } else if (act.kind != "silu") {
    throw FxError(std::string(op) + ": unknown activation '" + act.kind +
                  "' (known: relu, relu6, hardtanh, gelu, silu)");
  }
  return act;
}

// The activation by the plain ops (any dtype, meta mode).
Object activate(const Object& y, const Activation& act) {
  const OpRegistry& ops = OpRegistry::global();
  if (act.kind.empty()) return y;
  if (act.kind == "relu") return ops.call("torch.relu", {y});
  if (act.kind == "relu6") return ops.call("torch.nn.functional.relu6", {y});
  if (act.kind == "hardtanh")
    return ops.call("torch.nn.functional.hardtanh", {y, Object(Value::floating(act.min)), Object(Value::floating(act.max))});
  if (act.kind == "gelu")
    return ops.call("torch.nn.functional.gelu", {y}, {{"approximate", Object(Value::str(act.approximate))}});
  return ops.call("torch.nn.functional.silu", {y});
}

// gelu / silu over a fresh contiguous float32 output, in place (the clamps ran in the kernel).
void activate_in_place(Tensor& y, const Activation& act) {
  float* p = y.data<float>();
  const int64_t n = y.numel();
  if (act.kind == "silu") kernels::silu_f32(n, p, p);
  else if (act.kind == "gelu")
    kernels::gelu_f32(act.approximate == "tanh" ? kernels::GeluF32::Tanh : kernels::GeluF32::Erf, n, p, p);
}

bool is_f32(const Tensor& t) { return t.defined() && t.dtype() == DType::Float32; }

Tensor opt_tensor(const Args& a, size_t i) { return a.is_none(i) ? Tensor() : a.tensor(i); }

// The plain-op path: y + residual, then the activation.
Object finish(Object y, const Args& a, size_t residual, const Activation& act) {
  if (!a.is_none(residual)) y = OpRegistry::global().call("operator.add", {y, a[residual]});
  return activate(y, act);
}

// A conv weight made ready for the float32 kernels: its packed form, and where that form leaves the weight
// itself to a kernel (depthwise) while a scale is folded in, the scaled copy that kernel reads.
struct PreparedConv {
  PackedConv packed;
  Tensor folded;
};

// weight · scale per output channel (float32, any layout in).
Tensor scale_weight(const Tensor& w, const Tensor& scale) {
  const Tensor wc = to_dtype(w, DType::Float32).contiguous(), sc = to_dtype(scale, DType::Float32).contiguous();
  Tensor out = Tensor::empty(w.shape(), DType::Float32);
  const int64_t oc = w.shape()[0], per = oc ? w.numel() / oc : 0;
  const float* src = wc.data<float>();
  const float* s = sc.data<float>();
  float* dst = out.data<float>();
  for (int64_t c = 0; c < oc; ++c)
    for (int64_t i = 0; i < per; ++i) dst[c * per + i] = src[c * per + i] * s[c];
  return out;
}

Object fused_conv2d(const OpCall& call) {
  static const Schema schema(
      "fused_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, residual=None, "
      "activation=None, min_val=-1.0, max_val=1.0, approximate='none', scale=None)");
  static PackCache<PreparedConv> cache;
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& w = a.tensor(1);
  const Tensor bias = opt_tensor(a, 2);
  const Tensor scale = opt_tensor(a, 12);
  const Activation act = activation_args(a, 8, "fused_conv2d");
  if (w.dim() != 4) throw FxError("fused_conv2d: the weight must be 4-D, got " + shape_to_string(w.shape()));
  if (scale.defined() && (scale.dim() != 1 || scale.shape()[0] != w.shape()[0] || !dtype_is_floating(scale.dtype())))
    throw FxError("fused_conv2d: scale must be a float tensor of " + std::to_string(w.shape()[0]) +
                  " values (one per output channel), got " + shape_to_string(scale.shape()));
  std::string pad_str;
  std::vector<int64_t> pad;
  if (a[4].is_value() && a[4].value().kind() == ValueKind::Str) pad_str = a.str(4);
  else pad = *a.int_list(4);
  const ConvParams p = conv_params(2, *a.int_list(3), pad, pad_str, *a.int_list(5), a.integer(6), false, {}, w.shape());
  if (meta_mode())  // shapes only: the scale changes no shape
    return finish(Object(conv_forward(x, w, bias, p)), a, 7, act);
  if (!is_f32(x) || !is_f32(w) || (bias.defined() && !is_f32(bias)))
    return finish(Object(conv_forward(x, scale.defined() ? to_dtype(scale_weight(w, scale), w.dtype()) : w, bias, p)), a, 7, act);

  PackKey key{};  // 2-D: two values each
  for (int d = 0; d < 2; ++d) {
    key[d] = p.stride[d], key[2 + d] = p.dilation[d];
    key[4 + d] = p.pad_begin[d], key[6 + d] = p.pad_end[d];
  }
  key[8] = p.groups;
  key[9] = static_cast<int64_t>(reinterpret_cast<intptr_t>(scale.defined() ? scale.raw_data() : nullptr));
  const auto prepared = cache.get(w, bias, key, [&] {
    PreparedConv c;
    if (!scale.defined()) {
      c.packed = pack_conv_weight(w, bias, p);
      return c;
    }
    const Tensor s = to_dtype(scale, DType::Float32).contiguous();
    c.packed = pack_conv_weight(w, bias, p, s.data<float>());
    // No packed form (depthwise): that kernel reads the weight, so it reads the scaled one.
    if (c.packed.groups.empty() && !c.packed.weight.defined() && !c.packed.winograd.defined())
      c.folded = scale_weight(w, s);
    return c;
  });
  const PackedConv* packed = &prepared->packed;
  const Tensor& weight = prepared->folded.defined() ? prepared->folded : w;
  ConvEpilogueSpec epi;
  if (act.clamp()) epi.min = act.min, epi.max = act.max;
  bool residual_in_kernel = false;
  if (!a.is_none(7) && a[7].is_tensor() && x.dim() == 4) {
    const Tensor& r = a[7].tensor();
    bool same = is_f32(r) && r.dim() == 4 && r.shape()[0] == x.shape()[0] && r.shape()[1] == w.shape()[0];
    for (int d = 0; same && d < 2; ++d) {
      const int64_t in = x.shape()[2 + d], k = w.shape()[2 + d];
      const int64_t o = (in + p.pad_begin[d] + p.pad_end[d] - p.dilation[d] * (k - 1) - 1) / p.stride[d] + 1;
      same = r.shape()[2 + d] == o;
    }
    if (same) epi.residual = r, residual_in_kernel = true;
  }
  if (!a.is_none(7) && !residual_in_kernel) {  // a residual that broadcasts or converts: as the graph said
    return finish(Object(conv_forward(x, weight, bias, p, packed)), a, 7, act);
  }
  Tensor y = conv_forward(x, weight, bias, p, packed, &epi);
  if (!act.kind.empty() && !act.clamp()) activate_in_place(y, act);
  return Object(y);
}

Object fused_linear(const OpCall& call) {
  static const Schema schema(
      "fused_linear(input, weight, bias=None, residual=None, activation=None, min_val=-1.0, max_val=1.0, "
      "approximate='none', act_scale=None)");
  static PackCache<PackedLinear> cache;
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& w = a.tensor(1);
  const Tensor bias = opt_tensor(a, 2);
  const Activation act = activation_args(a, 4, "fused_linear");
  const bool fast = !meta_mode() && is_f32(x) && is_f32(w) && w.dim() == 2 && x.dim() >= 1 && x.numel() > 0 &&
                    w.numel() > 0 && x.shape().back() == w.shape()[1] &&
                    (!bias.defined() || (is_f32(bias) && bias.dim() == 1 && bias.shape()[0] == w.shape()[0]));
  if (!fast) return finish(Object(linear_tensor(x, w, bias.defined() ? &bias : nullptr)), a, 3, act);

  const auto pack = [&] { return PackedLinear::pack(w, bias.defined() ? &bias : nullptr); };
  // A quantized weight packs nothing (ops/math/linear_quantized.h); the cache's key would read its bytes.
  const auto packed = quantized_of(w) ? std::make_shared<const PackedLinear>(pack()) : cache.get(w, bias, PackKey{}, pack);
  const int64_t N = packed->N, K = packed->K;
  Shape out_shape(x.shape().begin(), x.shape().end() - 1);
  out_shape.push_back(N);
  Tensor out;
  GemmParams gp;
  if (!a.is_none(3)) {
    const Object& r = a[3];
    if (!r.is_tensor() || !is_f32(r.tensor()) || r.tensor().shape() != out_shape)  // broadcasts: as the graph said
      return finish(Object(packed->run(x, w)), a, 3, act);
    out = r.tensor().clone();  // C of the GEMM, beta 1: the residual is added in the epilogue
    gp.beta = 1.0f;
  } else {
    out = Tensor::empty(out_shape, DType::Float32);
  }
  if (act.clamp()) gp.min = act.min, gp.max = act.max;
  if (!a.is_none(8)) {  // the input is a dequantised int8 activation on this grid (passes/pt2e_weights.h)
    const float grid = static_cast<float>(a[8].is_tensor() ? tensor_item(a[8].tensor()).as_double() : a.number(8).as_double());
    if (std::isfinite(grid) && grid > 0.0f) gp.act_grid = grid;
  }
  gp.bias = packed->bias.defined() ? packed->bias.data<float>() : nullptr;
  const Tensor xc = x.contiguous();
  const int64_t rows = xc.numel() / K;
  packed->gemm(rows, xc.data<float>(), w, out.data<float>(), gp);
  if (!act.kind.empty() && !act.clamp()) activate_in_place(out, act);
  return Object(out);
}

const OpRegistrar reg_fused_conv2d{OpDef{"fxwasm.fused_conv2d", {}, {}, fused_conv2d}};
const OpRegistrar reg_fused_linear{OpDef{"fxwasm.fused_linear", {}, {}, fused_linear}};

}  // namespace
}  // namespace fx
