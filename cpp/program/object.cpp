#include "program/object.h"

#include <algorithm>

#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {

// A container's items with its depth, computed once when it is made.
struct Object::Sequence {
  std::vector<Object> items;
  size_t depth;
};
struct Object::DictItems {
  std::vector<std::pair<std::string, Object>> items;
  size_t depth;
};

namespace {

std::vector<Object> objects_of(const ValueList& items) {
  std::vector<Object> out;
  out.reserve(items.size());
  for (const Value& v : items) out.emplace_back(v);
  return out;
}

size_t checked_depth(size_t deepest_item) {
  const size_t depth = deepest_item + 1;
  if (depth > kMaxObjectDepth)
    throw FxError("value nests deeper than " + std::to_string(kMaxObjectDepth) + " levels (tuples, lists, dicts)");
  return depth;
}

size_t depth_of(const std::vector<Object>& items) {
  size_t deepest = 0;
  for (const Object& o : items) deepest = std::max(deepest, o.depth());
  return checked_depth(deepest);
}

size_t depth_of(const std::vector<std::pair<std::string, Object>>& items) {
  size_t deepest = 0;
  for (const auto& kv : items) deepest = std::max(deepest, kv.second.depth());
  return checked_depth(deepest);
}

}  // namespace

Object::Object(Value v) : kind_(Kind::Value) {
  switch (v.kind()) {
    case ValueKind::NodeRef:
      throw FxError("cannot make a runtime object of a reference to node '" + v.repr() + "'");
    case ValueKind::Tuple:
    case ValueKind::Size:  // torch.Size is a tuple subclass: at run time it behaves as one
      *this = tuple(objects_of(v.items()));
      return;
    case ValueKind::List:
      *this = list(objects_of(v.items()));
      return;
    case ValueKind::Dict: {
      std::vector<std::pair<std::string, Object>> items;
      for (const auto& [k, item] : v.dict_items()) items.emplace_back(k, Object(item));
      *this = dict(std::move(items));
      return;
    }
    case ValueKind::None: return;
    default:
      // Slices may hold node references too; those are resolved before reaching here.
      v.for_each_node([](Node*) { throw FxError("cannot make a runtime object of a value holding a node"); });
      p_ = std::make_shared<const Value>(std::move(v));
  }
}

Object::Object(Tensor t) : kind_(Kind::Tensor), p_(std::make_shared<const Tensor>(std::move(t))) {}

Object Object::tuple(std::vector<Object> items) {
  Object o;
  o.kind_ = Kind::Tuple;
  const size_t depth = depth_of(items);
  o.p_ = std::make_shared<const Sequence>(Sequence{std::move(items), depth});
  return o;
}

Object Object::list(std::vector<Object> items) {
  Object o;
  o.kind_ = Kind::List;
  const size_t depth = depth_of(items);
  o.p_ = std::make_shared<const Sequence>(Sequence{std::move(items), depth});
  return o;
}

Object Object::dict(std::vector<std::pair<std::string, Object>> items) {
  Object o;
  o.kind_ = Kind::Dict;
  const size_t depth = depth_of(items);
  o.p_ = std::make_shared<const DictItems>(DictItems{std::move(items), depth});
  return o;
}

size_t Object::depth() const {
  if (is_sequence()) return static_cast<const Sequence*>(p_.get())->depth;
  if (kind_ == Kind::Dict) return static_cast<const DictItems*>(p_.get())->depth;
  return 0;
}

const Tensor& Object::tensor() const {
  if (kind_ != Kind::Tensor) throw FxError("expected a Tensor, got " + describe());
  return *static_cast<const Tensor*>(p_.get());
}

const Value& Object::value() const {
  if (kind_ != Kind::Value) throw FxError("expected a scalar or constant, got " + describe());
  static const Value none;
  return p_ ? *static_cast<const Value*>(p_.get()) : none;
}

const std::vector<Object>& Object::items() const {
  if (!is_sequence()) throw FxError("expected a tuple or list, got " + describe());
  return static_cast<const Sequence*>(p_.get())->items;
}

const std::vector<std::pair<std::string, Object>>& Object::dict_items() const {
  if (kind_ != Kind::Dict) throw FxError("expected a dict, got " + describe());
  return static_cast<const DictItems*>(p_.get())->items;
}

std::string Object::describe() const {
  switch (kind_) {
    case Kind::Tensor:
      if (!tensor().defined()) return "undefined Tensor";
      return std::string("Tensor(") + dtype_name(tensor().dtype()) + ", " + shape_to_string(tensor().shape()) + ")";
    case Kind::Tuple: return "tuple of " + std::to_string(items().size());
    case Kind::List: return "list of " + std::to_string(items().size());
    case Kind::Dict: return "dict of " + std::to_string(dict_items().size());
    case Kind::Value: break;
  }
  const Value& v = value();
  switch (v.kind()) {
    case ValueKind::None: return "None";
    case ValueKind::Bool: return "bool " + v.repr();
    case ValueKind::Int: return "int " + v.repr();
    case ValueKind::Float: return "float " + v.repr();
    case ValueKind::Str: return "str " + v.repr();
    default: return v.repr();
  }
}

}  // namespace fx
