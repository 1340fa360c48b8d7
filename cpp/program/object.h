// Object: what flows between nodes when a graph runs — a Tensor, a Python scalar/str/None, a dtype-like
// constant, or a tuple/list/dict of Objects. Built from the IR's Value (minus node references) plus Tensor.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "ir/value.h"
#include "tensor/tensor.h"

namespace fx {

class Object {
 public:
  enum class Kind { Value, Tensor, Tuple, List, Dict };

  Object() : kind_(Kind::Value) {}                      // None
  Object(Value v);                                     // a Value without node references (sequences → Tuple/List)
  // The tensor is held through a shared pointer: a run copies a node's value into every argument list
  // that reads it, and a copy is then a reference-count increment, not two shape vectors.
  Object(Tensor t);  // out of line: one call at each of the many sites that wrap a result
  static Object tuple(std::vector<Object> items);
  static Object list(std::vector<Object> items);
  static Object dict(std::vector<std::pair<std::string, Object>> items);

  Kind kind() const { return kind_; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  bool is_value() const { return kind_ == Kind::Value; }
  bool is_sequence() const { return kind_ == Kind::Tuple || kind_ == Kind::List; }

  const Tensor& tensor() const;  // FxError unless a Tensor
  const Value& value() const;    // FxError unless a Value (scalar, str, None, dtype, ...)
  const std::vector<Object>& items() const;                             // Tuple or List
  const std::vector<std::pair<std::string, Object>>& dict_items() const;  // Dict

  // For messages: "Tensor(float32, [2, 3])", "int", "tuple of 2", ...
  std::string describe() const;

 private:
  // One shared pointer to what the kind says (Value, Tensor, vector<Object>, dict items); null for None.
  // A run copies Objects into every argument list that reads them: a copy is one reference count, and
  // an Object is two words, not a Value and three pointers (measured: copying and destroying fat Objects
  // was about a tenth of a small model's run).
  Kind kind_;
  std::shared_ptr<const void> p_;
};

}  // namespace fx
