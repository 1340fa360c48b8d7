// Value ⇄ JSON in the .fxw value encoding (docs/format.md §3), and the reference values (Objects, which
// may hold tensors as {"$tensor": name}).
#pragma once
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "ir/value.h"
#include "program/object.h"

namespace fx {

using Json = nlohmann::ordered_json;

// Where a value sits, for error messages: FxError("<field>: <what>", node), e.g.
// "node 'add': args refer to unknown node 'foo'".
struct ValueContext {
  std::string node;   // the node's name, empty outside nodes
  std::string field;  // "args", "kwargs", "meta", "module 'layer1' hparams", "reference outputs"
};

// Resolves {"$node": name} to an earlier node, or nullptr when there is none. An empty resolver means
// node references are not allowed in this field.
using NodeResolver = std::function<Node*(const std::string&)>;

Json value_to_json(const Value& v);
// Decodes one value, validating tags, names and limits (strings ≤ 64 KiB, ints within int64). The JSON is
// assumed to be within the depth limit (the reader scans the text before parsing).
Value value_from_json(const Json& j, const NodeResolver& nodes, const ValueContext& ctx);

// Reference values. `name_tensor(tensor, path)` returns the name under which the writer stores a tensor;
// `path` is the dotted position of the tensor in the value (".0.1", ".key").
using TensorNamer = std::function<std::string(const Tensor&, const std::string& path)>;
Json object_to_json(const Object& o, const TensorNamer& name_tensor, const std::string& path = {});
// `find_tensor(name)` returns a reference tensor or nullptr when the file has none of that name.
using TensorFinder = std::function<const Tensor*(const std::string&)>;
Object object_from_json(const Json& j, const TensorFinder& find_tensor, const ValueContext& ctx);

}  // namespace fx
