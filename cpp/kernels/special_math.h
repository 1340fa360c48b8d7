// Special functions of one or two real arguments, in double precision, for torch.special and the gamma
// family (torch.lgamma, digamma, polygamma, igamma, erfinv, i0 …). Ops compute float32 through these
// and round once, so a float32 result is as close to the true value as torch's own float kernels are.
//
// Written here rather than taken from a library: the standard library has erf, erfc, lgamma and tgamma
// but none of these, and a general special-function library (Boost.Math) would cost far more bytes than
// the few hundred lines below. The methods are the classical published ones, chosen so that each holds
// double precision (or close to it) on its whole domain with no table of fitted coefficients:
//  - digamma, trigamma: reflection, upward recurrence, then the asymptotic series in Bernoulli numbers;
//  - Hurwitz zeta: Euler–Maclaurin summation (as Cephes' zeta), Bernoulli numbers as exact fractions;
//  - erfinv, ndtri: an Abramowitz–Stegun 26.2.23 start refined by Newton steps on erf/erfc;
//  - J0, J1, Y0, Y1: power series (A&S 9.1.10–9.1.13) up to 12, Hankel's expansion (9.2.5) above;
//  - I0, I1: the trapezoid rule on I_n(x) = 1/π ∫_0^π e^{x cos θ} cos nθ dθ (a periodic analytic integrand:
//    the error falls exponentially in the number of points);
//  - K_ν: the trapezoid rule on K_ν(x) = ∫_0^∞ e^{-x cosh t} cosh νt dt (doubly exponential decay, again
//    exponentially convergent), which also gives Ai(x) for x > 0;
//  - Ai(x) for x ≤ 0: Maclaurin series (A&S 10.4.2) down to -8, the oscillating asymptotic form below;
//  - regularized incomplete gamma: the series for x < a + 1, Legendre's continued fraction above
//    (modified Lentz).
// Domain conventions (NaN, ±inf, poles) are torch's, noted per function.
#pragma once
#include <cstdint>

namespace fx::special {

double digamma(double x);             // -inf/+inf at 0 (by sign of zero), NaN at negative integers
double trigamma(double x);
double polygamma(int64_t n, double x);  // n >= 0
double zeta(double x, double q);      // Hurwitz zeta; inf at x == 1, NaN for x < 1
double erfinv(double y);              // ±inf at ±1, NaN outside [-1, 1]
double ndtr(double x);
double ndtri(double p);               // ±inf at 0/1, NaN outside [0, 1]
double log_ndtr(double x);
double erfcx(double x);
double bessel_j0(double x);
double bessel_j1(double x);
double bessel_y0(double x);           // -inf at 0, NaN below
double bessel_y1(double x);
double bessel_i0(double x, bool scaled);  // scaled: e^{-|x|} I0(x)
double bessel_i1(double x, bool scaled);
double bessel_k(double nu, double x, bool scaled);  // K_nu, nu >= 0; scaled: e^{x} K_nu(x); inf at 0, NaN below
double airy_ai(double x);
double igamma(double a, double x);    // regularized lower incomplete gamma P(a, x)
double igammac(double a, double x);   // Q(a, x) = 1 - P(a, x)

}  // namespace fx::special
