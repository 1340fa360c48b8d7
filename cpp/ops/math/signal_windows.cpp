// torch.signal.windows: bartlett, blackman, cosine, exponential, gaussian, general_cosine,
// general_hamming, hamming, hann, kaiser, nuttall. Each is built as torch builds it — a linspace of M
// points k (filled from both ends, as torch.linspace) and a function of k — in double, rounded once to
// the window's dtype (float32 by default; float32 and float64 only, as torch).
#include <cmath>
#include <string>
#include <vector>

#include "kernels/special_math.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

constexpr double kPi = 3.14159265358979323846;

enum Window { Bartlett, Blackman, Cosine, Exponential, Gaussian, GeneralCosine, GeneralHamming, Hamming, Hann,
              Kaiser, Nuttall };
const char* const kNames[] = {"bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
                              "general_hamming", "hamming", "hann", "kaiser", "nuttall"};
// The keyword parameters each window takes besides sym and the tensor options.
const char* const kParams[] = {"", "", "", "center=None, tau=1.0, ", "std=1.0, ", "a, ", "alpha=0.54, ", "", "",
                               "beta=12.0, ", ""};

// torch.linspace(start, end, m) in double
std::vector<double> linspace(double start, double end, int64_t m) {
  std::vector<double> k(static_cast<size_t>(m));
  const double step = m > 1 ? (end - start) / static_cast<double>(m - 1) : 0.0;
  const int64_t half = m == 1 ? 1 : m / 2;
  for (int64_t i = 0; i < m; ++i)
    k[i] = i < half ? start + step * static_cast<double>(i) : end - step * static_cast<double>(m - 1 - i);
  return k;
}

// Σ_i (-1)^i a_i cos(i k), k from 0 to 2π(M-1)/(sym ? M-1 : M)
std::vector<double> general_cosine(int64_t m, bool sym, const std::vector<double>& a) {
  const double c = 2 * kPi / static_cast<double>(sym ? m - 1 : m);
  std::vector<double> k = linspace(0, static_cast<double>(m - 1) * c, m);
  for (double& v : k) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += (i % 2 ? -a[i] : a[i]) * std::cos(static_cast<double>(i) * v);
    v = s;
  }
  return k;
}

// One body for all the windows (only the schema is per window): `win` picks the formula.
Object window_call(const OpCall& call, const Schema& schema, int win) {
  Args args = schema.parse(call);
  const size_t sym_at = win == Exponential ? 3 : (win == Gaussian || win == GeneralCosine ||
                                                   win == GeneralHamming || win == Kaiser) ? 2 : 1;
  const int64_t m = args.integer(0);
  const bool sym = args.boolean(sym_at);
  const DType dtype = args.dtype(sym_at + 1).value_or(kDefaultFloat);
  const std::string name = kNames[win];
  if (m < 0) throw FxError(name + " requires non-negative window length, got M=" + std::to_string(m));
  if (dtype != DType::Float32 && dtype != DType::Float64)
    throw FxError(name + " expects float32 or float64 dtypes, got: " + dtype_name(dtype));
  if (meta_mode()) return Tensor::meta({m}, dtype);
  const double ms = static_cast<double>(m);
  std::vector<double> w;
  const bool ones_for_one = win != Cosine && win != Exponential && win != Gaussian;
  if (m == 0) {
  } else if (m == 1 && ones_for_one) {
    w = {1.0};
  } else if (win == Bartlett) {
    w = linspace(-1, -1 + (ms - 1) * (2 / (sym ? ms - 1 : ms)), m);
    for (double& v : w) v = 1 - std::fabs(v);
  } else if (win == Cosine) {
    const double c = kPi / (!sym && m > 1 ? ms + 1 : ms);
    w = linspace(0.5 * c, (0.5 + ms - 1) * c, m);
    for (double& v : w) v = std::sin(v);
  } else if (win == Exponential) {
    const double tau = args.number(2).as_double();
    if (tau <= 0) throw FxError("Tau must be positive, got: " + std::to_string(tau) + " instead.");
    if (sym && !args.is_none(1)) throw FxError("Center must be None for symmetric windows");
    const double center = args.is_none(1) ? (!sym && m > 1 ? ms : ms - 1) / 2.0 : args.number(1).as_double();
    w = linspace(-center / tau, (-center + (ms - 1)) / tau, m);
    for (double& v : w) v = std::exp(-std::fabs(v));
  } else if (win == Gaussian) {
    const double sd = args.number(1).as_double();
    if (sd <= 0) throw FxError("Standard deviation must be positive, got: " + std::to_string(sd) + " instead.");
    const double start = -(!sym && m > 1 ? ms : ms - 1) / 2.0, c = 1 / (sd * std::sqrt(2.0));
    w = linspace(start * c, (start + (ms - 1)) * c, m);
    for (double& v : w) v = std::exp(-(v * v));
  } else if (win == Kaiser) {
    double beta = args.number(1).as_double();  // torch makes it a tensor of the window's dtype
    if (dtype == DType::Float32) beta = static_cast<float>(beta);
    if (beta < 0) throw FxError("beta must be non-negative, got: " + std::to_string(beta) + " instead.");
    const double c = 2.0 * beta / (sym ? ms - 1 : ms);
    w = linspace(-beta, std::fmin(beta, -beta + (ms - 1) * c), m);
    const double i0b = special::bessel_i0(beta, false);
    for (double& v : w) v = special::bessel_i0(std::sqrt(beta * beta - v * v), false) / i0b;
  } else {
    std::vector<double> a;
    if (win == Blackman) a = {0.42, 0.5, 0.08};
    else if (win == Nuttall) a = {0.3635819, 0.4891775, 0.1365995, 0.0106411};
    else if (win == Hann) a = {0.5, 0.5};
    else if (win == Hamming) a = {0.54, 1.0 - 0.54};
    else if (win == GeneralHamming) a = {args.number(1).as_double(), 1.0 - args.number(1).as_double()};
    else {
      if (!args[1].is_sequence()) throw FxError("Coefficients must be a list/tuple");
      for (const Object& o : args[1].items()) a.push_back(to_number(o).as_double());
      if (a.empty()) throw FxError("Coefficients cannot be empty");
    }
    w = general_cosine(m, sym, a);
  }
  Tensor out = Tensor::empty({m}, DType::Float64);
  for (int64_t i = 0; i < m; ++i) out.data<double>()[i] = w[i];
  return to_dtype(out, dtype);
}

template <int kWin>
Object window_op(const OpCall& call) {
  static const Schema schema(std::string(kNames[kWin]) + "(M, *, " + kParams[kWin] +
                             "sym=True, dtype=None, layout=None, device=None, requires_grad=False)");
  return window_call(call, schema, kWin);
}

#define WINDOW(n) "torch.signal.windows.windows." n, "torch.signal.windows." n
const OpRow kOps[] = {
    {WINDOW("bartlett"), "", window_op<Bartlett>},
    {WINDOW("blackman"), "", window_op<Blackman>},
    {WINDOW("cosine"), "", window_op<Cosine>},
    {WINDOW("exponential"), "", window_op<Exponential>},
    {WINDOW("gaussian"), "", window_op<Gaussian>},
    {WINDOW("general_cosine"), "", window_op<GeneralCosine>},
    {WINDOW("general_hamming"), "", window_op<GeneralHamming>},
    {WINDOW("hamming"), "", window_op<Hamming>},
    {WINDOW("hann"), "", window_op<Hann>},
    {WINDOW("kaiser"), "", window_op<Kaiser>},
    {WINDOW("nuttall"), "", window_op<Nuttall>},
};
#undef WINDOW
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
