// Object: what flows between nodes when a graph runs — a Tensor, a Python scalar/str/None, a dtype-like
// constant, or a tuple/list/dict of Objects. Built from the IR's Value (minus node references) plus Tensor.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ir/value.h"
#include "tensor/tensor.h"

namespace fx {

// How deep tuples, lists and dicts may nest in one Object: the .fxw format's limit (serialize/limits.h),
// enforced as each container is made, so that no input, file or run can build a value whose recursive
// walks (printing, encoding, destruction) go deeper than this.
constexpr size_t kMaxObjectDepth = 64;

class Object {
 public:
  enum class Kind { Value, Tensor, Tuple, List, Dict };

  Object() : kind_(Kind::Value) {}                      // None
  Object(Value v);                                     // a Value without node references (sequences → Tuple/List)
  // The tensor is held through a shared pointer: a run copies a node's value into every argument list
  // that reads it, and a copy is then a reference-count increment, not two shape vectors.
  Object(Tensor t);  // out of line: one call at each of the many sites that wrap a result
  // FxError "value nests deeper than 64 levels" when the container would be deeper than kMaxObjectDepth.
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

  // Containers nested in this Object: 0 for a tensor or scalar, 1 for a tuple of tensors, ...
  size_t depth() const;

 private:
  struct Sequence;
  struct DictItems;
  // One shared pointer to what the kind says (Value, Tensor, Sequence, DictItems); null for None.
  // A run copies Objects into every argument list that reads them: a copy is one reference count, and
  // an Object is two words, not a Value and three pointers (measured: copying and destroying fat Objects
  // was about a tenth of a small model's run).
  Kind kind_;
  std::shared_ptr<const void> p_;
};

}  // namespace fx
