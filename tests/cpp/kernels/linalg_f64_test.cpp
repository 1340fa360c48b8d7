#include "kernels/linalg_f64.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace fx::linalg {
namespace {

// Deterministic test matrices with entries in [-1, 1].
std::vector<double> matrix(int64_t m, int64_t n, double seed) {
  std::vector<double> a(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m * n; ++i) a[i] = std::sin(seed + 1.7 * static_cast<double>(i) + 0.3 * i * i);
  return a;
}

std::vector<double> mul(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t k, int64_t n) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

void expect_close(const std::vector<double>& x, const std::vector<double>& y, double tol) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], tol) << "at " << i;
}

// P A = L U for square, tall and wide matrices; the pivots are LAPACK's (largest |a| in the column, first on ties).
TEST(LinalgF64, LuFactorReconstructsAndPivotsAsLapack) {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{5, 5}, {7, 4}, {3, 6}, {1, 1}}) {
    const std::vector<double> a = matrix(m, n, 0.5 * m + n);
    std::vector<double> lu = a;
    std::vector<int32_t> piv(static_cast<size_t>(std::min(m, n)));
    EXPECT_EQ(lu_factor(lu.data(), m, n, piv.data()), 0);
    const int64_t k = std::min(m, n);
    std::vector<double> l(static_cast<size_t>(m * k), 0.0), u(static_cast<size_t>(k * n), 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < k; ++j) l[i * k + j] = i == j ? 1.0 : i > j ? lu[i * n + j] : 0.0;
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = i; j < n; ++j) u[i * n + j] = lu[i * n + j];
    std::vector<double> pa = a;
    for (int64_t i = 0; i < k; ++i)
      for (int64_t c = 0; c < n; ++c) std::swap(pa[i * n + c], pa[(piv[i] - 1) * n + c]);
    expect_close(mul(l, u, m, k, n), pa, 1e-12);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < k; ++j) EXPECT_LE(std::fabs(l[i * k + j]), 1.0 + 1e-15);
  }
  std::vector<double> singular = {1, 2, 2, 4};
  std::vector<int32_t> piv(2);
  EXPECT_EQ(lu_factor(singular.data(), 2, 2, piv.data()), 2);
}

TEST(LinalgF64, SolvesMatchTheirEquations) {
  const int64_t n = 6, k = 3;
  std::vector<double> a = matrix(n, n, 1.0);
  for (int64_t i = 0; i < n; ++i) a[i * n + i] += 4;  // well conditioned
  const std::vector<double> b = matrix(n, k, 2.0);
  std::vector<double> lu = a, x = b;
  std::vector<int32_t> piv(static_cast<size_t>(n));
  lu_factor(lu.data(), n, n, piv.data());
  lu_solve(lu.data(), piv.data(), n, x.data(), k);
  expect_close(mul(a, x, n, n, k), b, 1e-12);
  std::vector<double> at(static_cast<size_t>(n * n)), xt = b;  // Aᵀ X = B from the same factors
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) at[i * n + j] = a[j * n + i];
  lu_solve(lu.data(), piv.data(), n, xt.data(), k, true);
  expect_close(mul(at, xt, n, n, k), b, 1e-12);
  // triangular solves, all four forms
  for (bool upper : {false, true})
    for (bool transpose : {false, true}) {
      std::vector<double> t = a;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          if (upper ? j < i : j > i) t[i * n + j] = 0;
      std::vector<double> y = b;
      triangular_solve(t.data(), n, upper, transpose, false, y.data(), k);
      std::vector<double> tt = t;
      if (transpose)
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j) tt[i * n + j] = t[j * n + i];
      expect_close(mul(tt, y, n, n, k), b, 1e-12);
    }
}

TEST(LinalgF64, CholeskyOfAGramMatrix) {
  const int64_t n = 5;
  const std::vector<double> g = matrix(n, n, 3.0);
  std::vector<double> gt(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) gt[i * n + j] = g[j * n + i];
  std::vector<double> a = mul(g, gt, n, n, n);
  for (int64_t i = 0; i < n; ++i) a[i * n + i] += 0.5;
  std::vector<double> l = a;
  ASSERT_EQ(cholesky(l.data(), n), 0);
  std::vector<double> lt(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) lt[i * n + j] = l[j * n + i];
  expect_close(mul(l, lt, n, n, n), a, 1e-12);
  std::vector<double> not_pd = {1, 2, 2, 1};
  EXPECT_EQ(cholesky(not_pd.data(), 2), 2);
}

// Q R = A with Q = H_1 … H_k applied to the identity; R's diagonal has LAPACK's signs (β = -sign(α)‖x‖).
TEST(LinalgF64, HouseholderQrReconstructs) {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{5, 5}, {6, 3}, {3, 5}}) {
    const std::vector<double> a = matrix(m, n, 0.25 * m);
    std::vector<double> qr = a, tau(static_cast<size_t>(std::min(m, n)));
    geqrf(qr.data(), m, n, tau.data());
    const int64_t k = std::min(m, n);
    EXPECT_LT(qr[0] * a[0], 0.0);  // R[0][0] has the opposite sign of A[0][0]
    std::vector<double> q(static_cast<size_t>(m * m), 0.0), r(static_cast<size_t>(m * n), 0.0);
    for (int64_t i = 0; i < m; ++i) q[i * m + i] = 1;
    apply_householder(qr.data(), m, k, n, tau.data(), q.data(), m, m, true, false);
    for (int64_t i = 0; i < std::min(m, k); ++i)
      for (int64_t j = i; j < n; ++j) r[i * n + j] = qr[i * n + j];
    expect_close(mul(q, r, m, m, n), a, 1e-12);
    // Qᵀ Q = I
    std::vector<double> qt = q;
    apply_householder(qr.data(), m, k, n, tau.data(), qt.data(), m, m, true, true);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j) EXPECT_NEAR(qt[i * m + j], i == j ? 1.0 : 0.0, 1e-12);
  }
}

TEST(LinalgF64, SvdReconstructsWithDescendingValues) {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{4, 4}, {6, 3}, {2, 5}}) {
    const std::vector<double> a = matrix(m, n, 0.1 * n);
    const int64_t r = std::min(m, n);
    std::vector<double> s(static_cast<size_t>(r)), u(static_cast<size_t>(m * r)), vt(static_cast<size_t>(r * n));
    svd(a.data(), m, n, s.data(), u.data(), vt.data());
    for (int64_t i = 1; i < r; ++i) EXPECT_GE(s[i - 1], s[i]);
    std::vector<double> us = u;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < r; ++j) us[i * r + j] *= s[j];
    expect_close(mul(us, vt, m, r, n), a, 1e-12);
  }
}

TEST(LinalgF64, SymmetricEigenVectorsDiagonalise) {
  const int64_t n = 5;
  std::vector<double> a = matrix(n, n, 4.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < i; ++j) a[j * n + i] = a[i * n + j];
  std::vector<double> w(static_cast<size_t>(n)), v(static_cast<size_t>(n * n));
  symmetric_eigen(a.data(), n, w.data(), v.data());
  std::vector<double> vw = v;  // A V = V diag(w)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) vw[i * n + j] *= w[j];
  expect_close(mul(a, v, n, n, n), vw, 1e-12);
}

TEST(LinalgF64, SymmetricEigenvaluesAscending) {
  // [[2, 1], [1, 2]] has eigenvalues 1 and 3; a diagonal matrix its diagonal, sorted
  const double a[] = {2, 1, 1, 2};
  double w[2];
  symmetric_eigen(a, 2, w, nullptr);
  EXPECT_NEAR(w[0], 1.0, 1e-14);
  EXPECT_NEAR(w[1], 3.0, 1e-14);
  const double d[] = {5, 0, 0, 0, -1, 0, 0, 0, 2};
  double e[3];
  symmetric_eigen(d, 3, e, nullptr);
  EXPECT_EQ(e[0], -1.0);
  EXPECT_EQ(e[1], 2.0);
  EXPECT_EQ(e[2], 5.0);
}

// exp([[a, b], [-b, a]]) = e^a [[cos b, sin b], [-sin b, cos b]]: norms |a| + |b| that take each Padé degree
// (3, 5, 7, 9, 13) and the scaled-and-squared path.
TEST(LinalgF64, MatrixExpOfRotationGeneratorsAtEveryDegree) {
  const double cases[][2] = {{0.004, 0.005}, {0.1, -0.12}, {-0.4, 0.5}, {1.0, 1.05}, {-2.0, 3.0}, {2.0, 10.0}, {0, 40}};
  for (const auto& c : cases) {
    const double a = c[0], b = c[1];
    const double m[] = {a, b, -b, a};
    std::vector<double> e(4);
    matrix_exp(m, 2, e.data());
    const double g = std::exp(a);
    const std::vector<double> want = {g * std::cos(b), g * std::sin(b), -g * std::sin(b), g * std::cos(b)};
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(e[i], want[i], 1e-13 * g * (1 + std::fabs(b))) << a << ", " << b;
  }
}

// A nilpotent matrix's exponential is its finite series; exp(A) exp(-A) = I for a dense one; NaN and inf
// give NaNs; a 0×0 matrix writes nothing.
TEST(LinalgF64, MatrixExpSeriesInverseAndNonFinite) {
  const double n[] = {0, 2, 3, 0, 0, 4, 0, 0, 0};  // N² = [[0, 0, 8], 0, 0], N³ = 0
  std::vector<double> e(9);
  matrix_exp(n, 3, e.data());
  expect_close(e, {1, 2, 3 + 4, 0, 1, 4, 0, 0, 1}, 1e-14);
  const int64_t k = 5;
  std::vector<double> a = matrix(k, k, 0.4), neg(a.size()), ea(a.size()), eneg(a.size());
  for (double& v : a) v *= 1.5;
  for (size_t i = 0; i < a.size(); ++i) neg[i] = -a[i];
  matrix_exp(a.data(), k, ea.data());
  matrix_exp(neg.data(), k, eneg.data());
  std::vector<double> eye(static_cast<size_t>(k * k), 0.0);
  for (int64_t i = 0; i < k; ++i) eye[i * k + i] = 1.0;
  expect_close(mul(ea, eneg, k, k, k), eye, 1e-11);
  const double bad[] = {1, NAN, 0, 1};
  double out[4];
  matrix_exp(bad, 2, out);
  for (double v : out) EXPECT_TRUE(std::isnan(v));
  matrix_exp(nullptr, 0, nullptr);
}

}  // namespace
}  // namespace fx::linalg
