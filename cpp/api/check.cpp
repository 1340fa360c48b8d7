#include "api/check.h"

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "support/error.h"

namespace fx {
namespace {

struct Tolerance {
  double rtol, atol;
  bool equal_nan;
};

double half_to_double(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(mant, -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = std::ldexp(mant + 1024, exp - 25);
  return sign ? -v : v;
}

double bfloat16_to_double(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Every element of a tensor as double, in row-major order (any dtype, any strides).
std::vector<double> to_doubles(const Tensor& t) {
  Tensor c = t.contiguous();
  if (dtype_is_complex(c.dtype())) {  // (real, imaginary) pairs: compare_complex takes them two at a time
    const int64_t n = 2 * c.numel();
    std::vector<double> out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      out[static_cast<size_t>(i)] = c.dtype() == DType::Complex64 ? static_cast<const float*>(c.raw_data())[i]
                                                                   : static_cast<const double*>(c.raw_data())[i];
    return out;
  }
  const int64_t n = c.numel();
  std::vector<double> out(static_cast<size_t>(n));
  const void* p = c.raw_data();
  for (int64_t i = 0; i < n; ++i) {
    double v = 0;
    switch (c.dtype()) {
      case DType::Float32: v = static_cast<const float*>(p)[i]; break;
      case DType::Float64: v = static_cast<const double*>(p)[i]; break;
      case DType::Float16: v = half_to_double(static_cast<const uint16_t*>(p)[i]); break;
      case DType::BFloat16: v = bfloat16_to_double(static_cast<const uint16_t*>(p)[i]); break;
      case DType::Int64: v = static_cast<double>(static_cast<const int64_t*>(p)[i]); break;
      case DType::Int32: v = static_cast<const int32_t*>(p)[i]; break;
      case DType::Int16: v = static_cast<const int16_t*>(p)[i]; break;
      case DType::Int8: v = static_cast<const int8_t*>(p)[i]; break;
      case DType::UInt8: v = static_cast<const uint8_t*>(p)[i]; break;
      case DType::Bool: v = static_cast<const uint8_t*>(p)[i] ? 1 : 0; break;
      default: break;  // (complex: above)
    }
    out[static_cast<size_t>(i)] = v;
  }
  return out;
}

bool is_numeric(const Value& v) {
  return v.kind() == ValueKind::Bool || v.kind() == ValueKind::Int || v.kind() == ValueKind::Float;
}

double numeric(const Value& v) {
  if (v.kind() == ValueKind::Bool) return v.as_bool() ? 1 : 0;
  return v.as_float();
}

// Folds one pair of numbers into the leaf's statistics, as torch.isclose decides them: equal numbers
// (infinities of the same sign among them) are close; otherwise a NaN or an infinity on either side is not
// (NaN against NaN only with `equal_nan`); otherwise |a - e| <= atol + rtol * |e|.
void compare_numbers(double a, double e, const Tolerance& tol, LeafCheck& leaf) {
  ++leaf.numel;
  if (a == e) return;
  if (std::isnan(a) || std::isnan(e)) {
    if (tol.equal_nan && std::isnan(a) && std::isnan(e)) return;
    leaf.max_abs = INFINITY;
    ++leaf.mismatched;
    return;
  }
  const double diff = std::fabs(a - e);
  leaf.max_abs = std::max(leaf.max_abs, diff);
  if (e != 0 && std::isfinite(e)) leaf.max_rel = std::max(leaf.max_rel, diff / std::fabs(e));
  if (std::isinf(a) || std::isinf(e) || !(diff <= tol.atol + tol.rtol * std::fabs(e))) ++leaf.mismatched;
}

// One pair of complex numbers, as torch.isclose compares them: |a - e| <= atol + rtol * |e| with complex
// magnitudes (a part far smaller than the other is not held to its own relative tolerance); NaN in either
// part is NaN, an infinite part is close only to the same value.
void compare_complex(double ar, double ai, double er, double ei, const Tolerance& tol, LeafCheck& leaf) {
  ++leaf.numel;
  if (ar == er && ai == ei) return;
  const bool an = std::isnan(ar) || std::isnan(ai), en = std::isnan(er) || std::isnan(ei);
  if (an || en) {
    if (tol.equal_nan && an && en) return;
    leaf.max_abs = INFINITY;
    ++leaf.mismatched;
    return;
  }
  const double diff = std::hypot(ar - er, ai - ei), mag = std::hypot(er, ei);
  leaf.max_abs = std::max(leaf.max_abs, diff);
  if (mag != 0 && std::isfinite(mag)) leaf.max_rel = std::max(leaf.max_rel, diff / mag);
  if (!std::isfinite(diff) || !std::isfinite(mag) || !(diff <= tol.atol + tol.rtol * mag)) ++leaf.mismatched;
}

void compare_leaf(const Object& a, const Object& e, const Tolerance& tol, LeafCheck& leaf) {
  leaf.expected = e.describe();
  leaf.actual = a.describe();
  if (e.is_tensor() != a.is_tensor()) {
    leaf.message = "expected " + leaf.expected + ", got " + leaf.actual;
  } else if (e.is_tensor()) {
    const Tensor& at = a.tensor();
    const Tensor& et = e.tensor();
    if (at.shape() != et.shape()) {
      leaf.message = "shape differs: expected " + leaf.expected + ", got " + leaf.actual;
    } else if (at.dtype() != et.dtype()) {
      leaf.message = "dtype differs: expected " + leaf.expected + ", got " + leaf.actual;
    } else {
      const std::vector<double> av = to_doubles(at), ev = to_doubles(et);
      if (dtype_is_complex(at.dtype())) {
        for (size_t i = 0; i + 1 < av.size(); i += 2) compare_complex(av[i], av[i + 1], ev[i], ev[i + 1], tol, leaf);
      } else {
        for (size_t i = 0; i < av.size(); ++i) compare_numbers(av[i], ev[i], tol, leaf);
      }
    }
  } else if (is_numeric(e.value()) && is_numeric(a.value())) {
    compare_numbers(numeric(a.value()), numeric(e.value()), tol, leaf);
  } else if (!(a.value() == e.value())) {
    leaf.message = "expected " + e.value().repr() + ", got " + a.value().repr();
  }
  if (!leaf.message.empty()) leaf.mismatched = std::max<int64_t>(leaf.mismatched, 1);
  leaf.pass = leaf.message.empty() && leaf.mismatched == 0;
}

void walk(const Object& a, const Object& e, const std::string& path, const Tolerance& tol,
          std::vector<LeafCheck>& out) {
  auto structural = [&](const std::string& why) {
    LeafCheck leaf;
    leaf.path = path;
    leaf.expected = e.describe();
    leaf.actual = a.describe();
    leaf.pass = false;
    leaf.mismatched = 1;
    leaf.message = why;
    out.push_back(std::move(leaf));
  };
  if (e.is_sequence()) {
    if (!a.is_sequence() || a.items().size() != e.items().size())
      return structural("expected " + e.describe() + ", got " + a.describe());
    for (size_t i = 0; i < e.items().size(); ++i)
      walk(a.items()[i], e.items()[i], path + "[" + std::to_string(i) + "]", tol, out);
    return;
  }
  if (e.kind() == Object::Kind::Dict) {
    if (a.kind() != Object::Kind::Dict || a.dict_items().size() != e.dict_items().size())
      return structural("expected " + e.describe() + ", got " + a.describe());
    for (const auto& [key, ev] : e.dict_items()) {
      const Object* av = nullptr;
      for (const auto& [k, v] : a.dict_items())
        if (k == key) av = &v;
      const std::string sub = path + "[" + python_str_repr(key) + "]";
      if (!av) {
        LeafCheck leaf;
        leaf.path = sub;
        leaf.pass = false;
        leaf.mismatched = 1;
        leaf.message = "key missing from the output";
        out.push_back(std::move(leaf));
        continue;
      }
      walk(*av, ev, sub, tol, out);
    }
    return;
  }
  if (a.is_sequence() || a.kind() == Object::Kind::Dict)
    return structural("expected " + e.describe() + ", got " + a.describe());
  LeafCheck leaf;
  leaf.path = path;
  compare_leaf(a, e, tol, leaf);
  out.push_back(std::move(leaf));
}

// JSON has no inf/nan: they travel as the strings "inf"/"nan", as the format does.
nlohmann::ordered_json number(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}

}  // namespace

const char* check_status_name(CheckStatus s) {
  switch (s) {
    case CheckStatus::Pass: return "pass";
    case CheckStatus::Fail: return "fail";
    case CheckStatus::NoReference: return "no_reference";
  }
  return "?";
}

std::vector<LeafCheck> compare_outputs(const Object& actual, const Object& expected, double rtol, double atol,
                                      bool equal_nan) {
  FX_CHECK(rtol >= 0 && atol >= 0, "tolerances must be non-negative");
  const Tolerance tol{rtol, atol, equal_nan};
  std::vector<LeafCheck> out;
  walk(actual, expected, "", tol, out);
  return out;
}

std::string CheckReport::to_json() const {
  nlohmann::ordered_json j;
  j["status"] = check_status_name(status);
  j["rtol"] = rtol;
  j["atol"] = atol;
  j["equal_nan"] = equal_nan;
  j["outputs"] = nlohmann::ordered_json::array();
  for (const LeafCheck& l : outputs) {
    nlohmann::ordered_json o;
    o["path"] = l.path;
    o["pass"] = l.pass;
    o["max_abs"] = number(l.max_abs);
    o["max_rel"] = number(l.max_rel);
    o["mismatched"] = l.mismatched;
    o["numel"] = l.numel;
    o["expected"] = l.expected;
    o["actual"] = l.actual;
    if (!l.message.empty()) o["message"] = l.message;
    j["outputs"].push_back(std::move(o));
  }
  return j.dump();
}

}  // namespace fx
