// Python's repr() of float and str, as FX prints them. Written by hand because the exact Python spelling is
// the product (print_tabular and generated code must match torch character for character), and because
// Emscripten's libc++ may lack std::to_chars for double: the shortest round-trip digits are found with
// printf("%.*e") + strtod, both correctly rounded in glibc and musl.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ir/value.h"

namespace fx {
namespace {

// Digits and exponent of "%.*e" output: "-1.2345e+05" → digits "12345", exp10 5.
void parse_sci(const char* text, std::string& digits, int& exp10) {
  digits.clear();
  const char* p = text;
  if (*p == '-') ++p;
  for (; *p && *p != 'e' && *p != 'E'; ++p) {
    if (*p >= '0' && *p <= '9') digits += *p;
  }
  exp10 = (*p == 'e' || *p == 'E') ? std::atoi(p + 1) : 0;
}

bool round_trips(const std::string& digits, int exp10, bool negative, double d) {
  std::string text = negative ? "-" : "";
  text += digits[0];
  if (digits.size() > 1) text += "." + digits.substr(1);
  text += "e" + std::to_string(exp10);
  return std::strtod(text.c_str(), nullptr) == d;
}

// The decimal one unit above/below in the last place ("129" → "130"/"128"), keeping the digit count;
// false when the count would change.
bool step_last_digit(std::string& digits, int& exp10, int direction) {
  std::string s = digits;
  int i = static_cast<int>(s.size()) - 1;
  if (direction > 0) {
    while (i >= 0 && s[i] == '9') s[i--] = '0';
    if (i < 0) {
      s.insert(s.begin(), '1');
      s.pop_back();
      ++exp10;
    } else {
      ++s[i];
    }
  } else {
    while (i >= 0 && s[i] == '0') s[i--] = '9';
    if (i < 0) return false;
    --s[i];
    if (s[0] == '0') {  // "100" - 1 → "099": the neighbour is "999" one decade down
      if (s.size() == 1) return false;
      s = s.substr(1) + "9";
      --exp10;
    }
  }
  digits = s;
  return true;
}

// Shortest digits that read back as d, the nearest such when several do (what Python's repr uses).
void shortest_digits(double d, std::string& digits, int& exp10) {
  const bool negative = std::signbit(d);
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, d);
    parse_sci(buf, digits, exp10);
    if (std::strtod(buf, nullptr) == d) return;
    // Near a power of two the rounding interval is lopsided: a neighbour of the nearest decimal can
    // round-trip when the nearest does not.
    for (int direction : {-1, 1}) {
      std::string alt = digits;
      int alt_exp = exp10;
      if (step_last_digit(alt, alt_exp, direction) && round_trips(alt, alt_exp, negative, d)) {
        digits = alt;
        exp10 = alt_exp;
        return;
      }
    }
  }
  std::snprintf(buf, sizeof buf, "%.16e", d);
  parse_sci(buf, digits, exp10);
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes one UTF-8 sequence at s[i]; returns its length, 0 for an invalid byte.
size_t decode_utf8(const std::string& s, size_t i, uint32_t& cp) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len;
  if (c < 0x80) { cp = c; return 1; }
  if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; len = 2; }
  else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; len = 3; }
  else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; len = 4; }
  else return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  return len;
}

// Python's str.isprintable() for a non-ASCII code point: false for the categories Cc, Cf, Cs, Co, Zl, Zp and
// Zs. Covers those ranges without Unicode tables; unassigned code points (Cn) are taken as printable.
bool is_printable_non_ascii(uint32_t cp) {
  if (cp <= 0xA0) return false;  // C1 controls and NO-BREAK SPACE
  if (cp == 0xAD || cp == 0x61C || cp == 0x6DD || cp == 0x70F || cp == 0x180E || cp == 0x1680) return false;
  if (cp >= 0x600 && cp <= 0x605) return false;
  if (cp >= 0x2000 && cp <= 0x200F) return false;
  if (cp >= 0x2028 && cp <= 0x202F) return false;
  if (cp >= 0x205F && cp <= 0x206F) return false;
  if (cp == 0x3000 || cp == 0xFEFF) return false;
  if (cp >= 0xD800 && cp <= 0xF8FF) return false;  // surrogates and the private use area
  if (cp >= 0xFFF9 && cp <= 0xFFFB) return false;
  if (cp == 0xFFFE || cp == 0xFFFF) return false;
  if (cp == 0x110BD || cp == 0x110CD || (cp >= 0x1D173 && cp <= 0x1D17A)) return false;
  if (cp == 0xE0001 || (cp >= 0xE0020 && cp <= 0xE007F)) return false;
  if (cp >= 0xF0000) return false;  // supplementary private use areas
  return true;
}

void append_hex(std::string& out, const char* prefix, uint32_t v, int width) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s%0*x", prefix, width, v);
  out += buf;
}

}  // namespace

std::string python_float_repr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";

  std::string digits;
  int exp10 = 0;
  shortest_digits(d, digits, exp10);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();

  // As CPython's format_float_short for repr: exponent notation when decpt <= -4 or decpt > 16.
  const int n = static_cast<int>(digits.size());
  const int decpt = exp10 + 1;  // value = 0.<digits> * 10^decpt
  std::string out = std::signbit(d) ? "-" : "";
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (n > 1) out += "." + digits.substr(1);
    const int e = decpt - 1;
    char buf[16];
    std::snprintf(buf, sizeof buf, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    out += buf;
  } else if (decpt <= 0) {
    out += "0." + std::string(-decpt, '0') + digits;
  } else if (decpt < n) {
    out += digits.substr(0, decpt) + "." + digits.substr(decpt);
  } else {
    out += digits + std::string(decpt - n, '0') + ".0";
  }
  return out;
}

std::string python_str_repr(const std::string& s) {
  const bool has_single = s.find('\'') != std::string::npos;
  const bool has_double = s.find('"') != std::string::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t len = decode_utf8(s, i, cp);
    if (len == 0) {  // not UTF-8: show the byte as Python shows a lone escaped byte
      append_hex(out, "\\x", static_cast<unsigned char>(s[i]), 2);
      ++i;
      continue;
    }
    i += len;
    if (cp == static_cast<uint32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || cp == 0x7F) {
      append_hex(out, "\\x", cp, 2);
    } else if (cp < 0x80 || is_printable_non_ascii(cp)) {
      append_utf8(out, cp);
    } else if (cp <= 0xFF) {
      append_hex(out, "\\x", cp, 2);
    } else if (cp <= 0xFFFF) {
      append_hex(out, "\\u", cp, 4);
    } else {
      append_hex(out, "\\U", cp, 8);
    }
  }
  out += quote;
  return out;
}

}  // namespace fx
