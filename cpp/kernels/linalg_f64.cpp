#include "kernels/linalg_f64.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <utility>
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

namespace {

// c = a · b, all n×n.
void matmul_square(const double* a, const double* b, int64_t n, double* c) {
  std::fill(c, c + n * n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      const double x = a[i * n + k];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += x * b[k * n + j];
    }
}

// Σ_t coef[t] · terms[t] (n×n each) plus `diag` on the diagonal.
std::vector<double> combine(int64_t n, std::initializer_list<std::pair<double, const std::vector<double>*>> terms,
                            double diag) {
  std::vector<double> r(static_cast<size_t>(n * n), 0.0);
  for (const auto& t : terms)
    for (size_t i = 0; i < r.size(); ++i) r[i] += t.first * (*t.second)[i];
  for (int64_t i = 0; i < n; ++i) r[i * n + i] += diag;
  return r;
}

}  // namespace

void matrix_exp(const double* a, int64_t n, double* out) {
  const size_t nn = static_cast<size_t>(n * n);
  if (n == 0) return;
  double norm = 0.0;  // the 1-norm: the largest column sum of |a|
  for (int64_t j = 0; j < n; ++j) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) s += std::fabs(a[i * n + j]);
    norm = std::isnan(s) ? s : std::max(norm, s);
  }
  if (!std::isfinite(norm)) {
    std::fill(out, out + nn, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  // Higham's θ_m: the largest norm for which the degree-m approximant is accurate to double precision.
  static const double kTheta[] = {1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
                                  2.097847961257068e0, 5.371920351148152e0};
  static const double kB[5][14] = {
      {120, 60, 12, 1},
      {30240, 15120, 3360, 420, 30, 1},
      {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1},
      {17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960., 90., 1.},
      {64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
       10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.}};
  int degree = 0;
  while (degree < 4 && norm > kTheta[degree]) ++degree;
  int squarings = 0;
  std::vector<double> A(a, a + nn);
  if (degree == 4 && norm > kTheta[4]) {
    squarings = static_cast<int>(std::ceil(std::log2(norm / kTheta[4])));
    const double f = std::ldexp(1.0, -squarings);
    for (double& v : A) v *= f;
  }
  const double* b = kB[degree];
  // Even powers A², A⁴, … as far as the approximant reads them: m − 1 for degree m ≤ 9, A⁶ for 13.
  const int powers = degree < 4 ? 1 + degree : 3;
  std::vector<std::vector<double>> pw(static_cast<size_t>(powers), std::vector<double>(nn));
  matmul_square(A.data(), A.data(), n, pw[0].data());
  for (int k = 1; k < powers; ++k) matmul_square(pw[k - 1].data(), pw[0].data(), n, pw[k].data());
  std::vector<double> odd, V, tmp(nn), U(nn);  // U = A · odd
  if (degree < 4) {
    odd.assign(nn, 0.0);
    V.assign(nn, 0.0);
    for (int k = 0; k < powers; ++k)  // pw[k] = A^{2k+2}
      for (size_t i = 0; i < nn; ++i) odd[i] += b[2 * k + 3] * pw[k][i], V[i] += b[2 * k + 2] * pw[k][i];
    for (int64_t i = 0; i < n; ++i) odd[i * n + i] += b[1], V[i * n + i] += b[0];
  } else {
    const std::vector<double>& A2 = pw[0];
    const std::vector<double>& A4 = pw[1];
    const std::vector<double>& A6 = pw[2];
    const std::vector<double> hi_odd = combine(n, {{b[13], &A6}, {b[11], &A4}, {b[9], &A2}}, 0.0);
    matmul_square(A6.data(), hi_odd.data(), n, tmp.data());
    odd = combine(n, {{1.0, &tmp}, {b[7], &A6}, {b[5], &A4}, {b[3], &A2}}, b[1]);
    const std::vector<double> hi_even = combine(n, {{b[12], &A6}, {b[10], &A4}, {b[8], &A2}}, 0.0);
    matmul_square(A6.data(), hi_even.data(), n, tmp.data());
    V = combine(n, {{1.0, &tmp}, {b[6], &A6}, {b[4], &A4}, {b[2], &A2}}, b[0]);
  }
  matmul_square(A.data(), odd.data(), n, U.data());
  // r = (V − U)⁻¹ (V + U)
  std::vector<double> P(nn), Q(nn);
  for (size_t i = 0; i < nn; ++i) P[i] = V[i] + U[i], Q[i] = V[i] - U[i];
  std::vector<int32_t> piv(static_cast<size_t>(n));
  lu_factor(Q.data(), n, n, piv.data());
  lu_solve(Q.data(), piv.data(), n, P.data(), n);
  for (int s = 0; s < squarings; ++s) {
    matmul_square(P.data(), P.data(), n, tmp.data());
    P.swap(tmp);
  }
  std::copy(P.begin(), P.end(), out);
}

}  // namespace fx::linalg
