#include "passes/shape_prop.h"

#include <random>
#include <unordered_map>

#include "runtime/interpreter.h"
#include "support/error.h"

namespace fx {
namespace {

template <typename T, typename F>
void fill(Tensor& t, F&& next) {
  T* p = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<T>(next());
}

Tensor random_tensor(const Shape& shape, DType dtype, std::mt19937_64& rng) {
  Tensor t = Tensor::empty(shape, dtype);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> digit(0, 9);
  switch (dtype) {
    case DType::Float32: fill<float>(t, [&] { return real(rng); }); break;
    case DType::Float64: fill<double>(t, [&] { return real(rng); }); break;
    case DType::Int64: fill<int64_t>(t, [&] { return digit(rng); }); break;
    case DType::Int32: fill<int32_t>(t, [&] { return digit(rng); }); break;
    case DType::Int16: fill<int16_t>(t, [&] { return digit(rng); }); break;
    case DType::Int8: fill<int8_t>(t, [&] { return digit(rng); }); break;
    case DType::UInt8: fill<uint8_t>(t, [&] { return digit(rng); }); break;
    case DType::Bool: fill<uint8_t>(t, [&] { return digit(rng) % 2; }); break;
    case DType::Float16: fill<uint16_t>(t, [] { return 0x3c00; }); break;   // 1.0
    case DType::BFloat16: fill<uint16_t>(t, [] { return 0x3f80; }); break;  // 1.0
  }
  return t;
}

// The meta a result gets: (shape, dtype) for a tensor, tuples of them for a sequence holding tensors.
bool meta_of(const Object& o, Value& shape, Value& dtype) {
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
    any = meta_of(item, s, d) || any;
    shapes.push_back(std::move(s));
    dtypes.push_back(std::move(d));
  }
  if (!any) return false;
  shape = Value::tuple(std::move(shapes));
  dtype = Value::tuple(std::move(dtypes));
  return true;
}

}  // namespace

std::vector<Object> random_inputs(const GraphModule& gm, uint64_t seed) {
  std::mt19937_64 rng(seed);
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
    inputs.emplace_back(random_tensor(dims, dt, rng));
  }
  return inputs;
}

bool ShapePropagation::run(GraphModule& gm) {
  const std::vector<Object> inputs = inputs_ ? *inputs_ : random_inputs(gm);
  std::unordered_map<const Node*, std::pair<Value, Value>> found;
  Interpreter interpreter(gm);
  interpreter.set_node_hook([&found](const Node& n, const Object& result) {
    Value shape, dtype;
    if (n.op() != Op::Output && meta_of(result, shape, dtype)) found[&n] = {std::move(shape), std::move(dtype)};
  });
  interpreter.run(inputs);
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
