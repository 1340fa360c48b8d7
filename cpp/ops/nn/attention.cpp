// F.scaled_dot_product_attention (boolean or additive masks, is_causal, scale, grouped-query heads) and
// aten's CPU flash-attention form that also returns the log-sum-exp. float32 heads go to the fused kernel
// (kernels/attention_f32.h: Q, K, V read through their strides, the output written in the query's layout);
// other dtypes and shapes the kernel does not take (batch dims that broadcast the query) are built on
// matmul_tensor + softmax.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "kernels/attention_f32.h"
#include "kernels/norm.h"
#include "kernels/parallel.h"
#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

Tensor transpose_last(const Tensor& t) {
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < t.dim(); ++d) perm.push_back(d);
  std::swap(perm[t.dim() - 1], perm[t.dim() - 2]);
  return permute_view(t, perm);
}

// k/v heads repeated to match q's (enable_gqa): [.., Hk, S, E] → [.., Hq, S, E].
Tensor repeat_heads(const Tensor& t, int64_t hq) {
  const int64_t hk = t.shape()[t.dim() - 3];
  if (hk == hq) return t;
  if (hk == 0 || hq % hk) throw FxError("number of heads in key/value must divide the number of heads in query");
  Tensor c = t.contiguous();
  Shape s = c.shape();
  s[s.size() - 3] = hq;
  Tensor out = Tensor::empty(s, c.dtype());
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  const int64_t block = s[s.size() - 2] * s[s.size() - 1] * static_cast<int64_t>(dtype_size(c.dtype()));
  const int64_t outer = c.numel() / std::max<int64_t>(1, hk * block / static_cast<int64_t>(dtype_size(c.dtype())));
  const auto* src = static_cast<const uint8_t*>(c.raw_data());
  auto* dst = static_cast<uint8_t*>(out.raw_data());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t h = 0; h < hq; ++h)
      std::memcpy(dst + (o * hq + h) * block, src + (o * hk + h / (hq / hk)) * block, static_cast<size_t>(block));
  return out;
}

// Element offsets of a view's rows: row r of `v` viewed as [rows, last] (any strides, 0 for a broadcast dim).
std::vector<int64_t> row_offsets(const Tensor& v) {
  const int64_t last = v.shape().empty() ? 1 : v.shape().back();
  const int64_t rows = v.numel() / std::max<int64_t>(1, last);
  std::vector<int64_t> out(static_cast<size_t>(rows));
  std::vector<int64_t> idx(v.shape().size(), 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t off = 0;
    for (size_t d = 0; d + 1 < idx.size(); ++d) off += idx[d] * v.strides()[d];
    out[static_cast<size_t>(r)] = off;
    for (int64_t d = static_cast<int64_t>(idx.size()) - 2; d >= 0; --d) {  // next row, last index fastest
      if (++idx[d] < v.shape()[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// Scores [rows, S] (row r is query r % L) in place: times `sc`, plus the additive mask or -inf where the
// boolean mask is false (the mask broadcast to the scores' shape as a view: no copy of it per head), -inf
// above the diagonal when causal.
template <typename T>
void scale_mask_scores(T* s, int64_t rows, int64_t L, int64_t S, double sc, bool causal, const Tensor& mask) {
  const T scale = static_cast<T>(sc), ninf = -std::numeric_limits<T>::infinity();
  std::vector<int64_t> mrow;
  int64_t mcol = 0;
  if (mask.defined()) {
    mrow = row_offsets(mask);
    mcol = mask.strides().back();
  }
  for (int64_t r = 0; r < rows; ++r) {
    T* __restrict x = s + r * S;
    if (!mask.defined()) {
      for (int64_t j = 0; j < S; ++j) x[j] *= scale;
    } else if (mask.dtype() == DType::Bool) {
      const bool* keep = static_cast<const bool*>(mask.raw_data()) + mrow[static_cast<size_t>(r)];
      for (int64_t j = 0; j < S; ++j) x[j] = keep[j * mcol] ? x[j] * scale : ninf;
    } else {
      const T* __restrict add = static_cast<const T*>(mask.raw_data()) + mrow[static_cast<size_t>(r)];
      if (mcol == 1)
        for (int64_t j = 0; j < S; ++j) x[j] = x[j] * scale + add[j];
      else
        for (int64_t j = 0; j < S; ++j) x[j] = x[j] * scale + add[j * mcol];
    }
    if (causal)
      for (int64_t j = r % L + 1; j < S; ++j) x[j] = ninf;
  }
}

// The dim order, outermost first, of the query's layout (stable for equal strides); empty when row-major.
std::vector<int64_t> layout_order(const Tensor& q) {
  std::vector<int64_t> order(static_cast<size_t>(q.dim()));
  for (int64_t d = 0; d < q.dim(); ++d) order[d] = d;
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return q.strides()[x] > q.strides()[y]; });
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int64_t>(i)) return order;
  return {};
}

// An uninitialised tensor of `shape` laid out like the query (laid_out_like below, without the copy).
Tensor empty_laid_out_like(const Shape& shape, const Tensor& q) {
  const std::vector<int64_t> order = layout_order(q);
  if (order.empty()) return Tensor::empty(shape, DType::Float32);
  Shape permuted;
  for (int64_t d : order) permuted.push_back(shape[d]);
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
  return permute_view(Tensor::empty(permuted, DType::Float32), inverse);
}

// Whether the kernel can read t's rows as they lie: the last dim contiguous, rows apart by at least a row.
bool rows_readable(const Tensor& t) {
  const int64_t n = t.dim();
  for (int64_t st : t.strides())
    if (st < 0) return false;
  return (t.shape()[n - 1] <= 1 || t.strides()[n - 1] == 1) &&
         (t.shape()[n - 2] <= 1 || t.strides()[n - 2] >= t.shape()[n - 1]);
}

// The fused float32 path: (out laid out like q, lse) — or nothing when the shapes are not its (the query's
// batch dims are the output's; key and value dims equal them, are 1, or with enable_gqa divide the heads).
std::optional<std::pair<Tensor, Tensor>> sdpa_fused(const Tensor& q0, const Tensor& k0, const Tensor& v0,
                                                    const Tensor& mask, bool causal, std::optional<double> scale,
                                                    bool gqa, bool want_lse) {
  if (q0.dtype() != DType::Float32 || k0.dtype() != DType::Float32 || v0.dtype() != DType::Float32) return {};
  const int64_t n = q0.dim();
  if (n < 2 || k0.dim() != n || v0.dim() != n) return {};
  const int64_t L = q0.shape()[n - 2], E = q0.shape()[n - 1], S = k0.shape()[n - 2], Ev = v0.shape()[n - 1];
  if (k0.shape()[n - 1] != E || v0.shape()[n - 2] != S) return {};
  const int64_t nb = n - 2;
  for (int64_t d = 0; d < nb; ++d) {
    const int64_t qd = q0.shape()[d];
    for (const Tensor* t : {&k0, &v0}) {
      const int64_t td = t->shape()[d];
      const bool heads = gqa && d == n - 3 && td > 0 && qd % td == 0;
      if (td != qd && td != 1 && !heads) return {};
    }
  }
  if (mask.defined() && mask.dtype() != DType::Bool && !dtype_is_floating(mask.dtype())) return {};
  Tensor q = rows_readable(q0) ? q0 : q0.contiguous();
  Tensor k = rows_readable(k0) ? k0 : k0.contiguous();
  Tensor v = rows_readable(v0) ? v0 : v0.contiguous();
  Shape batch(q0.shape().begin(), q0.shape().end() - 2);
  Shape out_shape = batch, score_shape = batch;
  out_shape.push_back(L), out_shape.push_back(Ev);
  score_shape.push_back(L), score_shape.push_back(S);
  Tensor m;
  if (mask.defined()) m = expand_to(mask.dtype() == DType::Bool ? mask : to_dtype(mask, DType::Float32), score_shape);
  Tensor out = empty_laid_out_like(out_shape, q0);
  if (!rows_readable(out)) return {};
  Tensor lse;
  if (want_lse) lse = Tensor::empty(Shape(score_shape.begin(), score_shape.end() - 1), DType::Float32);
  if (meta_mode()) return std::make_pair(out, lse);  // shape inference: no kernel (tensor/meta.h)

  kernels::AttentionF32Params p;
  p.scale = static_cast<float>(scale ? *scale : 1.0 / std::sqrt(static_cast<double>(E)));
  p.causal = causal;
  if (m.defined()) {
    p.mask_kind = m.dtype() == DType::Bool ? kernels::AttentionMask::Bool : kernels::AttentionMask::Additive;
    p.mask_rs = m.strides()[n - 2], p.mask_cs = m.strides()[n - 1];
  }
  int64_t count = 1;
  for (int64_t d : batch) count *= d;
  // Offset of batch index `idx` (row-major over `batch`) in t, whose dims are 1 (broadcast) or divide the
  // query's (grouped heads: query head h reads head h / (Hq / Hk)).
  auto offset = [&](const Tensor& t, int64_t idx) {
    int64_t off = 0;
    for (int64_t d = nb - 1; d >= 0; --d) {
      const int64_t i = idx % batch[d];
      idx /= batch[d];
      const int64_t td = t.shape()[d];
      off += (td == batch[d] ? i : td == 1 ? 0 : i / (batch[d] / td)) * t.strides()[d];
    }
    return off;
  };
  const float* pq = q.data<float>();
  const float* pk = k.data<float>();
  const float* pv = v.data<float>();
  float* po = out.data<float>();
  const auto ld = [&](const Tensor& t) { return static_cast<size_t>(t.strides()[n - 2]); };
  const size_t ldq = ld(q), ldk = ld(k), ldv = ld(v), ldo = ld(out);
  // Rows per item when one head's queries are shared out (a multiple of the kernel's query block, so the
  // split changes no result).
  const int threads = kernels::num_threads();
  const double work = double(count) * double(L) * double(S) * double(E + Ev);
  // A decoding step (one query over a long past) is bound by streaming the keys and values, not by its
  // multiply-adds: its heads are shared out once that stream is worth it.
  const double streamed = 4.0 * double(count) * double(S) * double(E + Ev);
  const bool parallel = threads > 1 && (kernels::worth_parallel(work) || kernels::worth_parallel_stream(streamed));
  const int64_t chunk = parallel && count < threads ? static_cast<int64_t>(2 * kernels::kAttentionQueryBlock) : std::max<int64_t>(L, 1);
  const int64_t chunks = (L + chunk - 1) / chunk;
  auto items = [&](size_t i0, size_t i1) {
    for (size_t it = i0; it < i1; ++it) {
      const int64_t b = static_cast<int64_t>(it) / chunks, c = static_cast<int64_t>(it) % chunks;
      kernels::AttentionF32Params pb = p;
      if (m.defined()) pb.mask = static_cast<const uint8_t*>(m.raw_data()) + offset(m, b) * int64_t(dtype_size(m.dtype()));
      if (want_lse) pb.lse = lse.data<float>() + b * L;
      pb.row_begin = static_cast<size_t>(c * chunk), pb.row_end = static_cast<size_t>(std::min(L, (c + 1) * chunk));
      kernels::attention_f32(L, S, E, Ev, pq + offset(q, b), ldq, pk + offset(k, b), ldk, pv + offset(v, b), ldv,
                             po + offset(out, b), ldo, pb);
    }
  };
  const size_t total = static_cast<size_t>(count * chunks);
  if (parallel && total > 1) kernels::parallel_for(total, items, 1);
  else items(0, total);
  return std::make_pair(out, lse);
}

// Returns (out, logsumexp of the scores along S — only when `want_lse`, else undefined).
std::pair<Tensor, Tensor> sdpa(const Tensor& q0, const Tensor& k0, const Tensor& v0, const Tensor& mask,
                               bool causal, std::optional<double> scale, bool gqa, bool want_lse) {
  if (q0.dim() < 2 || k0.dim() < 2 || v0.dim() < 2)
    throw FxError("scaled_dot_product_attention: query, key and value must be at least 2-D");
  const DType original = q0.dtype();
  Tensor q = float_contiguous(q0, "scaled_dot_product_attention");
  Tensor k = to_dtype(k0, q.dtype()), v = to_dtype(v0, q.dtype());
  if (gqa && q.dim() >= 3) {
    k = repeat_heads(k, q.shape()[q.dim() - 3]);
    v = repeat_heads(v, q.shape()[q.dim() - 3]);
  }
  const int64_t L = q.shape()[q.dim() - 2], E = q.shape().back(), S = k.shape()[k.dim() - 2];
  const double sc = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(E));
  Tensor scores = matmul_tensor(q, transpose_last(k)).contiguous();  // [..., L, S]
  Tensor m;
  if (mask.defined()) m = expand_to(mask.dtype() == DType::Bool ? mask : to_dtype(mask, q.dtype()), scores.shape());
  const int64_t rows = scores.numel() / std::max<int64_t>(1, S);
  Tensor out_p = Tensor::empty(scores.shape(), q.dtype());
  Tensor lse;
  if (want_lse) lse = Tensor::empty(Shape(scores.shape().begin(), scores.shape().end() - 1), q.dtype());
  dispatch_float(q.dtype(), "scaled_dot_product_attention", [&](auto tag) {
    using T = decltype(tag);
    T* s = scores.data<T>();
    scale_mask_scores<T>(s, rows, L, S, sc, causal, m);
    if (want_lse) {
      for (int64_t r = 0; r < rows; ++r) {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < S; ++j) mx = std::max<double>(mx, s[r * S + j]);
        for (int64_t j = 0; j < S; ++j) sum += std::exp(s[r * S + j] - mx);
        lse.data<T>()[r] = static_cast<T>(mx + std::log(sum));
      }
    }
    kernels::softmax_axis<T>(s, out_p.data<T>(), rows, S, 1, false);
  });
  Tensor out = matmul_tensor(out_p, v);
  return {restore_dtype(out, original), lse};
}

Tensor opt_tensor(const Args& a, size_t i) { return a.is_none(i) ? Tensor() : a.tensor(i); }

// torch's CPU attention allocates its output like the query (empty_like keeps its dim order): a query that
// is a transposed view of [B, L, H, E] gives an output laid out [B, L, H, E] too. Exported graphs (HF's
// attention: sdpa → transpose(1, 2) → view) `view` that result, which only works with those strides.
Tensor laid_out_like(const Tensor& out, const Tensor& q) {
  if (out.dim() != q.dim()) return out;
  std::vector<int64_t> order(static_cast<size_t>(q.dim()));
  for (int64_t d = 0; d < q.dim(); ++d) order[d] = d;
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return q.strides()[x] > q.strides()[y]; });
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == static_cast<int64_t>(i);
  if (identity) return out;
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
  return permute_view(permute_view(out, order).contiguous(), inverse);
}

Object sdpa_op(const OpCall& call) {
  static const Schema schema("scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, "
                             "is_causal=False, scale=None, enable_gqa=False)");
  Args a = schema.parse(call);
  if (a.number(4).as_double() != 0.0)
    throw FxError("scaled_dot_product_attention: dropout_p must be 0 at inference");
  if (a.boolean(5) && !a.is_none(3))
    throw FxError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
  if (auto r = sdpa_fused(a.tensor(0), a.tensor(1), a.tensor(2), opt_tensor(a, 3), a.boolean(5), opt_double(a, 6),
                          a.boolean(7), false))
    return r->first;
  Tensor out = sdpa(a.tensor(0), a.tensor(1), a.tensor(2), opt_tensor(a, 3), a.boolean(5), opt_double(a, 6),
                    a.boolean(7), false).first;
  return laid_out_like(out, a.tensor(0));
}

Object flash_cpu_op(const OpCall& call) {
  static const Schema schema("_scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p=0.0, "
                             "is_causal=False, *, attn_mask=None, scale=None)");
  Args a = schema.parse(call);
  if (auto f = sdpa_fused(a.tensor(0), a.tensor(1), a.tensor(2), opt_tensor(a, 5), a.boolean(4), opt_double(a, 6),
                          false, true))
    return Object::tuple({f->first, f->second});
  auto r = sdpa(a.tensor(0), a.tensor(1), a.tensor(2), opt_tensor(a, 5), a.boolean(4), opt_double(a, 6), false, true);
  r.first = laid_out_like(r.first, a.tensor(0));  // as torch's (make_fx graphs view it too)
  return Object::tuple({r.first, r.second});
}

const OpRegistrar reg_sdpa{OpDef{"torch.nn.functional.scaled_dot_product_attention",
                                 {"torch._C._nn.scaled_dot_product_attention",
                                  "aten.scaled_dot_product_attention.default"},
                                 {}, sdpa_op}};
const OpRegistrar reg_flash{OpDef{"aten._scaled_dot_product_flash_attention_for_cpu.default",
                                  {"aten._scaled_dot_product_flash_attention_for_cpu"}, {}, flash_cpu_op}};

}  // namespace
}  // namespace fx
