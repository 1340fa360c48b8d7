// f32 matrix multiply on raw pointers: C[M,N] = clamp(A[M,K]·B[K,N] + bias + beta·C). The foundation of
// Linear, addmm/matmul and (through im2col) convolution. All matrices are row-major with explicit row strides
// (in elements), so views and sub-blocks need no copies.
//
// Weights are multiplied many times: pack them once with f32_gemm_pack_b / f32_gemm_pack_bt into panels
// the micro-kernel streams, then call f32_gemm_prepacked. f32_gemm / f32_gemm_bt pack B on the fly, one
// panel at a time, for operands that change every call (matmul of two activations).
#pragma once
#include <cstddef>
#include <limits>

namespace fx {

// What the kernel does after the products, in this order: + bias, + beta·C, clamp to [min, max].
struct GemmParams {
  const float* bias = nullptr;  // N values added to every row (Linear's bias), or none
  float beta = 0.0f;            // 0: C is write-only (never read, so it may hold garbage or NaN)
  // Fused activation: relu is min = 0, relu6 is [0, 6], hardtanh is [-1, 1]. NaN results pass through
  // unclamped, as torch.clamp does.
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
  // The int8 kernels only (gemm_q8_f32.h): A's values are known to be integer multiples of act_grid, as a
  // dequantised int8 activation's are (PyTorch 2 quantization: (q - zero_point) · scale); they then quantise
  // A with that scale, exactly, where its values fit their integer range. 0: nothing known.
  float act_grid = 0.0f;
};

// B is [K, N]: element (k, n) at B[k * ldb + n].
void f32_gemm(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B, size_t ldb,
              float* C, size_t ldc, const GemmParams& p = {});

// B given transposed, [N, K]: element (k, n) at Bt[n * ldbt + k] (Linear's weight, torch's x @ w.T). Up to
// 4 rows of A take dot products with Bt's rows, unpacked.
void f32_gemm_bt(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* Bt, size_t ldbt,
                 float* C, size_t ldc, const GemmParams& p = {});

// B given transposed and read where it lies, never packed or copied: a large weight used in place (Linear's
// [N, K] weight in the file's memory). Up to 4 rows of A take f32_gemm_bt's dot products; more compute
// Cᵀ = Bt·Aᵀ with Bt as the micro-kernel's left operand and A packed per call (M·K floats), then transpose
// Cᵀ into C through the epilogue — unless that pads A's rows more than f32_gemm_bt's row tiles would
// (17 rows: to 24, not 20), where f32_gemm_bt runs (packing Bt per call, not keeping it). Same results as
// the other entries up to rounding.
void f32_gemm_bt_inplace(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* Bt, size_t ldbt,
                         float* C, size_t ldc, const GemmParams& p = {});

// Prepacked B. The layout belongs to this build (panel width, padding): size it with
// f32_gemm_packed_b_size, fill it with a pack function, never read or write it otherwise.
size_t f32_gemm_packed_b_size(size_t K, size_t N);  // in floats
void f32_gemm_pack_b(size_t K, size_t N, const float* B, size_t ldb, float* packed);
void f32_gemm_pack_bt(size_t K, size_t N, const float* Bt, size_t ldbt, float* packed);
void f32_gemm_prepacked(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* packed_b,
                        float* C, size_t ldc, const GemmParams& p = {});

// The scalar reference every fast path is tested against: plain loops, double accumulation.
void f32_gemm_scalar(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B, size_t ldb,
                     bool b_transposed, float* C, size_t ldc, const GemmParams& p = {});

// Which micro-kernel the entries above run: "wasmsimd_4x8" or "generic_4x8".
const char* f32_gemm_ukernel_name();

}  // namespace fx
