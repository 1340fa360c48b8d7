#include "kernels/linalg_f64.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace fx::linalg {

int64_t lu_factor(double* a, int64_t m, int64_t n, int32_t* piv) {
  const int64_t k = std::min(m, n);
  int64_t info = 0;
  for (int64_t j = 0; j < k; ++j) {
    int64_t p = j;
    double best = std::fabs(a[j * n + j]);
    for (int64_t i = j + 1; i < m; ++i) {
      const double v = std::fabs(a[i * n + j]);
      if (v > best || (best != best)) best = v, p = i;  // (a NaN column: LAPACK's idamax takes the first)
    }
    piv[j] = static_cast<int32_t>(p + 1);
    if (p != j)
      for (int64_t c = 0; c < n; ++c) std::swap(a[j * n + c], a[p * n + c]);
    const double d = a[j * n + j];
    if (d == 0) {
      if (info == 0) info = j + 1;
      continue;  // (LAPACK goes on with the next column, leaving this one unscaled)
    }
    for (int64_t i = j + 1; i < m; ++i) {
      const double l = a[i * n + j] / d;
      a[i * n + j] = l;
      if (l != 0)
        for (int64_t c = j + 1; c < n; ++c) a[i * n + c] -= l * a[j * n + c];
    }
  }
  return info;
}

void lu_solve(const double* lu, const int32_t* piv, int64_t n, double* b, int64_t k, bool transpose) {
  auto swap_rows = [&](int64_t i) {
    const int64_t p = piv[i] - 1;
    if (p != i)
      for (int64_t c = 0; c < k; ++c) std::swap(b[i * k + c], b[p * k + c]);
  };
  if (!transpose) {  // L U X = P B
    for (int64_t i = 0; i < n; ++i) swap_rows(i);
    triangular_solve(lu, n, false, false, true, b, k);
    triangular_solve(lu, n, true, false, false, b, k);
    return;
  }
  // Aᵀ = Uᵀ Lᵀ P: Uᵀ Y = B, Lᵀ Z = Y, X = Pᵀ Z (the swaps undone in reverse order)
  triangular_solve(lu, n, true, true, false, b, k);
  triangular_solve(lu, n, false, true, true, b, k);
  for (int64_t i = n; i-- > 0;) swap_rows(i);
}

int64_t cholesky(double* a, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int64_t c = 0; c < j; ++c) d -= a[j * n + c] * a[j * n + c];
    if (!(d > 0)) return j + 1;
    d = std::sqrt(d);
    a[j * n + j] = d;
    for (int64_t i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (int64_t c = 0; c < j; ++c) v -= a[i * n + c] * a[j * n + c];
      a[i * n + j] = v / d;
    }
    for (int64_t c = j + 1; c < n; ++c) a[j * n + c] = 0;
  }
  return 0;
}

void triangular_solve(const double* a, int64_t n, bool upper, bool transpose, bool unit, double* b, int64_t k) {
  // op(A) is lower triangular when (lower, no transpose) or (upper, transpose): forward substitution
  const bool forward = upper == transpose;
  auto at = [&](int64_t i, int64_t j) { return transpose ? a[j * n + i] : a[i * n + j]; };
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = forward ? step : n - 1 - step;
    for (int64_t c = 0; c < k; ++c) {
      double v = b[i * k + c];
      if (forward)
        for (int64_t j = 0; j < i; ++j) v -= at(i, j) * b[j * k + c];
      else
        for (int64_t j = i + 1; j < n; ++j) v -= at(i, j) * b[j * k + c];
      b[i * k + c] = unit ? v : v / at(i, i);
    }
  }
}

void geqrf(double* a, int64_t m, int64_t n, double* tau) {
  const int64_t k = std::min(m, n);
  for (int64_t i = 0; i < k; ++i) {
    // the reflector of x = a[i.., i]: β = -sign(α)‖x‖, v = x[1..] / (α - β), τ = (β - α) / β (LAPACK dlarfg)
    const double alpha = a[i * n + i];
    double xnorm = 0;
    for (int64_t r = i + 1; r < m; ++r) xnorm = std::hypot(xnorm, a[r * n + i]);
    if (xnorm == 0) {
      tau[i] = 0;
      continue;
    }
    const double beta = -std::copysign(std::hypot(alpha, xnorm), alpha);
    tau[i] = (beta - alpha) / beta;
    const double scale = 1 / (alpha - beta);
    for (int64_t r = i + 1; r < m; ++r) a[r * n + i] *= scale;
    a[i * n + i] = beta;
    // the rest of the columns: A ← (I - τ v vᵀ) A
    for (int64_t c = i + 1; c < n; ++c) {
      double dot = a[i * n + c];
      for (int64_t r = i + 1; r < m; ++r) dot += a[r * n + i] * a[r * n + c];
      dot *= tau[i];
      a[i * n + c] -= dot;
      for (int64_t r = i + 1; r < m; ++r) a[r * n + c] -= dot * a[r * n + i];
    }
  }
}

void apply_householder(const double* a, int64_t rows, int64_t k, int64_t lda, const double* tau, double* c,
                       int64_t cm, int64_t cn, bool left, bool transpose) {
  // Q = H_1 … H_k. Left: Q C applies H_k first, Qᵀ C H_1 first; right: C Q applies H_1 first, C Qᵀ H_k first.
  const bool ascending = left == transpose;
  for (int64_t step = 0; step < k; ++step) {
    const int64_t i = ascending ? step : k - 1 - step;
    const double t = tau[i];
    if (t == 0) continue;
    auto v = [&](int64_t r) { return r == i ? 1.0 : a[r * lda + i]; };  // v[r] for r >= i
    if (left) {  // C ← (I - τ v vᵀ) C over rows i..rows
      for (int64_t col = 0; col < cn; ++col) {
        double dot = 0;
        for (int64_t r = i; r < rows; ++r) dot += v(r) * c[r * cn + col];
        dot *= t;
        for (int64_t r = i; r < rows; ++r) c[r * cn + col] -= dot * v(r);
      }
    } else {  // C ← C (I - τ v vᵀ) over columns i..rows
      for (int64_t row = 0; row < cm; ++row) {
        double dot = 0;
        for (int64_t r = i; r < rows; ++r) dot += c[row * cn + r] * v(r);
        dot *= t;
        for (int64_t r = i; r < rows; ++r) c[row * cn + r] -= dot * v(r);
      }
    }
  }
}

void svd(const double* a, int64_t m, int64_t n, double* s, double* u, double* vt) {
  // Work on a tall matrix W (rows ≥ cols): A itself, or Aᵀ for a wide A (then U and V trade places).
  const bool wide = m < n;
  const int64_t rows = wide ? n : m, cols = wide ? m : n;
  std::vector<double> w(static_cast<size_t>(rows * cols)), v(static_cast<size_t>(cols * cols), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) w[i * cols + j] = wide ? a[j * n + i] : a[i * n + j];
  for (int64_t j = 0; j < cols; ++j) v[j * cols + j] = 1;
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < cols; ++p)
      for (int64_t q = p + 1; q < cols; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < rows; ++i) {
          const double x = w[i * cols + p], y = w[i * cols + q];
          alpha += x * x, beta += y * y, gamma += x * y;
        }
        if (gamma == 0 || std::fabs(gamma) <= 1e-15 * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), sn = c * t;
        for (int64_t i = 0; i < rows; ++i) {
          const double x = w[i * cols + p], y = w[i * cols + q];
          w[i * cols + p] = c * x - sn * y, w[i * cols + q] = sn * x + c * y;
        }
        for (int64_t i = 0; i < cols; ++i) {
          const double x = v[i * cols + p], y = v[i * cols + q];
          v[i * cols + p] = c * x - sn * y, v[i * cols + q] = sn * x + c * y;
        }
      }
    if (!rotated) break;
  }
  std::vector<double> norm(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j) {
    double ss = 0;
    for (int64_t i = 0; i < rows; ++i) ss += w[i * cols + j] * w[i * cols + j];
    norm[j] = std::sqrt(ss);
  }
  std::vector<int64_t> order(static_cast<size_t>(cols));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return norm[x] > norm[y]; });
  for (int64_t r = 0; r < cols; ++r) s[r] = norm[order[r]];
  if (!u || !vt) return;
  // tall: A = W_n Vᵀ with W_n = W / norms (U). wide: Aᵀ = W_n Vᵀ, so A = V W_nᵀ: U = V, Vᵀ = W_nᵀ.
  for (int64_t r = 0; r < cols; ++r) {
    const int64_t j = order[r];
    const double inv = norm[j] > 0 ? 1 / norm[j] : 0;
    for (int64_t i = 0; i < rows; ++i) {
      const double wn = w[i * cols + j] * inv;
      if (wide) vt[r * n + i] = wn;
      else u[i * cols + r] = wn;
    }
    for (int64_t i = 0; i < cols; ++i) {
      if (wide) u[i * cols + r] = v[i * cols + j];
      else vt[r * n + i] = v[i * cols + j];
    }
  }
}

void symmetric_eigen(const double* a, int64_t n, double* w, double* vec) {
  std::vector<double> m(a, a + n * n), v;
  if (vec) {
    v.assign(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) v[i * n + i] = 1;
  }
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0, diag = 0;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = 0; q < n; ++q) (p == q ? diag : off) += m[p * n + q] * m[p * n + q];
    if (off <= 1e-30 * diag || off == 0) break;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {
        const double apq = m[p * n + q];
        if (apq == 0) continue;
        // the rotation that zeroes m[p][q]: tan θ = t, the smaller root of t² + 2τt - 1 = 0
        const double tau = (m[q * n + q] - m[p * n + p]) / (2 * apq);
        const double t = std::copysign(1.0, tau) / (std::fabs(tau) + std::sqrt(1 + tau * tau));
        const double c = 1 / std::sqrt(1 + t * t), s = t * c;
        for (int64_t k = 0; k < n; ++k) {  // columns p, q
          const double x = m[k * n + p], y = m[k * n + q];
          m[k * n + p] = c * x - s * y, m[k * n + q] = s * x + c * y;
        }
        for (int64_t k = 0; k < n; ++k) {  // rows p, q
          const double x = m[p * n + k], y = m[q * n + k];
          m[p * n + k] = c * x - s * y, m[q * n + k] = s * x + c * y;
        }
        if (vec)
          for (int64_t k = 0; k < n; ++k) {
            const double x = v[k * n + p], y = v[k * n + q];
            v[k * n + p] = c * x - s * y, v[k * n + q] = s * x + c * y;
          }
      }
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return m[x * n + x] < m[y * n + y]; });
  for (int64_t i = 0; i < n; ++i) {
    w[i] = m[order[i] * n + order[i]];
    if (vec)
      for (int64_t k = 0; k < n; ++k) vec[k * n + i] = v[k * n + order[i]];
  }
}

}  // namespace fx::linalg
