#include "kernels/special_math.h"

#include <cmath>
#include <limits>

namespace fx::special {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEuler = 0.57721566490153286061;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEps = 1.1102230246251565e-16;  // 2^-53

// Bernoulli numbers B_2, B_4, …, B_24 as exact fractions (numerator, denominator).
constexpr double kBernoulliNum[] = {1, -1, 1, -1, 5, -691, 7, -3617, 43867, -174611, 854513, -236364091};
constexpr double kBernoulliDen[] = {6, 30, 42, 30, 66, 2730, 6, 510, 798, 330, 138, 2730};

double bernoulli(int k) { return kBernoulliNum[k - 1] / kBernoulliDen[k - 1]; }  // B_{2k}, k = 1..12

}  // namespace

double digamma(double x) {
  if (x == 0) return std::signbit(x) ? kInf : -kInf;
  if (std::isnan(x)) return x;
  double result = 0;
  if (x < 0) {
    if (x == std::floor(x)) return kNaN;
    // ψ(x) = ψ(1 - x) - π / tan(πx); tan has period 1, so take x's fractional part for accuracy
    const double r = x - std::trunc(x);
    result = -kPi / std::tan(kPi * r);
    x = 1 - x;
  }
  if (std::isinf(x)) return kInf;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  // ψ(x) ~ ln x - 1/(2x) - Σ B_2k / (2k x^2k)
  const double inv2 = 1 / (x * x);
  double pw = 1, series = 0;
  for (int k = 1; k <= 8; ++k) {
    pw *= inv2;
    series += bernoulli(k) / (2 * k) * pw;
  }
  return result + std::log(x) - 0.5 / x - series;
}

double trigamma(double x) {
  if (std::isnan(x)) return x;
  double result = 0, sign = 1;
  if (x < 0.5) {
    // ψ1(x) = π² / sin²(πx) - ψ1(1 - x)
    const double r = x - std::nearbyint(x);  // sin² has period 1; |r| <= 1/2 keeps tiny x exact
    if (r == 0) return kInf;
    const double s = std::sin(kPi * r);
    result = kPi * kPi / (s * s);
    sign = -1;
    x = 1 - x;
  }
  if (std::isinf(x)) return result;
  double tail = 0;
  while (x < 10) {
    tail += 1 / (x * x);
    x += 1;
  }
  // ψ1(x) ~ 1/x + 1/(2x²) + Σ B_2k / x^(2k+1)
  const double inv2 = 1 / (x * x);
  double pw = 1 / x, series = 1 / x + 0.5 * inv2;
  for (int k = 1; k <= 8; ++k) {
    pw *= inv2;
    series += bernoulli(k) * pw;
  }
  return result + sign * (tail + series);
}

double zeta(double x, double q) {
  if (x == 1) return kInf;
  if (x < 1) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;
    if (x != std::floor(x)) return kNaN;  // (q + k)^-x is not real
  }
  if (std::isnan(x) || std::isnan(q)) return kNaN;
  // Euler–Maclaurin: Σ_{k<N} (q+k)^-x + w^(1-x)/(x-1) + w^-x/2 + Σ_j B_2j/(2j)! x(x+1)…(x+2j-2) w^(-x-2j+1)
  double s = 0, w = q;
  for (int k = 0; k < 9 || w <= 9; ++k) {
    const double b = std::pow(w, -x);
    s += b;
    w += 1;
    if (k >= 1 && std::fabs(b) < kEps * std::fabs(s)) return s;
  }
  const double b = std::pow(w, -x);  // the sum so far stops before w
  s += w * b / (x - 1) + 0.5 * b;
  double rising = 1, wp = 1 / w, fact = 1;
  for (int j = 1; j <= 12; ++j) {
    rising *= x + 2 * j - 2;           // x(x+1)…(x+2j-2): multiply by the new factors
    if (j > 1) rising *= x + 2 * j - 3;
    fact *= (2.0 * j - 1) * (2.0 * j);
    const double t = bernoulli(j) / fact * rising * b * wp;
    s += t;
    if (std::fabs(t) < kEps * std::fabs(s)) break;
    wp /= w * w;
  }
  return s;
}

double polygamma(int64_t n, double x) {
  if (n == 0) return digamma(x);
  if (n == 1) return trigamma(x);
  const double sign = n % 2 ? 1.0 : -1.0;
  return sign * std::exp(std::lgamma(static_cast<double>(n) + 1)) * zeta(static_cast<double>(n + 1), x);
}

double ndtr(double x) { return 0.5 * std::erfc(-x * 0.70710678118654752440); }

namespace {

// Φ^-1(p) for 0 < p <= 0.5: A&S 26.2.23 (|error| < 4.5e-4), then Halley steps on Φ(x) - p.
double ndtri_lower(double p) {
  const double t = std::sqrt(-2 * std::log(p));
  double x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                       (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  for (int i = 0; i < 3; ++i) {
    const double phi = std::exp(-0.5 * x * x) * 0.39894228040143267794;
    if (phi == 0) break;
    const double u = (ndtr(x) - p) / phi;
    x -= u / (1 + 0.5 * x * u);
  }
  return x;
}

}  // namespace

double ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  if (p == 0.5) return 0;
  return p <= 0.5 ? ndtri_lower(p) : -ndtri_lower(1 - p);
}

double erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return kNaN;
  if (y == 1) return kInf;
  if (y == -1) return -kInf;
  if (y == 0) return y;
  const double a = std::fabs(y);
  double x;
  if (a <= 0.5) {
    // Maclaurin start, then Halley steps on erf(x) - a
    x = 0.88622692545275801365 * a * (1 + kPi * a * a / 12 + 7 * kPi * kPi * a * a * a * a / 480);
    for (int i = 0; i < 3; ++i) {
      const double d = 1.12837916709551257390 * std::exp(-x * x);
      const double u = (std::erf(x) - a) / d;
      x -= u / (1 + x * u);
    }
  } else {
    x = -ndtri_lower(0.5 * (1 - a)) * 0.70710678118654752440;  // erfc(x) = 1 - a
  }
  return y < 0 ? -x : x;
}

double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 26) return std::exp(x * x) * std::erfc(x);
  if (std::isinf(x)) return 0;
  // 1/(x√π) (1 - 1/(2x²) + 3/(2x²)² - 15/(2x²)³ + 105/(2x²)⁴)
  const double v = 1 / (2 * x * x);
  return 0.56418958354775628695 / x * (1 - v * (1 - 3 * v * (1 - 5 * v * (1 - 7 * v))));
}

double log_ndtr(double x) {
  const double t = x * 0.70710678118654752440;
  if (x < -1) return std::log(0.5 * erfcx(-t)) - t * t;
  return std::log1p(-0.5 * std::erfc(t));
}

namespace {

// J_nu and Y_nu, nu = 0 or 1, for 0 < x <= 12 by their power series (A&S 9.1.10, 9.1.11).
void jy_series(int nu, double x, double* j, double* y) {
  const double q = 0.25 * x * x, lg = std::log(0.5 * x);
  double term = 1, sum_j = 1, h = 0, sum_y;
  if (nu == 0) {
    sum_y = 0;  // Σ_{k≥1} (-1)^{k+1} H_k q^k/(k!)²
    for (int k = 1; k < 80; ++k) {
      term *= -q / (static_cast<double>(k) * k);
      h += 1.0 / k;
      sum_j += term;
      sum_y -= h * term;
      if (std::fabs(term) * (1 + h) < 1e-17 * std::fabs(sum_j) && k > q) break;
    }
    *j = sum_j;
    if (y) *y = 2 / kPi * ((lg + kEuler) * sum_j + sum_y);
  } else {
    sum_y = -2 * kEuler + 1;  // Σ_k (ψ(k+1) + ψ(k+2)) (-q)^k/(k!(k+1)!), ψ(k+1) = -γ + H_k
    for (int k = 1; k < 80; ++k) {
      term *= -q / (static_cast<double>(k) * (k + 1));
      h += 1.0 / k;
      sum_j += term;
      sum_y += (2 * (h - kEuler) + 1.0 / (k + 1)) * term;
      if (std::fabs(term) * (1 + h) < 1e-17 * std::fabs(sum_j) && k > q) break;
    }
    *j = 0.5 * x * sum_j;
    if (y) *y = -2 / (kPi * x) + 2 / kPi * lg * *j - 0.5 * x / kPi * sum_y;
  }
}

// J_nu and Y_nu for x > 12 by Hankel's asymptotic expansion (A&S 9.2.5–9.2.10): the smallest term is
// about e^{-2x}, far below double precision here.
void jy_hankel(int nu, double x, double* j, double* y) {
  const double mu = 4.0 * nu * nu;
  double p = 1, q = 0, t = 1, last = kInf;
  for (int k = 1; k < 200; ++k) {
    t *= (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8 * x);
    if (std::fabs(t) >= last) break;  // the series diverges from here on
    last = std::fabs(t);
    const double s = ((k / 2) % 2) ? -t : t;  // signs of P: +,-,+ on even k; of Q: +,-,+ on odd k
    if (k % 2) q += s;
    else p += s;
    if (std::fabs(t) < 1e-17) break;
  }
  // χ = x - (ν/2 + 1/4)π; cos χ and sin χ from cos x and sin x (libm reduces x exactly)
  const double c = std::cos(x), s = std::sin(x), r = 0.70710678118654752440;
  double cc, ss;  // cos χ, sin χ
  if (nu == 0) {
    cc = r * (c + s);
    ss = r * (s - c);
  } else {
    cc = r * (s - c);
    ss = -r * (c + s);
  }
  const double amp = std::sqrt(2 / (kPi * x));
  *j = amp * (p * cc - q * ss);
  if (y) *y = amp * (p * ss + q * cc);
}

void jy(int nu, double x, double* j, double* y) {
  if (x <= 12) jy_series(nu, x, j, y);
  else jy_hankel(nu, x, j, y);
}

}  // namespace

double bessel_j0(double x) {
  if (std::isnan(x)) return x;
  x = std::fabs(x);
  if (std::isinf(x)) return 0;
  double j;
  jy(0, x, &j, nullptr);
  return j;
}

double bessel_j1(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0;
  double j;
  jy(1, std::fabs(x), &j, nullptr);
  return x < 0 ? -j : j;
}

double bessel_y0(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return 0;
  double j, y;
  jy(0, x, &j, &y);
  return y;
}

double bessel_y1(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return 0;
  double j, y;
  jy(1, x, &j, &y);
  return y;
}

namespace {

// e^{-x} I_nu(x), nu = 0 or 1, x >= 0: the power series (positive terms) up to 30, the asymptotic
// expansion (A&S 9.7.1, smallest term about e^{-2x}) above.
double bessel_i_scaled(int nu, double x) {
  if (x <= 30) {
    const double q = 0.25 * x * x;
    double term = nu ? 0.5 * x : 1, sum = term;
    for (int k = 1; k < 200; ++k) {
      term *= q / (static_cast<double>(k) * (k + nu));
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    return sum * std::exp(-x);
  }
  const double mu = 4.0 * nu * nu;
  double t = 1, sum = 1, last = kInf;
  for (int k = 1; k < 200; ++k) {
    t *= -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8 * x);
    if (std::fabs(t) >= last) break;
    last = std::fabs(t);
    sum += t;
    if (std::fabs(t) < 1e-17 * sum) break;
  }
  return sum / std::sqrt(2 * kPi * x);
}

double bessel_i(int nu, double x, bool scaled) {
  if (std::isnan(x)) return x;
  const double a = std::fabs(x);
  double v;
  if (std::isinf(a)) {
    v = scaled ? 0 : kInf;
  } else {
    v = bessel_i_scaled(nu, a);
    if (!scaled) {
      const double half = std::exp(0.5 * a);  // e^a in two halves: I(x) stays finite up to x ≈ 713
      v = v * half * half;
    }
  }
  return (nu == 1 && x < 0) ? -v : v;
}

}  // namespace

double bessel_i0(double x, bool scaled) { return bessel_i(0, x, scaled); }
double bessel_i1(double x, bool scaled) { return bessel_i(1, x, scaled); }

double bessel_k(double nu, double x, bool scaled) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return kInf;
  if (std::isinf(x)) return 0;
  // e^x K_nu(x) = ∫_0^∞ e^{-x (cosh t - 1)} cosh(νt) dt by the trapezoid rule. The integrand is entire
  // and decays doubly exponentially, so the error falls like e^{-c/h}; the step shrinks as 1/√x where
  // the integrand narrows to a Gaussian of that width.
  const double h = std::fmin(0.25, 0.6 / std::sqrt(x));
  double sum = 0.5;
  for (int i = 1; i < 100000; ++i) {
    const double t = i * h, sh = std::sinh(0.5 * t);
    const double e = -2 * x * sh * sh;  // -x (cosh t - 1)
    if (e + nu * t < -45) break;
    sum += std::exp(e) * std::cosh(nu * t);
  }
  const double v = sum * h;
  return scaled ? v : v * std::exp(-x);
}

double airy_ai(double x) {
  if (std::isnan(x)) return x;
  if (x == kInf) return 0;
  if (x == -kInf) return kNaN;
  const double ai0 = 0.35502805388781723926, dai0 = 0.25881940379280679840;  // Ai(0), -Ai'(0)
  if (x > 0) {
    // Ai(x) = √(x/3)/π K_{1/3}(ζ), ζ = (2/3) x^{3/2}
    const double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    return std::sqrt(x / 3) / kPi * bessel_k(1.0 / 3.0, zeta, false);
  }
  if (x == 0) return ai0;
  if (x >= -8) {
    // Ai(x) = Ai(0) f(x) + Ai'(0) g(x), f and g Maclaurin series in x³ (A&S 10.4.2)
    const double x3 = x * x * x;
    double tf = 1, f = 1, tg = x, g = x;
    for (int k = 1; k < 100; ++k) {
      tf *= x3 / ((3.0 * k - 1) * (3.0 * k));
      tg *= x3 / ((3.0 * k) * (3.0 * k + 1));
      f += tf;
      g += tg;
      if (std::fabs(tf) + std::fabs(tg) < 1e-17 * (std::fabs(f) + std::fabs(g))) break;
    }
    return ai0 * f - dai0 * g;
  }
  // Ai(-z) = π^{-1/2} z^{-1/4} (sin(ζ + π/4) P - cos(ζ + π/4) Q), A&S 10.4.60, u_k of 10.4.59
  const double z = -x, zeta = 2.0 / 3.0 * z * std::sqrt(z);
  double u = 1, p = 1, q = 0, last = kInf;
  for (int k = 1; k < 200; ++k) {
    u *= (6.0 * k - 5) * (6.0 * k - 3) * (6.0 * k - 1) / (216.0 * k * (2.0 * k - 1)) / zeta;
    if (std::fabs(u) >= last) break;
    last = std::fabs(u);
    const double s = ((k / 2) % 2) ? -u : u;
    if (k % 2) q += s;
    else p += s;
    if (std::fabs(u) < 1e-17) break;
  }
  const double a = zeta + kPi / 4;
  return (std::sin(a) * p - std::cos(a) * q) / (std::sqrt(kPi) * std::sqrt(std::sqrt(z)));
}

namespace {

// P(a, x) by its series, for x < a + 1.
double igamma_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (term < sum * kEps) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Q(a, x) by Legendre's continued fraction (modified Lentz), for x >= a + 1.
double igammac_fraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < kEps) break;
  }
  return h * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

}  // namespace

double igamma(double a, double x) {
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 1 : kNaN;
  if (x == 0) return 0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 0;
  if (std::isinf(x)) return 1;
  return x < a + 1 ? igamma_series(a, x) : 1 - igammac_fraction(a, x);
}

double igammac(double a, double x) {
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 0 : kNaN;
  if (x == 0) return 1;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 1;
  if (std::isinf(x)) return 0;
  return x < a + 1 ? 1 - igamma_series(a, x) : igammac_fraction(a, x);
}

}  // namespace fx::special
