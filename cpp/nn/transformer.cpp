// nn.MultiheadAttention, nn.TransformerEncoder(Layer), nn.TransformerDecoder(Layer) and nn.Transformer
// leaf modules, following F.multi_head_attention_forward step by step (projections, bias_kv /
// zero-attention columns, masks merged into one additive float mask, per-head softmax attention, output
// projection), so masks, need_weights and head averaging give torch's results. The encoder and decoder
// layers reuse the attention binder.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/norm.h"
#include "nn/module_util.h"
#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Tensor reshape_packed(const Tensor& t, const Shape& s) { return view_as_shape(t.contiguous(), s); }

Tensor rows(const Tensor& w, int64_t begin, int64_t n) {  // w[begin:begin+n] along dim 0, packed
  Tensor c = w.contiguous();
  Shape s = c.shape();
  const int64_t inner = c.numel() / std::max<int64_t>(1, s[0]);
  s[0] = n;
  return Tensor::from_bytes(s, c.dtype(), static_cast<const uint8_t*>(c.raw_data()) + begin * inner * dtype_size(c.dtype()),
                            static_cast<size_t>(n * inner) * dtype_size(c.dtype()));
}

bool is_none(const Object& o) { return o.is_value() && o.value().is_none(); }

struct Mha {
  int64_t E = 0, H = 0;
  bool batch_first = false, zero_attn = false;
  Tensor wq, wk, wv, bq, bk, bv, bias_k, bias_v, wo, bo;

  // query/key/value as the module receives them; returns (attn_output, weights or undefined).
  std::pair<Tensor, Tensor> run(const Tensor& query, const Tensor& key, const Tensor& value, const Object& kpm_o,
                                bool need_weights, const Object& mask_o, bool average, bool is_causal) const;
};

Mha bind_mha_state(const ModuleBinding& b) {
  Hparams h(b);
  Mha m;
  m.E = h.integer("embed_dim");
  m.H = h.integer("num_heads");
  m.batch_first = h.boolean_or("batch_first", false);
  m.zero_attn = h.boolean_or("add_zero_attn", false);
  if (m.H <= 0 || m.E % m.H) throw FxError("embed_dim must be divisible by num_heads");
  Tensor in_w = h.tensor("in_proj_weight", false), in_b = h.tensor("in_proj_bias", false);
  if (in_w.defined()) {
    m.wq = rows(in_w, 0, m.E), m.wk = rows(in_w, m.E, m.E), m.wv = rows(in_w, 2 * m.E, m.E);
  } else {
    m.wq = h.tensor("q_proj_weight"), m.wk = h.tensor("k_proj_weight"), m.wv = h.tensor("v_proj_weight");
  }
  if (in_b.defined()) m.bq = rows(in_b, 0, m.E), m.bk = rows(in_b, m.E, m.E), m.bv = rows(in_b, 2 * m.E, m.E);
  m.bias_k = h.tensor("bias_k", false), m.bias_v = h.tensor("bias_v", false);
  m.wo = h.tensor("out_proj.weight"), m.bo = h.tensor("out_proj.bias", false);
  return m;
}

Tensor lin(const Tensor& x, const Tensor& w, const Tensor& b) { return linear_tensor(x, w, b.defined() ? &b : nullptr); }

// A bool mask (True = masked) as 0/-inf; a float mask as is; in dtype `dt`, packed.
Tensor canonical_mask(const Tensor& m, DType dt, const char* what) {
  if (m.dtype() == DType::Bool) {
    Tensor c = m.contiguous(), out = Tensor::empty(m.shape(), dt);
    dispatch_float(dt, what, [&](auto tag) {
      using T = decltype(tag);
      for (int64_t i = 0; i < c.numel(); ++i)
        out.data<T>()[i] = c.data<bool>()[i] ? -std::numeric_limits<T>::infinity() : T(0);
    });
    return out;
  }
  if (!dtype_is_floating(m.dtype()))
    throw FxError(std::string("only bool and floating types of ") + what + " are supported");
  return to_dtype(m, dt).contiguous();
}

std::pair<Tensor, Tensor> Mha::run(const Tensor& query, const Tensor& key, const Tensor& value, const Object& kpm_o,
                                   bool need_weights, const Object& mask_o, bool average, bool is_causal) const {
  const bool batched = query.dim() == 3;
  if (!batched && query.dim() != 2)
    throw FxError("query should be unbatched 2D or batched 3D tensor but received " + std::to_string(query.dim()) + "-D query tensor");
  const DType original = query.dtype();
  auto prep = [&](const Tensor& t) {  // → (L, N, E_x) in the compute dtype
    Tensor x = float_contiguous(t, "multi_head_attention_forward");
    if (!batched) return reshape_packed(x, {x.shape()[0], 1, x.shape()[1]});
    return batch_first ? permute_view(x, {1, 0, 2}).contiguous() : x;
  };
  Tensor q = prep(query), k = prep(key), v = prep(value);
  const DType dt = q.dtype();
  const int64_t L = q.shape()[0], N = q.shape()[1], S0 = k.shape()[0], hd = E / H, NH = N * H;
  if (q.shape()[2] != E)
    throw FxError("was expecting embedding dimension of " + std::to_string(E) + ", but got " + std::to_string(q.shape()[2]));
  Tensor kpm = is_none(kpm_o) ? Tensor() : kpm_o.tensor();
  Tensor mask = is_none(mask_o) ? Tensor() : mask_o.tensor();
  if (is_causal && !mask.defined())
    throw FxError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
                  "`generate_square_subsequent_mask` to create this mask.");
  // With no padding mask and no weights wanted, torch hands the hint to SDPA, which builds the causal mask.
  const bool causal_only = is_causal && !kpm.defined() && !need_weights;
  q = lin(q, to_dtype(wq, dt), bq.defined() ? to_dtype(bq, dt) : Tensor());
  k = lin(k, to_dtype(wk, dt), bk.defined() ? to_dtype(bk, dt) : Tensor());
  v = lin(v, to_dtype(wv, dt), bv.defined() ? to_dtype(bv, dt) : Tensor());
  int64_t S = S0 + (bias_k.defined() ? 1 : 0) + (zero_attn ? 1 : 0);
  // heads: (L, N, E) → (N*H, L, hd); extra key columns (bias_k, zero attention) appended at the end.
  auto heads = [&](const Tensor& t, int64_t len, const Tensor& extra_bias) {
    Tensor x = permute_view(reshape_packed(t, {len, NH, hd}), {1, 0, 2}).contiguous();  // (NH, len, hd)
    Tensor out = Tensor::zeros({NH, S, hd}, dt);
    dispatch_float(dt, "multi_head_attention_forward", [&](auto tag) {
      using T = decltype(tag);
      Tensor eb = extra_bias.defined() ? to_dtype(extra_bias, dt).contiguous() : Tensor();
      for (int64_t i = 0; i < NH; ++i) {
        std::copy(x.data<T>() + i * len * hd, x.data<T>() + (i + 1) * len * hd, out.data<T>() + i * S * hd);
        if (eb.defined())  // bias_k (1, 1, E): head i % H takes its slice
          std::copy(eb.data<T>() + (i % H) * hd, eb.data<T>() + (i % H + 1) * hd, out.data<T>() + (i * S + len) * hd);
      }
    });
    return out;
  };
  if (bias_k.defined() != bias_v.defined()) throw FxError("bias_k and bias_v must both be set or both be None");
  Tensor qh = permute_view(reshape_packed(q, {L, NH, hd}), {1, 0, 2}).contiguous();
  Tensor kh = heads(k, S0, bias_k), vh = heads(v, S0, bias_v);
  // One additive mask (NH, L, S), or undefined.
  Tensor m;
  if (causal_only || mask.defined() || kpm.defined()) m = Tensor::zeros({NH, L, S}, dt);
  dispatch_float(dt, "multi_head_attention_forward", [&](auto tag) {
    using T = decltype(tag);
    const T ninf = -std::numeric_limits<T>::infinity();
    if (causal_only) {
      for (int64_t i = 0; i < NH; ++i)
        for (int64_t r = 0; r < L; ++r)
          for (int64_t c = r + 1; c < S; ++c) m.data<T>()[(i * L + r) * S + c] = ninf;
      return;
    }
    if (mask.defined()) {
      Tensor am = canonical_mask(mask, dt, "attn_mask");
      const bool per_head = am.dim() == 3;
      if (am.dim() == 2 && (am.shape()[0] != L || am.shape()[1] != S0))
        throw FxError("The shape of the 2D attn_mask is " + shape_to_string(am.shape()) + ", but should be (" +
                      std::to_string(L) + ", " + std::to_string(S0) + ").");
      if (am.dim() == 3 && (am.shape()[0] != NH || am.shape()[1] != L || am.shape()[2] != S0))
        throw FxError("The shape of the 3D attn_mask is " + shape_to_string(am.shape()) + ", but should be (" +
                      std::to_string(NH) + ", " + std::to_string(L) + ", " + std::to_string(S0) + ").");
      if (am.dim() != 2 && am.dim() != 3)
        throw FxError("attn_mask's dimension " + std::to_string(am.dim()) + " is not supported");
      for (int64_t i = 0; i < NH; ++i)
        for (int64_t r = 0; r < L; ++r)
          for (int64_t c = 0; c < S0; ++c)
            m.data<T>()[(i * L + r) * S + c] += am.data<T>()[((per_head ? i : 0) * L + r) * S0 + c];
    }
    if (kpm.defined()) {
      Tensor pm = canonical_mask(kpm, dt, "key_padding_mask");
      if (!batched) pm = reshape_packed(pm, {1, pm.numel()});
      if (pm.dim() != 2 || pm.shape()[0] != N || pm.shape()[1] != S0)
        throw FxError("expecting key_padding_mask shape of (" + std::to_string(N) + ", " + std::to_string(S0) +
                      "), but got " + shape_to_string(pm.shape()));
      for (int64_t i = 0; i < NH; ++i)
        for (int64_t r = 0; r < L; ++r)
          for (int64_t c = 0; c < S0; ++c) m.data<T>()[(i * L + r) * S + c] += pm.data<T>()[(i / H) * S0 + c];
    }
  });
  // scores = (q / √hd) kᵀ + mask; softmax over keys; attention = p v.
  Tensor scores = matmul_tensor(qh, permute_view(kh, {0, 2, 1})).contiguous();  // (NH, L, S)
  Tensor p = Tensor::empty(scores.shape(), dt);
  dispatch_float(dt, "multi_head_attention_forward", [&](auto tag) {
    using T = decltype(tag);
    const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(hd)));
    T* s = scores.data<T>();
    for (int64_t i = 0; i < scores.numel(); ++i) s[i] = s[i] * scale + (m.defined() ? m.data<T>()[i] : T(0));
    kernels::softmax_axis<T>(s, p.data<T>(), NH * L, S, 1, false);
  });
  Tensor att = matmul_tensor(p, vh);  // (NH, L, hd)
  Tensor merged = reshape_packed(permute_view(att, {1, 0, 2}), {L * N, E});
  Tensor out = reshape_packed(lin(merged, to_dtype(wo, dt), bo.defined() ? to_dtype(bo, dt) : Tensor()), {L, N, E});
  if (!batched) out = reshape_packed(out, {L, E});
  else if (batch_first) out = permute_view(out, {1, 0, 2}).contiguous();
  Tensor weights;
  if (need_weights) {
    weights = reshape_packed(p, {N, H, L, S});
    if (average) {
      Tensor avg = Tensor::zeros({N, L, S}, dt);
      dispatch_float(dt, "multi_head_attention_forward", [&](auto tag) {
        using T = decltype(tag);
        for (int64_t n = 0; n < N; ++n)
          for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < L * S; ++i)
              avg.data<T>()[n * L * S + i] += weights.data<T>()[(n * H + h) * L * S + i] / static_cast<T>(H);
      });
      weights = batched ? avg : reshape_packed(avg, {L, S});
    } else if (!batched) {
      weights = reshape_packed(weights, {H, L, S});
    }
    weights = restore_dtype(weights, original);
  }
  return {restore_dtype(out, original), weights};
}

BoundModule bind_mha(const ModuleBinding& b) {
  auto m = std::make_shared<Mha>(bind_mha_state(b));
  return [m](const OpCall& call) -> Object {
    static const Schema schema("forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None, "
                               "average_attn_weights=True, is_causal=False)");
    Args a = schema.parse(call);
    auto r = m->run(a.tensor(0), a.tensor(1), a.tensor(2), a[3], a.boolean(4), a[5], a.boolean(6), a.boolean(7));
    return Object::tuple({r.first, r.second.defined() ? Object(r.second) : Object()});
  };
}

// ---- TransformerEncoderLayer / TransformerEncoder ----

struct SubModule {  // a child module bound through the registry (norms, linears, a custom activation)
  BoundModule fn;
  Tensor operator()(const Tensor& x) const {
    OpCall c;
    c.args = {x};
    return fn(c).tensor();
  }
};

SubModule bind_child(const ModuleBinding& b, const std::string& name) {
  const std::string path = b.path.empty() ? name : b.path + "." + name;
  auto it = b.gm.modules().find(path);
  if (it == b.gm.modules().end()) throw FxError("module '" + b.path + "' has no submodule '" + name + "'");
  ModuleBinder binder = ModuleRegistry::global().find(it->second.type);
  if (!binder) throw FxError("no leaf module " + it->second.type + " (at '" + path + "')");
  return SubModule{binder(ModuleBinding{b.gm, path, it->second})};
}

bool has_child(const ModuleBinding& b, const std::string& name) {
  return b.gm.modules().count(b.path.empty() ? name : b.path + "." + name) > 0;
}

// A layer's activation: a child module, or a torch function the exporter recorded by name
// (hparam "activation"; older files carry only the encoder's activation_relu_or_gelu).
SubModule bind_activation(const ModuleBinding& b, const char* cls) {
  Hparams h(b);
  if (has_child(b, "activation")) return bind_child(b, "activation");
  const int64_t act = h.integer_or("activation_relu_or_gelu", 0);
  std::string fn = h.str_or("activation", "");
  if (act == 1 || act == 2) fn = act == 1 ? "torch.nn.functional.relu" : "torch.nn.functional.gelu";
  if (fn.empty())
    throw FxError(std::string(cls) + " '" + b.path + "': its activation is a Python function the file does not name; "
                  "use a torch function or an nn.Module activation");
  OpRef op(fn);
  return SubModule{[op](const OpCall& c) -> Object { return op({c.args.at(0)}); }};
}

struct EncoderLayer {
  std::shared_ptr<Mha> attn;
  SubModule linear1, linear2, norm1, norm2, activation;
  bool norm_first = false;
  Tensor run(const Tensor& src, const Object& mask, const Object& kpm, bool is_causal) const {
    auto sa = [&](const Tensor& x) { return attn->run(x, x, x, kpm, false, mask, true, is_causal).first; };
    auto ff = [&](const Tensor& x) { return linear2(activation(linear1(x))); };
    auto add = [](const Tensor& a, const Tensor& b) {
      return OpRegistry::global().call("operator.add", {a, b}).tensor();
    };
    Tensor x = src;
    if (norm_first) {
      x = add(x, sa(norm1(x)));
      return add(x, ff(norm2(x)));
    }
    x = norm1(add(x, sa(x)));
    return norm2(add(x, ff(x)));
  }
};

std::shared_ptr<EncoderLayer> bind_encoder_layer_state(const ModuleBinding& b) {
  Hparams h(b);
  auto L = std::make_shared<EncoderLayer>();
  const std::string attn_path = b.path.empty() ? "self_attn" : b.path + ".self_attn";
  auto it = b.gm.modules().find(attn_path);
  if (it == b.gm.modules().end()) throw FxError("TransformerEncoderLayer '" + b.path + "' has no self_attn");
  L->attn = std::make_shared<Mha>(bind_mha_state(ModuleBinding{b.gm, attn_path, it->second}));
  L->linear1 = bind_child(b, "linear1");
  L->linear2 = bind_child(b, "linear2");
  L->norm1 = bind_child(b, "norm1");
  L->norm2 = bind_child(b, "norm2");
  L->norm_first = h.boolean_or("norm_first", false);
  L->activation = bind_activation(b, "TransformerEncoderLayer");
  return L;
}

const Schema& layer_schema() {
  static const Schema s("forward(src, src_mask=None, src_key_padding_mask=None, is_causal=False)");
  return s;
}

BoundModule bind_encoder_layer(const ModuleBinding& b) {
  auto L = bind_encoder_layer_state(b);
  return [L](const OpCall& call) -> Object {
    Args a = layer_schema().parse(call);
    return L->run(a.tensor(0), a[1], a[2], a.boolean(3));
  };
}

// True when every row of the padding mask pads only a suffix (torch's _nested_tensor_from_mask_left_aligned).
bool left_aligned(const Tensor& kpm) {
  Tensor k = kpm.dtype() == DType::Bool ? kpm.contiguous() : to_dtype(kpm, DType::Float64).contiguous();
  const int64_t n = kpm.dim() == 2 ? kpm.shape()[0] : 1, s = kpm.numel() / std::max<int64_t>(1, n);
  for (int64_t r = 0; r < n; ++r) {
    bool padded = false;
    for (int64_t c = 0; c < s; ++c) {
      const bool p = k.dtype() == DType::Bool ? k.data<bool>()[r * s + c] : k.data<double>()[r * s + c] != 0.0;
      if (padded && !p) return false;
      padded = padded || p;
    }
  }
  return true;
}

BoundModule bind_encoder(const ModuleBinding& b) {
  Hparams h(b);
  std::vector<std::shared_ptr<EncoderLayer>> layers;
  const int64_t n = h.integer("num_layers");
  for (int64_t i = 0; i < n; ++i) {
    const std::string path = (b.path.empty() ? "" : b.path + ".") + "layers." + std::to_string(i);
    auto it = b.gm.modules().find(path);
    if (it == b.gm.modules().end()) throw FxError("TransformerEncoder '" + b.path + "' has no layer " + path);
    if (it->second.type != "torch.nn.modules.transformer.TransformerEncoderLayer")
      throw FxError("TransformerEncoder layers must be TransformerEncoderLayer, got " + it->second.type);
    layers.push_back(bind_encoder_layer_state(ModuleBinding{b.gm, path, it->second}));
  }
  std::shared_ptr<SubModule> norm;
  if (has_child(b, "norm")) norm = std::make_shared<SubModule>(bind_child(b, "norm"));
  const bool nested = h.boolean_or("use_nested_tensor", false) && !h.boolean_or("training", false);
  const bool mask_check = h.boolean_or("mask_check", true);
  return [layers, norm, nested, mask_check](const OpCall& call) -> Object {
    static const Schema schema("forward(src, mask=None, src_key_padding_mask=None, is_causal=None)");
    Args a = schema.parse(call);
    const Tensor& src = a.tensor(0);
    bool is_causal = !a.is_none(3) && a.boolean(3);
    // torch runs padded batches as nested tensors here, so padded positions come out as zeros.
    const bool pad_zero = !meta_mode() && nested && src.dim() == 3 && !a.is_none(2) && a.is_none(1) &&
                          (!mask_check || left_aligned(a.tensor(2)));
    Tensor x = src;
    for (const auto& L : layers) x = L->run(x, a[1], a[2], is_causal);
    if (pad_zero) {
      Tensor k = a.tensor(2).dtype() == DType::Bool ? a.tensor(2).contiguous() : to_dtype(a.tensor(2), DType::Float64).contiguous();
      Tensor xc = x.contiguous(), z = Tensor::empty(x.shape(), x.dtype());
      std::memcpy(z.raw_data(), xc.raw_data(), static_cast<size_t>(xc.numel()) * dtype_size(xc.dtype()));
      const int64_t N = z.shape()[0], S = z.shape()[1], E = z.shape()[2];
      const size_t es = dtype_size(z.dtype());
      auto* d = static_cast<uint8_t*>(z.raw_data());
      for (int64_t i = 0; i < N * S; ++i) {
        const bool p = k.dtype() == DType::Bool ? k.data<bool>()[i] : k.data<double>()[i] != 0.0;
        if (p) std::fill(d + i * E * es, d + (i + 1) * E * es, uint8_t(0));
      }
      x = z;
    }
    return norm ? (*norm)(x) : x;
  };
}

// ---- TransformerDecoderLayer / TransformerDecoder / Transformer ----

std::shared_ptr<Mha> bind_attn_child(const ModuleBinding& b, const std::string& name) {
  const std::string path = b.path.empty() ? name : b.path + "." + name;
  auto it = b.gm.modules().find(path);
  if (it == b.gm.modules().end()) throw FxError("module '" + b.path + "' has no " + name);
  return std::make_shared<Mha>(bind_mha_state(ModuleBinding{b.gm, path, it->second}));
}

Tensor add_tensors(const Tensor& a, const Tensor& b) {
  return OpRegistry::global().call("operator.add", {a, b}).tensor();
}

struct DecoderLayer {
  std::shared_ptr<Mha> self_attn, cross_attn;
  SubModule linear1, linear2, norm1, norm2, norm3, activation;
  bool norm_first = false;
  // torch's TransformerDecoderLayer.forward: self-attention, cross-attention on `memory`, feed-forward.
  Tensor run(const Tensor& tgt, const Tensor& memory, const Object& tgt_mask, const Object& memory_mask,
             const Object& tgt_kpm, const Object& memory_kpm, bool tgt_causal, bool memory_causal) const {
    auto sa = [&](const Tensor& x) { return self_attn->run(x, x, x, tgt_kpm, false, tgt_mask, true, tgt_causal).first; };
    auto mha = [&](const Tensor& x) {
      return cross_attn->run(x, memory, memory, memory_kpm, false, memory_mask, true, memory_causal).first;
    };
    auto ff = [&](const Tensor& x) { return linear2(activation(linear1(x))); };
    Tensor x = tgt;
    if (norm_first) {
      x = add_tensors(x, sa(norm1(x)));
      x = add_tensors(x, mha(norm2(x)));
      return add_tensors(x, ff(norm3(x)));
    }
    x = norm1(add_tensors(x, sa(x)));
    x = norm2(add_tensors(x, mha(x)));
    return norm3(add_tensors(x, ff(x)));
  }
};

std::shared_ptr<DecoderLayer> bind_decoder_layer_state(const ModuleBinding& b) {
  Hparams h(b);
  auto L = std::make_shared<DecoderLayer>();
  L->self_attn = bind_attn_child(b, "self_attn");
  L->cross_attn = bind_attn_child(b, "multihead_attn");
  L->linear1 = bind_child(b, "linear1");
  L->linear2 = bind_child(b, "linear2");
  L->norm1 = bind_child(b, "norm1");
  L->norm2 = bind_child(b, "norm2");
  L->norm3 = bind_child(b, "norm3");
  L->norm_first = h.boolean_or("norm_first", false);
  L->activation = bind_activation(b, "TransformerDecoderLayer");
  return L;
}

bool flag(const Args& a, size_t i) { return !a.is_none(i) && a.boolean(i); }

BoundModule bind_decoder_layer(const ModuleBinding& b) {
  auto L = bind_decoder_layer_state(b);
  return [L](const OpCall& call) -> Object {
    static const Schema schema("forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None, "
                               "memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False)");
    Args a = schema.parse(call);
    return L->run(a.tensor(0), a.tensor(1), a[2], a[3], a[4], a[5], flag(a, 6), flag(a, 7));
  };
}

// TransformerDecoder.forward. torch also sets tgt_is_causal when tgt_mask equals the causal mask; the
// hint only replaces a mask by that same mask, so it changes nothing here and is not detected.
struct Decoder {
  std::vector<std::shared_ptr<DecoderLayer>> layers;
  std::shared_ptr<SubModule> norm;
  Tensor run(const Tensor& tgt, const Tensor& memory, const Object& tgt_mask, const Object& memory_mask,
             const Object& tgt_kpm, const Object& memory_kpm, bool tgt_causal, bool memory_causal) const {
    Tensor x = tgt;
    for (const auto& L : layers) x = L->run(x, memory, tgt_mask, memory_mask, tgt_kpm, memory_kpm, tgt_causal, memory_causal);
    return norm ? (*norm)(x) : x;
  }
};

std::shared_ptr<Decoder> bind_decoder_state(const ModuleBinding& b) {
  Hparams h(b);
  auto D = std::make_shared<Decoder>();
  const int64_t n = h.integer("num_layers");
  for (int64_t i = 0; i < n; ++i) {
    const std::string path = (b.path.empty() ? "" : b.path + ".") + "layers." + std::to_string(i);
    auto it = b.gm.modules().find(path);
    if (it == b.gm.modules().end()) throw FxError("TransformerDecoder '" + b.path + "' has no layer " + path);
    if (it->second.type != "torch.nn.modules.transformer.TransformerDecoderLayer")
      throw FxError("TransformerDecoder layers must be TransformerDecoderLayer, got " + it->second.type);
    D->layers.push_back(bind_decoder_layer_state(ModuleBinding{b.gm, path, it->second}));
  }
  if (has_child(b, "norm")) D->norm = std::make_shared<SubModule>(bind_child(b, "norm"));
  return D;
}

BoundModule bind_decoder(const ModuleBinding& b) {
  auto D = bind_decoder_state(b);
  return [D](const OpCall& call) -> Object {
    static const Schema schema("forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None, "
                               "memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False)");
    Args a = schema.parse(call);
    return D->run(a.tensor(0), a.tensor(1), a[2], a[3], a[4], a[5], flag(a, 6), flag(a, 7));
  };
}

// nn.Transformer as one leaf: its encoder (bound through the registry, nested-tensor padding included)
// then its decoder, after torch's batch and feature checks.
BoundModule bind_transformer(const ModuleBinding& b) {
  Hparams h(b);
  const int64_t d_model = h.integer("d_model");
  const bool batch_first = h.boolean_or("batch_first", false);
  const SubModule encoder = bind_child(b, "encoder");
  const std::string dec_path = b.path.empty() ? "decoder" : b.path + ".decoder";
  auto it = b.gm.modules().find(dec_path);
  if (it == b.gm.modules().end() || it->second.type != "torch.nn.modules.transformer.TransformerDecoder")
    throw FxError("Transformer '" + b.path + "' has no TransformerDecoder 'decoder'");
  auto decoder = bind_decoder_state(ModuleBinding{b.gm, dec_path, it->second});
  return [=](const OpCall& call) -> Object {
    static const Schema schema("forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, "
                               "src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None, "
                               "src_is_causal=None, tgt_is_causal=None, memory_is_causal=False)");
    Args a = schema.parse(call);
    const Tensor& src = a.tensor(0);
    const Tensor& tgt = a.tensor(1);
    const bool batched = src.dim() == 3;
    const int64_t bdim = batch_first ? 0 : 1;
    if (batched && (tgt.dim() <= bdim || src.shape()[bdim] != tgt.shape()[bdim]))
      throw FxError("the batch number of src and tgt must be equal");
    if (src.dim() == 0 || tgt.dim() == 0 || src.shape().back() != d_model || tgt.shape().back() != d_model)
      throw FxError("the feature number of src and tgt must be equal to d_model");
    OpCall enc;
    enc.node = call.node;
    enc.args = {src};
    enc.kwargs = {{"mask", a[2]}, {"src_key_padding_mask", a[5]}, {"is_causal", a[8]}};
    const Tensor memory = encoder.fn(enc).tensor();
    return decoder->run(tgt, memory, a[3], a[4], a[6], a[7], flag(a, 9), flag(a, 10));
  };
}

const ModuleRegistrar reg_mha{{"torch.nn.modules.activation.MultiheadAttention"}, bind_mha};
const ModuleRegistrar reg_layer{{"torch.nn.modules.transformer.TransformerEncoderLayer"}, bind_encoder_layer};
const ModuleRegistrar reg_encoder{{"torch.nn.modules.transformer.TransformerEncoder"}, bind_encoder};
const ModuleRegistrar reg_dec_layer{{"torch.nn.modules.transformer.TransformerDecoderLayer"}, bind_decoder_layer};
const ModuleRegistrar reg_decoder{{"torch.nn.modules.transformer.TransformerDecoder"}, bind_decoder};
const ModuleRegistrar reg_transformer{{"torch.nn.modules.transformer.Transformer"}, bind_transformer};

}  // namespace
}  // namespace fx
