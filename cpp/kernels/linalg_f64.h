// A small dense linear-algebra core in double precision, on row-major matrices given by pointer and sizes:
// LU with partial pivoting, Cholesky, triangular solves, Householder QR with LAPACK's conventions (so that
// geqrf's reflectors and tau, and hence Q and R, are the ones torch's LAPACK gives), singular values by
// one-sided Jacobi, symmetric eigenvalues by Jacobi rotations, and the matrix exponential. Ops
// (ops/linalg/) compute float32 through these and round once, so a float32 result is at least as accurate
// as torch's own.
//
// Written here rather than linked: a LAPACK (or Eigen) build is hundreds of KB of wasm for a handful of
// routines that are each a few dozen lines for the small matrices models and tests use; and the few that
// matter here must follow LAPACK's conventions exactly (pivot choice, reflector signs), which is easiest
// to see in code of our own. No blocking: O(n³) loops, fine up to a few hundred rows.
#pragma once
#include <cstdint>

namespace fx::linalg {

// P A = L U of an m×n matrix, in place (L unit lower below the diagonal, U on and above), LAPACK getrf:
// the pivot of column j is the first row of largest |a_ij| at or below j. piv[j] is the 1-based row swapped
// with row j (min(m, n) of them). Returns 0, or the 1-based index of the first exactly zero pivot.
int64_t lu_factor(double* a, int64_t m, int64_t n, int32_t* piv);

// Solves A X = B (or Aᵀ X = B) in place for B (n×k), A n×n given by lu_factor.
void lu_solve(const double* lu, const int32_t* piv, int64_t n, double* b, int64_t k, bool transpose = false);

// A = L Lᵀ for symmetric positive-definite A (n×n): L written to the lower triangle, zeros above. Returns
// 0, or the 1-based order of the leading minor that is not positive definite (a is then incomplete).
int64_t cholesky(double* a, int64_t n);

// Solves op(A) X = B in place for B (n×k), A n×n triangular (upper or lower; unit: ones on the diagonal
// assumed, the stored diagonal not read), op(A) = A or Aᵀ.
void triangular_solve(const double* a, int64_t n, bool upper, bool transpose, bool unit, double* b, int64_t k);

// Householder QR of an m×n matrix in place (LAPACK geqrf): R on and above the diagonal, the reflectors'
// tails below, tau[min(m, n)]. H_i = I - tau_i v vᵀ with v = (0…0, 1, a[i+1.., i]); β = -sign(α)‖x‖.
void geqrf(double* a, int64_t m, int64_t n, double* tau);

// C (cm×cn) ← op(Q) C (left) or C op(Q) (right), Q = H_1 … H_k from geqrf's reflectors in the columns of
// `a` (rows × k, row stride lda), op(Q) = Q or Qᵀ (LAPACK ormqr).
void apply_householder(const double* a, int64_t rows, int64_t k, int64_t lda, const double* tau, double* c,
                       int64_t cm, int64_t cn, bool left, bool transpose);

// Singular values of an m×n matrix, descending (min(m, n) of them), by one-sided Jacobi rotations.
// With u and vt: the thin factors A = U diag(s) Vᵀ, u m×r and vt r×n, r = min(m, n).
void svd(const double* a, int64_t m, int64_t n, double* s, double* u, double* vt);

// Eigenvalues of a symmetric n×n matrix (the whole matrix is read), ascending, by cyclic Jacobi rotations;
// with v, the eigenvectors as its columns (n×n), in the same order.
void symmetric_eigen(const double* a, int64_t n, double* w, double* v);

// exp(A) of an n×n matrix into out (n×n), by scaling and squaring with a Padé approximant of degree 3, 5,
// 7, 9 or 13 chosen by A's 1-norm (Higham 2005, as scipy.linalg.expm). A holding inf or NaN gives NaNs.
void matrix_exp(const double* a, int64_t n, double* out);

}  // namespace fx::linalg
