// Checked int64 arithmetic for sizes, offsets and element counts. A size computed from a file or an
// argument (a stride, a padding, a repeat count) must never overflow int64 silently or reach the CPU as
// a division by zero (a trap in WebAssembly kills the runtime): these throw FxError instead. Ops check
// their arguments first with torch's own messages; these are the last line, named by `what`.
#pragma once
#include <cstdint>
#include <string>

#include "support/error.h"

namespace fx {

[[noreturn]] inline void throw_size_overflow(const char* what, const char* op, int64_t a, int64_t b) {
  throw FxError(std::string(what) + ": integer " + op + " overflow (" + std::to_string(a) + " " + op[0] + " " +
                std::to_string(b) + " does not fit in int64)");
}

inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw_size_overflow(what, "*", a, b);
  return r;
}
inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw_size_overflow(what, "+", a, b);
  return r;
}
inline int64_t checked_sub(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw_size_overflow(what, "-", a, b);
  return r;
}
// C++ division (truncating); FxError on a zero divisor and on INT64_MIN / -1.
inline int64_t checked_div(int64_t a, int64_t b, const char* what) {
  if (b == 0) throw FxError(std::string(what) + ": division by zero");
  if (b == -1 && a == INT64_MIN) throw_size_overflow(what, "/", a, b);
  return a / b;
}
inline int64_t checked_mod(int64_t a, int64_t b, const char* what) {
  if (b == 0) throw FxError(std::string(what) + ": division by zero");
  if (b == -1) return 0;
  return a % b;
}

// The output length of a sliding window (conv, pool, unfold): (in + pad - dilation*(k-1) - 1) / stride + 1,
// each step checked. `pad` is the total padding of the dimension; the division truncates, as torch's.
inline int64_t checked_window_out(int64_t in, int64_t pad, int64_t kernel, int64_t stride, int64_t dilation,
                                  const char* what) {
  const int64_t span = checked_add(checked_mul(dilation, checked_sub(kernel, 1, what), what), 1, what);
  const int64_t num = checked_sub(checked_add(in, pad, what), span, what);
  return checked_add(checked_div(num, stride, what), 1, what);
}

}  // namespace fx
