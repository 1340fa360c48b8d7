// The one error type of the core. Every failure that a user can cause (a bad file, an unknown op, a wrong
// input) is an FxError carrying what went wrong and, where one applies, the node that failed.
#pragma once
#include <stdexcept>
#include <string>

namespace fx {

class FxError : public std::runtime_error {
 public:
  explicit FxError(const std::string& message, std::string node = {})
      : std::runtime_error(node.empty() ? message : "node '" + node + "': " + message),
        bare_message_(message), node_(std::move(node)) {}
  const std::string& node() const { return node_; }
  const std::string& bare_message() const { return bare_message_; }

 private:
  std::string bare_message_;
  std::string node_;
};

// Invariant check: a failed FX_CHECK is a bug or a bad input caught at a boundary, reported as FxError.
#define FX_CHECK(cond, msg)                          \
  do {                                               \
    if (!(cond)) throw ::fx::FxError(msg);           \
  } while (0)

}  // namespace fx
