// Matrix products shared by the op files and the leaf modules: torch.matmul's semantics, Linear, and
// Linear with its weight packed once for the f32 GEMM (modules pack at bind time).
#pragma once
#include <cstdint>

#include "kernels/gemm_f32.h"
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

// A float32 weight [N, K] (Linear's layout) packed for f32_gemm_prepacked.
struct PackedLinear {
  int64_t N = 0, K = 0;
  Tensor packed;  // float32, f32_gemm_packed_b_size(K, N) values
  Tensor bias;    // float32 [N] or undefined
  static PackedLinear pack(const Tensor& weight, const Tensor* bias);
  // x [..., K] float32 → [..., N]; clamp bounds fuse an activation.
  Tensor run(const Tensor& x, const GemmParams& epilogue = {}) const;
};

}  // namespace fx
