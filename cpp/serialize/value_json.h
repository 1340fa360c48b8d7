// The one value dialect (docs/format.md §3): Value ⇄ JSON for the graph (node args, kwargs, meta, module
// hyperparameters), and Object ⇄ JSON for runtime values — the file's reference inputs and outputs and the
// values that cross the bindings (api/wire.h). Both sides write the same JSON for the same Python value;
// they differ only in the body of a tensor's {"$tensor": body}, which the caller reads and writes.
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

// Runtime values. A tensor is {"$tensor": body}: `write_tensor(tensor, path)` makes the body — the name of
// a reference tensor in the file, a heap block's description on the wire; `path` is the dotted position of
// the tensor in the value (".0.1", ".key"). Tuples, lists and dicts count one level each (kMaxObjectDepth).
using TensorWriter = std::function<Json(const Tensor&, const std::string& path)>;
Json object_to_json(const Object& o, const TensorWriter& write_tensor, const std::string& path = {});
// `read_tensor(body)` makes the tensor a {"$tensor": body} stands for, or throws an FxError whose message
// says what is wrong with the body (the decoder prefixes the field).
using TensorReader = std::function<Tensor(const Json& body)>;
Object object_from_json(const Json& j, const TensorReader& read_tensor, const ValueContext& ctx);

}  // namespace fx
