#include "passes/shape_prop.h"

#include <unordered_map>

#include "exec/interpreter.h"
#include "support/error.h"

namespace fx {

bool shape_meta_of(const Object& o, Value& shape, Value& dtype) {
  if (o.is_tensor()) {
    ValueList dims;
    for (int64_t d : o.tensor().shape()) dims.push_back(Value::integer(d));
    shape = Value::size(std::move(dims));
    dtype = Value::dtype(dtype_name(o.tensor().dtype()));
    return true;
  }
  if (!o.is_sequence()) return false;
  ValueList shapes, dtypes;
  bool any = false;
  for (const Object& item : o.items()) {
    Value s, d;
    any = shape_meta_of(item, s, d) || any;
    shapes.push_back(std::move(s));
    dtypes.push_back(std::move(d));
  }
  if (!any) return false;
  shape = Value::tuple(std::move(shapes));
  dtype = Value::tuple(std::move(dtypes));
  return true;
}

Object to_meta(const Object& o) {
  switch (o.kind()) {
    case Object::Kind::Tensor: return Object(Tensor::meta(o.tensor().shape(), o.tensor().dtype()));
    case Object::Kind::Tuple: case Object::Kind::List: {
      std::vector<Object> items;
      for (const Object& x : o.items()) items.push_back(to_meta(x));
      return o.kind() == Object::Kind::Tuple ? Object::tuple(std::move(items)) : Object::list(std::move(items));
    }
    case Object::Kind::Dict: {
      std::vector<std::pair<std::string, Object>> items;
      for (const auto& [k, x] : o.dict_items()) items.emplace_back(k, to_meta(x));
      return Object::dict(std::move(items));
    }
    case Object::Kind::Value: break;
  }
  return o;
}

std::vector<Object> meta_inputs(const GraphModule& gm) {
  std::vector<Object> inputs;
  for (const Node* n : gm.graph().nodes()) {
    if (n->op() != Op::Placeholder) continue;
    const Value* shape = n->meta_value("shape");
    const Value* dtype = n->meta_value("dtype");
    if (!shape || shape->kind() != ValueKind::Size)
      throw FxError("the input's shape is unknown (no meta \"shape\"): give example inputs", n->name());
    Shape dims;
    for (const Value& d : shape->items()) {
      if (d.kind() != ValueKind::Int) throw FxError("the input's shape is symbolic: give example inputs", n->name());
      dims.push_back(d.as_int());
    }
    const DType dt = dtype && dtype->kind() == ValueKind::Dtype ? dtype_from_name(dtype->as_str()) : DType::Float32;
    inputs.emplace_back(Tensor::meta(dims, dt));
  }
  return inputs;
}

bool ShapePropagation::run(GraphModule& gm) {
  std::vector<Object> inputs;
  if (inputs_) {
    for (const Object& x : *inputs_) inputs.push_back(to_meta(x));
  } else {
    inputs = meta_inputs(gm);
  }
  std::unordered_map<const Node*, std::pair<Value, Value>> found;
  Interpreter interpreter(gm);
  interpreter.infer(inputs, [&found](const Node& n, const Object* result) {
    Value shape, dtype;
    if (result && n.op() != Op::Output && shape_meta_of(*result, shape, dtype))
      found[&n] = {std::move(shape), std::move(dtype)};
  });
  bool changed = false;
  for (Node* n : gm.graph().nodes()) {
    auto it = found.find(n);
    if (it == found.end()) continue;
    const Value* old_shape = n->meta_value("shape");
    const Value* old_dtype = n->meta_value("dtype");
    if (!old_shape || *old_shape != it->second.first || !old_dtype || *old_dtype != it->second.second) {
      n->set_meta("shape", it->second.first);
      n->set_meta("dtype", it->second.second);
      changed = true;
    }
  }
  return changed;
}

}  // namespace fx
