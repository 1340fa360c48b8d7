// Value: FX's argument language — what a Node's args, kwargs and meta can hold.
// None, bool, int, float, str, tuple, list, str-keyed dict, slice, Ellipsis, dtype, device, memory_format,
// layout, torch.Size and a reference to a Node. Values are immutable and cheap to copy (children shared).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fx {

class Node;
class Value;

using ValueList = std::vector<Value>;
// A str-keyed dict in insertion order (FX kwargs, dict arguments, meta).
using Kwargs = std::vector<std::pair<std::string, Value>>;

enum class ValueKind {
  None, Bool, Int, Float, Str, Tuple, List, Dict, Slice, Ellipsis,
  Dtype,         // name as torch spells it without "torch.": "float32", "int64", "bool"
  Device,        // "cpu", "cuda:0"
  MemoryFormat,  // "contiguous_format", "channels_last", "preserve_format"
  Layout,        // "strided"
  Size,          // torch.Size: items are Ints (or Nodes in symbolic graphs)
  NodeRef,
};

class Value {
 public:
  Value() = default;  // None
  static Value none() { return Value(); }
  static Value boolean(bool b);
  static Value integer(int64_t i);
  static Value floating(double d);
  static Value str(std::string s);
  static Value tuple(ValueList items);
  static Value list(ValueList items);
  static Value dict(Kwargs items);
  static Value slice(Value start, Value stop, Value step);
  static Value ellipsis();
  static Value dtype(std::string name);
  static Value device(std::string name);
  static Value memory_format(std::string name);
  static Value layout(std::string name);
  static Value size(ValueList items);
  static Value node(Node* n);

  ValueKind kind() const { return kind_; }
  bool is_none() const { return kind_ == ValueKind::None; }
  bool is_node() const { return kind_ == ValueKind::NodeRef; }
  bool is_sequence() const;  // Tuple, List or Size

  // Accessors throw FxError when the kind does not match.
  bool as_bool() const;
  int64_t as_int() const;
  double as_float() const;              // also accepts Int (Python's int → float promotion)
  const std::string& as_str() const;    // Str, Dtype, Device, MemoryFormat, Layout
  const ValueList& items() const;       // Tuple, List, Size; Slice gives {start, stop, step}
  const Kwargs& dict_items() const;     // Dict
  Node* as_node() const;

  // Python's repr as str(node.args) shows it inside print_tabular: nodes print as their name,
  // floats as Python's repr (1.0, 1e-05, inf), strings quoted, dtypes as torch.float32, ...
  std::string repr() const;

  // Every node referenced anywhere inside, in order of appearance (may repeat).
  void for_each_node(const std::function<void(Node*)>& fn) const;
  // A copy with every node reference replaced by fn(node).
  Value map_nodes(const std::function<Value(Node*)>& fn) const;

  bool operator==(const Value& other) const;
  bool operator!=(const Value& other) const { return !(*this == other); }

 private:
  ValueKind kind_ = ValueKind::None;
  bool b_ = false;
  int64_t i_ = 0;
  double d_ = 0.0;
  Node* node_ = nullptr;
  std::shared_ptr<const std::string> s_;
  std::shared_ptr<const ValueList> items_;
  std::shared_ptr<const Kwargs> dict_;
};

// Python's repr of a float: shortest round-trip digits, "1.0", "1e-05", "inf", "nan".
std::string python_float_repr(double d);
// Python's repr of a str: single quotes unless the text holds a single quote and no double quote.
std::string python_str_repr(const std::string& s);

}  // namespace fx
