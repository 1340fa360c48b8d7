// Value: FX's argument language. Children are shared immutable vectors, so copying a Value is a few
// reference-count bumps however deep it is.
#include "ir/value.h"

#include <cmath>

#include "ir/node.h"
#include "support/error.h"

namespace fx {
namespace {

const char* kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::None: return "None";
    case ValueKind::Bool: return "bool";
    case ValueKind::Int: return "int";
    case ValueKind::Float: return "float";
    case ValueKind::Str: return "str";
    case ValueKind::Tuple: return "tuple";
    case ValueKind::List: return "list";
    case ValueKind::Dict: return "dict";
    case ValueKind::Slice: return "slice";
    case ValueKind::Ellipsis: return "Ellipsis";
    case ValueKind::Dtype: return "dtype";
    case ValueKind::Device: return "device";
    case ValueKind::MemoryFormat: return "memory_format";
    case ValueKind::Layout: return "layout";
    case ValueKind::Size: return "torch.Size";
    case ValueKind::NodeRef: return "Node";
  }
  return "?";
}

[[noreturn]] void kind_mismatch(const char* wanted, ValueKind got) {
  throw FxError(std::string("expected a value of kind ") + wanted + ", found " + kind_name(got));
}

// repr(torch.device(name)): "cpu" → device(type='cpu'), "cuda:0" → device(type='cuda', index=0).
std::string device_repr(const std::string& name) {
  const size_t colon = name.find(':');
  if (colon == std::string::npos) return "device(type='" + name + "')";
  return "device(type='" + name.substr(0, colon) + "', index=" + name.substr(colon + 1) + ")";
}

std::string join_repr(const ValueList& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i].repr();
  }
  return out;
}

bool float_equal(double a, double b) {
  // Structural equality: NaN equals NaN and -0.0 differs from 0.0, so values that print differently are
  // different (what a CSE or constant-folding pass needs), unlike Python's ==.
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

}  // namespace

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = ValueKind::Bool;
  v.b_ = b;
  return v;
}

Value Value::integer(int64_t i) {
  Value v;
  v.kind_ = ValueKind::Int;
  v.i_ = i;
  return v;
}

Value Value::floating(double d) {
  Value v;
  v.kind_ = ValueKind::Float;
  v.d_ = d;
  return v;
}

Value Value::str(std::string s) {
  Value v;
  v.kind_ = ValueKind::Str;
  v.s_ = std::make_shared<const std::string>(std::move(s));
  return v;
}

Value Value::tuple(ValueList items) {
  Value v;
  v.kind_ = ValueKind::Tuple;
  v.items_ = std::make_shared<const ValueList>(std::move(items));
  return v;
}

Value Value::list(ValueList items) {
  Value v = tuple(std::move(items));
  v.kind_ = ValueKind::List;
  return v;
}

Value Value::size(ValueList items) {
  Value v = tuple(std::move(items));
  v.kind_ = ValueKind::Size;
  return v;
}

Value Value::dict(Kwargs items) {
  Value v;
  v.kind_ = ValueKind::Dict;
  v.dict_ = std::make_shared<const Kwargs>(std::move(items));
  return v;
}

Value Value::slice(Value start, Value stop, Value step) {
  Value v = tuple({std::move(start), std::move(stop), std::move(step)});
  v.kind_ = ValueKind::Slice;
  return v;
}

Value Value::ellipsis() {
  Value v;
  v.kind_ = ValueKind::Ellipsis;
  return v;
}

Value Value::dtype(std::string name) {
  Value v = str(std::move(name));
  v.kind_ = ValueKind::Dtype;
  return v;
}

Value Value::device(std::string name) {
  Value v = str(std::move(name));
  v.kind_ = ValueKind::Device;
  return v;
}

Value Value::memory_format(std::string name) {
  Value v = str(std::move(name));
  v.kind_ = ValueKind::MemoryFormat;
  return v;
}

Value Value::layout(std::string name) {
  Value v = str(std::move(name));
  v.kind_ = ValueKind::Layout;
  return v;
}

Value Value::node(Node* n) {
  FX_CHECK(n != nullptr, "a node reference cannot be null");
  Value v;
  v.kind_ = ValueKind::NodeRef;
  v.node_ = n;
  return v;
}

bool Value::is_sequence() const {
  return kind_ == ValueKind::Tuple || kind_ == ValueKind::List || kind_ == ValueKind::Size;
}

bool Value::as_bool() const {
  if (kind_ != ValueKind::Bool) kind_mismatch("bool", kind_);
  return b_;
}

int64_t Value::as_int() const {
  if (kind_ != ValueKind::Int) kind_mismatch("int", kind_);
  return i_;
}

double Value::as_float() const {
  if (kind_ == ValueKind::Int) return static_cast<double>(i_);
  if (kind_ != ValueKind::Float) kind_mismatch("float", kind_);
  return d_;
}

const std::string& Value::as_str() const {
  switch (kind_) {
    case ValueKind::Str:
    case ValueKind::Dtype:
    case ValueKind::Device:
    case ValueKind::MemoryFormat:
    case ValueKind::Layout:
      return *s_;
    default:
      kind_mismatch("str", kind_);
  }
}

const ValueList& Value::items() const {
  if (!is_sequence() && kind_ != ValueKind::Slice) kind_mismatch("tuple, list or torch.Size", kind_);
  return *items_;
}

const Kwargs& Value::dict_items() const {
  if (kind_ != ValueKind::Dict) kind_mismatch("dict", kind_);
  return *dict_;
}

Node* Value::as_node() const {
  if (kind_ != ValueKind::NodeRef) kind_mismatch("Node", kind_);
  return node_;
}

std::string Value::repr() const {
  switch (kind_) {
    case ValueKind::None: return "None";
    case ValueKind::Bool: return b_ ? "True" : "False";
    case ValueKind::Int: return std::to_string(i_);
    case ValueKind::Float: return python_float_repr(d_);
    case ValueKind::Str: return python_str_repr(*s_);
    case ValueKind::Tuple:
      return "(" + join_repr(*items_) + (items_->size() == 1 ? ",)" : ")");
    case ValueKind::List: return "[" + join_repr(*items_) + "]";
    case ValueKind::Size: return "torch.Size([" + join_repr(*items_) + "])";
    case ValueKind::Dict: {
      std::string out = "{";
      for (size_t i = 0; i < dict_->size(); ++i) {
        if (i) out += ", ";
        out += python_str_repr((*dict_)[i].first) + ": " + (*dict_)[i].second.repr();
      }
      return out + "}";
    }
    case ValueKind::Slice: return "slice(" + join_repr(*items_) + ")";
    case ValueKind::Ellipsis: return "Ellipsis";
    case ValueKind::Dtype:
    case ValueKind::MemoryFormat:
    case ValueKind::Layout:
      return "torch." + *s_;
    case ValueKind::Device: return device_repr(*s_);
    case ValueKind::NodeRef: return node_->name();
  }
  return "?";
}

void Value::for_each_node(const std::function<void(Node*)>& fn) const {
  switch (kind_) {
    case ValueKind::NodeRef:
      fn(node_);
      return;
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Size:
    case ValueKind::Slice:
      for (const Value& v : *items_) v.for_each_node(fn);
      return;
    case ValueKind::Dict:
      for (const auto& kv : *dict_) kv.second.for_each_node(fn);
      return;
    default:
      return;
  }
}

Value Value::map_nodes(const std::function<Value(Node*)>& fn) const {
  switch (kind_) {
    case ValueKind::NodeRef:
      return fn(node_);
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Size:
    case ValueKind::Slice: {
      ValueList mapped;
      mapped.reserve(items_->size());
      for (const Value& v : *items_) mapped.push_back(v.map_nodes(fn));
      Value out = tuple(std::move(mapped));
      out.kind_ = kind_;
      return out;
    }
    case ValueKind::Dict: {
      Kwargs mapped;
      mapped.reserve(dict_->size());
      for (const auto& kv : *dict_) mapped.emplace_back(kv.first, kv.second.map_nodes(fn));
      return dict(std::move(mapped));
    }
    default:
      return *this;
  }
}

bool Value::operator==(const Value& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case ValueKind::None:
    case ValueKind::Ellipsis:
      return true;
    case ValueKind::Bool: return b_ == other.b_;
    case ValueKind::Int: return i_ == other.i_;
    case ValueKind::Float: return float_equal(d_, other.d_);
    case ValueKind::Str:
    case ValueKind::Dtype:
    case ValueKind::Device:
    case ValueKind::MemoryFormat:
    case ValueKind::Layout:
      return *s_ == *other.s_;
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Size:
    case ValueKind::Slice:
      return items_ == other.items_ || *items_ == *other.items_;
    case ValueKind::Dict: {
      // As Python's dict ==: same keys with equal values, in any order.
      if (dict_->size() != other.dict_->size()) return false;
      for (const auto& kv : *dict_) {
        bool found = false;
        for (const auto& okv : *other.dict_) {
          if (okv.first == kv.first) {
            if (!(okv.second == kv.second)) return false;
            found = true;
            break;
          }
        }
        if (!found) return false;
      }
      return true;
    }
    case ValueKind::NodeRef: return node_ == other.node_;
  }
  return false;
}

}  // namespace fx
