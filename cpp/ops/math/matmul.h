// Matrix products shared by the op files and the leaf modules: torch.matmul's semantics, Linear, and
// Linear with its weight packed once for the f32 GEMM (modules pack at bind time).
#pragma once
#include <cstdint>

#include <memory>

#include "kernels/gemm_f32.h"
#include "tensor/quantized.h"
#include "tensor/tensor.h"

namespace fx {

// C[M,N] (row stride ldc) = A·B + bias + beta·C for views A [M,K] and B [K,N] given by element strides.
// float32 runs the SIMD GEMM (copying an operand only when neither it nor its transpose is row-major);
// other dtypes (float64 and the integers) run the strided scalar loop. `bias` (N values) may be null.
template <typename T>
void gemm_views(int64_t M, int64_t N, int64_t K, const T* A, int64_t ars, int64_t acs, const T* B, int64_t brs,
                int64_t bcs, T* C, int64_t ldc, const T* bias = nullptr, T beta = T(0));

// torch.matmul on two tensors of one dtype (1-D, 2-D and batched with broadcasting): floats and integers;
// bool is refused naming `bool_op` as torch's kernel ("bmm" for bmm).
Tensor matmul_tensor(const Tensor& a, const Tensor& b, const char* bool_op = "addmm_impl_cpu_");
// x [..., K] @ weight[N, K].T + bias: F.linear.
Tensor linear_tensor(const Tensor& x, const Tensor& weight, const Tensor* bias);

// A float32 weight [N, K] (Linear's layout) prepared once for the GEMM. Below kLinearPackMaxK columns it
// is packed for f32_gemm_prepacked; from there on it is read where it is (f32_gemm_bt_inplace), so a
// model's large weights are not copied at load (the packed copy doubled a transformer's memory). The
// weight itself is not held here (a cache of these must not keep weights alive): callers pass it again.
constexpr int64_t kLinearPackMaxK = 512;
struct PackedLinear {
  int64_t N = 0, K = 0;
  Tensor packed;     // float32, f32_gemm_packed_b_size(K, N) values; undefined when read in place
  Tensor converted;  // read in place, and the given weight was not float32-contiguous: its float32 copy
  Tensor bias;       // float32 [N] or undefined
  std::shared_ptr<const QuantizedWeight> quantized;  // an int8/int4 weight: its GEMM (linear_quantized.h)
  static PackedLinear pack(const Tensor& weight, const Tensor* bias);
  // out [rows, N] (contiguous) = epilogue(x [rows, K] · weightᵀ); `weight` is the tensor given to pack().
  void gemm(int64_t rows, const float* x, const Tensor& weight, float* out, const GemmParams& epilogue) const;
  // x [..., K] float32 → [..., N] with the bias; clamp bounds fuse an activation.
  Tensor run(const Tensor& x, const Tensor& weight, const GemmParams& epilogue = {}) const;
};

}  // namespace fx
