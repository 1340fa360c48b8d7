// torch.matmul's shape rules over gemm_views, and Linear (plain and prepacked). The op registrations
// that parse torch's signatures live in matmul_ops.cpp.
#include "ops/math/matmul.h"

#include <cstring>

#include "kernels/gemm_strided.h"
#include "kernels/parallel.h"
#include "ops/math/linear_quantized.h"
#include "ops/array/shape_ops.h"
#include "ops/dispatch.h"
#include "ops/math/complex_math.h"
#include "ops/registry.h"
#include "ops/nn/nn_util.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {

namespace {

// Packs a strided [R, C] view into a row-major scratch buffer.
void pack_rows(int64_t R, int64_t C, const float* src, int64_t rs, int64_t cs, std::vector<float>& dst) {
  dst.resize(static_cast<size_t>(R * C));
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c) dst[r * C + c] = src[r * rs + c * cs];
}

}  // namespace

template <typename T>
void gemm_views(int64_t M, int64_t N, int64_t K, const T* A, int64_t ars, int64_t acs, const T* B, int64_t brs,
                int64_t bcs, T* C, int64_t ldc, const T* bias, T beta) {
  if constexpr (std::is_same_v<T, float>) {
    GemmParams p;
    p.bias = bias;
    p.beta = beta;
    std::vector<float> a_copy, b_copy;
    if (!((acs == 1 || K == 1) && (M <= 1 || ars >= K))) {
      pack_rows(M, K, A, ars, acs, a_copy);
      A = a_copy.data();
      ars = K;
    }
    const size_t lda = static_cast<size_t>(M <= 1 ? K : ars);
    if ((bcs == 1 || N == 1) && (K <= 1 || brs >= N)) {
      f32_gemm(M, N, K, A, lda, B, static_cast<size_t>(K <= 1 ? N : brs), C, ldc, p);
    } else if ((brs == 1 || K == 1) && (N <= 1 || bcs >= K)) {
      f32_gemm_bt(M, N, K, A, lda, B, static_cast<size_t>(N <= 1 ? K : bcs), C, ldc, p);
    } else {
      pack_rows(K, N, B, brs, bcs, b_copy);
      f32_gemm(M, N, K, A, lda, b_copy.data(), N, C, ldc, p);
    }
  } else {
    kernels::gemm_strided<T>(M, N, K, A, ars, acs, B, brs, bcs, C, ldc, bias, beta);
  }
}

template void gemm_views<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t, const float*, int64_t,
                                int64_t, float*, int64_t, const float*, float);
#define FX_GEMM_VIEWS(T)                                                                                         \
  template void gemm_views<T>(int64_t, int64_t, int64_t, const T*, int64_t, int64_t, const T*, int64_t, int64_t, T*, \
                              int64_t, const T*, T);
FX_GEMM_VIEWS(double)
FX_GEMM_VIEWS(int64_t)
FX_GEMM_VIEWS(int32_t)
FX_GEMM_VIEWS(int16_t)
FX_GEMM_VIEWS(int8_t)
FX_GEMM_VIEWS(uint8_t)
#undef FX_GEMM_VIEWS

namespace {

// The dtypes torch's CPU matrix products take: floats and every integer type (products wrap as in C), not bool.
template <typename F>
void dispatch_matmul(DType t, const char* op, F&& f) {
  if (t == DType::Bool) throw FxError(std::string("\"") + op + "\" not implemented for 'Bool'");
  dispatch_compute(t, op, [&](auto tag) {
    if constexpr (!std::is_same_v<decltype(tag), bool>) f(tag);
  });
}

// A 1-D tensor seen as a matrix: [1, K] (row) or [K, 1] (column), as a view.
Tensor as_matrix(const Tensor& v, bool row) {
  const int64_t n = v.shape()[0], s = v.strides()[0];
  return row ? Tensor(v.storage(), v.dtype(), {1, n}, {n * s, s}, v.offset())
             : Tensor(v.storage(), v.dtype(), {n, 1}, {s, 1}, v.offset());
}

const char* torch_name(DType t) {
  switch (t) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Int64: return "long int";
    case DType::Int32: return "int";
    default: return dtype_name(t);
  }
}

// One matrix product per batch index. The products are independent, so with several kernel threads they
// are shared out by batch index (attention's heads: a decoding step's few-row products each stream one
// head's keys or values, too little to split on its own) — each product computed the same way whatever
// the split, so results do not depend on the thread count.
template <typename T>
void batched(const Tensor& a, const Tensor& b, const Shape& batch, Tensor& out) {
  const int64_t nb = static_cast<int64_t>(batch.size());
  const int64_t M = a.shape()[a.dim() - 2], K = a.shape()[a.dim() - 1], N = b.shape()[b.dim() - 1];
  Shape ea = batch, eb = batch;
  ea.push_back(M), ea.push_back(K);
  eb.push_back(K), eb.push_back(N);
  const Shape sa = broadcast_strides(a, ea), sb = broadcast_strides(b, eb);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* pc = out.data<T>();
  int64_t count = 1;
  for (int64_t d : batch) count *= d;
  auto products = [&](size_t i0, size_t i1) {
    for (size_t i = i0; i < i1; ++i) {
      int64_t oa = 0, ob = 0, rest = static_cast<int64_t>(i);
      for (int64_t d = nb - 1; d >= 0; --d) {
        const int64_t idx = rest % batch[d];
        rest /= batch[d];
        oa += idx * sa[d], ob += idx * sb[d];
      }
      gemm_views<T>(M, N, K, pa + oa, sa[nb], sa[nb + 1], pb + ob, sb[nb], sb[nb + 1], pc + i * M * N, N);
    }
  };
  const double each = double(M) * double(N) * double(K), each_streamed = double(K) * double(N) * sizeof(T);
  const bool each_splits = kernels::worth_parallel(each) || kernels::worth_parallel_stream(each_streamed);
  const int threads = kernels::num_threads();
  // By batch index when the products are too small to split on their own, or many enough to keep every
  // thread busy; otherwise each product splits itself (gemm_views).
  if (count > 1 && threads > 1 && (!each_splits || count >= threads) &&
      (kernels::worth_parallel(each * double(count)) || kernels::worth_parallel_stream(each_streamed * double(count))))
    kernels::parallel_for(static_cast<size_t>(count), products, 1);
  else
    products(0, static_cast<size_t>(count));
}

// A complex product from four real ones on the parts' strided views (the float GEMM does the work):
// (Ar + i·Ai)(Br + i·Bi) = (Ar·Br − Ai·Bi) + i·(Ar·Bi + Ai·Br).
Tensor complex_matmul(const Tensor& a, const Tensor& b, const char* op) {
  const Tensor pa = view_as_real(a), pb = view_as_real(b);
  auto part = [](const Tensor& p, int64_t i) { return select_view(p, -1, i); };
  auto mm = [&](const Tensor& x, const Tensor& y) { return matmul_tensor(x, y, op); };
  const OpRegistry& r = OpRegistry::global();
  const Object re = r.call("torch.sub", {Object(mm(part(pa, 0), part(pb, 0))), Object(mm(part(pa, 1), part(pb, 1)))});
  const Object im = r.call("torch.add", {Object(mm(part(pa, 0), part(pb, 1))), Object(mm(part(pa, 1), part(pb, 0)))});
  return complex_from_parts(re.tensor(), im.tensor(), op);
}

}  // namespace

Tensor matmul_tensor(const Tensor& a0, const Tensor& b0, const char* bool_op) {
  if (a0.dim() == 0 || b0.dim() == 0)
    throw FxError("both arguments to matmul need to be at least 1D, but they are " + std::to_string(a0.dim()) +
                  "D and " + std::to_string(b0.dim()) + "D");
  if (a0.dtype() != b0.dtype())
    throw FxError(std::string("expected m1 and m2 to have the same dtype, but got: ") + torch_name(a0.dtype()) +
                  " != " + torch_name(b0.dtype()));
  if (dtype_is_complex(a0.dtype())) return complex_matmul(a0, b0, bool_op);
  const DType original = a0.dtype();
  const DType kdt = compute_dtype(original);
  if (kdt == DType::Bool) throw FxError(std::string("\"") + bool_op + "\" not implemented for 'Bool'");
  Tensor a = to_dtype(a0, kdt), b = to_dtype(b0, kdt);
  if (a.dim() == 1 && b.dim() == 1 && a.shape()[0] != b.shape()[0])
    throw FxError("inconsistent tensor size, expected tensor [" + std::to_string(a.shape()[0]) + "] and src [" +
                  std::to_string(b.shape()[0]) + "] to have the same number of elements, but got " +
                  std::to_string(a.shape()[0]) + " and " + std::to_string(b.shape()[0]) + " elements respectively");
  const bool a_vec = a.dim() == 1, b_vec = b.dim() == 1;
  if (a_vec) a = as_matrix(a, true);
  if (b_vec) b = as_matrix(b, false);
  const int64_t M = a.shape()[a.dim() - 2], K = a.shape()[a.dim() - 1];
  const int64_t K2 = b.shape()[b.dim() - 2], N = b.shape()[b.dim() - 1];
  if (K != K2) {
    throw FxError("mm: mat1 and mat2 shapes cannot be multiplied (" + std::to_string(M) + "x" +
                  std::to_string(K) + " and " + std::to_string(K2) + "x" + std::to_string(N) + ")");
  }
  Shape batch_a(a.shape().begin(), a.shape().end() - 2), batch_b(b.shape().begin(), b.shape().end() - 2);
  // A batch of rows against one matrix: fold the batch into M (one GEMM, the Linear-on-3D case).
  if (batch_b.empty() && !batch_a.empty()) {
    a = a.contiguous();
    int64_t rows = 1;
    for (int64_t d : batch_a) rows *= d;
    a = view_as_shape(a, {rows * M, K});
    batch_a.clear();
    Tensor flat = matmul_tensor(a, b, bool_op);
    Shape shape(a0.shape().begin(), a0.shape().end() - 1);
    if (!b_vec) shape.push_back(N);
    return restore_dtype(view_as_shape(flat, shape), original);
  }
  const Shape batch = broadcast_shapes(batch_a, batch_b);
  Shape out_shape = batch;
  out_shape.push_back(M), out_shape.push_back(N);
  Tensor out = Tensor::empty(out_shape, kdt);
  dispatch_matmul(kdt, "addmm_impl_cpu_", [&](auto tag) { batched<decltype(tag)>(a, b, batch, out); });
  Shape final_shape = batch;
  if (!a_vec) final_shape.push_back(M);
  if (!b_vec) final_shape.push_back(N);
  return restore_dtype(view_as_shape(out, final_shape), original);
}

Tensor linear_tensor(const Tensor& x0, const Tensor& w0, const Tensor* bias0) {
  if (w0.dim() != 2 && w0.dim() != 1) throw FxError("linear(): weight must be 1-D or 2-D");
  // A quantized weight: its own GEMM (ops/math/linear_quantized.h), when PackedLinear takes the call.
  if (const QuantizedWeight* q = quantized_of(w0);
      q && has_quantized_gemm(*q) && x0.dtype() == DType::Float32 && x0.dim() >= 1 &&
      (!bias0 || !bias0->defined() || (bias0->dtype() == DType::Float32 && bias0->dim() == 1 && bias0->numel() == w0.shape()[0])))
    return PackedLinear::pack(w0, bias0).run(x0, w0);
  if (x0.dtype() != w0.dtype())
    throw FxError(std::string("mat1 and mat2 must have the same dtype, but got ") + torch_name(x0.dtype()) +
                  " and " + torch_name(w0.dtype()));
  const DType original = x0.dtype();
  const DType kdt = compute_dtype(original);
  Tensor x = to_dtype(x0, kdt), w = to_dtype(w0, kdt);
  if (x.dim() == 0) throw FxError("both arguments to linear need to be at least 1D, but they are 0D and " +
                                  std::to_string(w.dim()) + "D");
  const int64_t K = x.shape().back();
  const int64_t N = w.dim() == 2 ? w.shape()[0] : 1;
  const int64_t WK = w.shape().back();
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.shape()[d];
  if (WK != K)
    throw FxError("mm: mat1 and mat2 shapes cannot be multiplied (" + std::to_string(rows) + "x" + std::to_string(K) +
                  " and " + std::to_string(WK) + "x" + std::to_string(N) + ")");
  Tensor bias;
  if (bias0 && bias0->defined()) {
    bias = to_dtype(*bias0, kdt);
    if (bias.numel() == N && bias.dim() <= 1) bias = bias.contiguous();
    else bias = Tensor();  // a bias that broadcasts some other way is added below
  }
  x = x.contiguous();
  Shape out_shape(x.shape().begin(), x.shape().end() - 1);
  if (w.dim() == 2) out_shape.push_back(N);
  Tensor out = Tensor::empty(out_shape, kdt);
  const int64_t wrs = w.dim() == 2 ? w.strides()[0] : 0, wcs = w.strides().back();
  dispatch_matmul(kdt, "addmm_impl_cpu_", [&](auto tag) {
    using T = decltype(tag);
    // out = x · wᵀ: B = wᵀ has element (k, n) at w[n, k].
    gemm_views<T>(rows, N, K, x.data<T>(), K, 1, w.data<T>(), wcs, wrs, out.data<T>(), N,
                  bias.defined() ? bias.data<T>() : nullptr);
  });
  if (bias0 && bias0->defined() && !bias.defined()) {
    Tensor b = to_dtype(*bias0, kdt);
    Tensor sum = Tensor::empty(broadcast_shapes(out.shape(), b.shape()), kdt);
    dispatch_matmul(kdt, "add", [&](auto tag) {
      using T = decltype(tag);
      Tensor eo = expand_to(out, sum.shape()).contiguous(), eb = expand_to(b, sum.shape()).contiguous();
      for (int64_t i = 0; i < sum.numel(); ++i) sum.data<T>()[i] = eo.data<T>()[i] + eb.data<T>()[i];
    });
    out = sum;
  }
  return restore_dtype(out, original);
}

PackedLinear PackedLinear::pack(const Tensor& weight, const Tensor* bias) {
  FX_CHECK(weight.dim() == 2, "Linear weight must be 2-D, got " + shape_to_string(weight.shape()));
  PackedLinear p;
  p.N = weight.shape()[0];
  p.K = weight.shape()[1];
  Tensor w;
  if (const QuantizedWeight* q = quantized_of(weight); q && has_quantized_gemm(*q)) {
    p.quantized = weight.storage()->quantized_source();  // read as stored: no float32 copy, no packing
  } else if (w = to_dtype(weight, DType::Float32).contiguous(); p.K >= kLinearPackMaxK) {
    if (w.storage() != weight.storage()) p.converted = w;  // else read where it is
  } else {
    p.packed = Tensor::empty({static_cast<int64_t>(f32_gemm_packed_b_size(p.K, p.N))}, DType::Float32);
    f32_gemm_pack_bt(p.K, p.N, w.data<float>(), p.K, p.packed.data<float>());
  }
  if (bias && bias->defined()) {
    FX_CHECK(bias->numel() == p.N, "Linear bias must have " + std::to_string(p.N) + " values");
    p.bias = to_dtype(*bias, DType::Float32).contiguous();
  }
  return p;
}

void PackedLinear::gemm(int64_t rows, const float* x, const Tensor& weight, float* out,
                        const GemmParams& epilogue) const {
  const size_t m = static_cast<size_t>(rows), n = static_cast<size_t>(N), k = static_cast<size_t>(K);
  if (quantized) return quantized_linear_gemm(*quantized, rows, x, out, epilogue);
  if (packed.defined()) return f32_gemm_prepacked(m, n, k, x, k, packed.data<float>(), out, n, epilogue);
  const Tensor& w = converted.defined() ? converted : weight;
  FX_CHECK(w.dtype() == DType::Float32 && w.is_contiguous() && w.dim() == 2 && w.shape()[0] == N &&
               w.shape()[1] == K,
           "PackedLinear: the weight given to run is not the one it was prepared from");
  f32_gemm_bt_inplace(m, n, k, x, k, w.data<float>(), k, out, n, epilogue);
}

Tensor PackedLinear::run(const Tensor& x0, const Tensor& weight, const GemmParams& epilogue) const {
  if (x0.dim() == 0 || x0.shape().back() != K)
    throw FxError("mat1 and mat2 shapes cannot be multiplied (input " + shape_to_string(x0.shape()) +
                  ", weight " + std::to_string(N) + "x" + std::to_string(K) + ")");
  Tensor x = to_dtype(x0, DType::Float32).contiguous();
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.shape()[d];
  Shape out_shape(x.shape().begin(), x.shape().end() - 1);
  out_shape.push_back(N);
  Tensor out = Tensor::empty(out_shape, DType::Float32);
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  GemmParams p = epilogue;
  p.bias = bias.defined() ? bias.data<float>() : nullptr;
  p.beta = 0.0f;
  gemm(rows, x.data<float>(), weight, out.data<float>(), p);
  return out;
}

}  // namespace fx
