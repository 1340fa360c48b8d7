#include "serialize/reader.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "serialize/json_parse.h"
#include "serialize/limits.h"
#include "serialize/pytree_json.h"
#include "serialize/quantized_json.h"
#include "serialize/safetensors.h"
#include "serialize/value_json.h"
#include "support/error.h"

namespace fx {
namespace {

[[noreturn]] void bad(const std::string& message) { throw FxError("fxwasm file: " + message); }

const Json* member(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const std::string& string_field(const Json& obj, const char* key, const std::string& where,
                                const std::string& node = {}) {
  const Json* j = member(obj, key);
  if (!j || !j->is_string()) {
    const std::string msg = where + "." + key + " is missing or not a string";
    if (node.empty()) bad(msg);
    throw FxError(msg, node);
  }
  const std::string& s = j->get_ref<const std::string&>();
  if (s.size() > fxw::kMaxStringBytes) fxw::check_string_length(s, where + "." + key, node);  // throws
  return s;
}

TensorKind parse_kind(const std::string& name, const std::string& kind, bool* is_reference, bool* is_scale) {
  *is_reference = false;
  *is_scale = kind == "quant_scale";  // a quantized tensor's scales (serialize/quantized_json.h)
  if (*is_scale) return TensorKind::Constant;
  if (kind == "parameter") return TensorKind::Parameter;
  if (kind == "buffer") return TensorKind::Buffer;
  if (kind == "constant") return TensorKind::Constant;
  if (kind == "reference") {
    *is_reference = true;
    return TensorKind::Constant;
  }
  bad("program.tensors['" + name + "'] is '" + fxw::clip(kind) + "'; expected parameter, buffer, constant, reference or quant_scale");
}

void read_producer(const Json& program, GraphModule& gm) {
  const Json* p = member(program, "producer");
  if (!p) return;
  if (!p->is_object()) bad("program.producer must be an object");
  auto opt = [&](const char* key) -> std::string {
    const Json* j = member(*p, key);
    if (!j) return {};
    if (!j->is_string()) bad(std::string("program.producer.") + key + " must be a string");
    fxw::check_string_length(j->get_ref<const std::string&>(), std::string("program.producer.") + key);
    return j->get<std::string>();
  };
  gm.producer().torch_version = opt("torch");
  gm.producer().exporter_version = opt("exporter");
  gm.producer().tracer = opt("tracer");
}

void read_modules(const Json& program, GraphModule& gm) {
  const Json* mods = member(program, "modules");
  if (!mods) return;
  if (!mods->is_object()) bad("program.modules must be an object");
  for (auto it = mods->begin(); it != mods->end(); ++it) {
    const std::string where = "program.modules['" + it.key() + "']";
    fxw::check_string_length(it.key(), "program.modules name");
    if (!it.value().is_object()) bad(where + " must be an object");
    ModuleInfo info;
    info.type = string_field(it.value(), "type", where);
    if (const Json* hp = member(it.value(), "hparams")) {
      if (!hp->is_object()) bad(where + ".hparams must be an object");
      ValueContext ctx{"", "fxwasm file: " + where + ".hparams"};
      for (auto h = hp->begin(); h != hp->end(); ++h) {
        fxw::check_string_length(h.key(), ctx.field);
        info.hparams.emplace_back(h.key(), value_from_json(h.value(), NodeResolver{}, ctx));
      }
    }
    gm.modules()[it.key()] = std::move(info);
  }
}

// A bool tensor's bytes must each be 0 or 1, as torch stores them: any other byte would be true for `x` and
// for `not x` alike in the kernels that test bytes as they are.
void check_bool_bytes(const std::string& name, const uint8_t* bytes, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (bytes[i] > 1)
      bad("tensor '" + fxw::clip(name) + "': BOOL element " + std::to_string(i) + " is byte " +
          std::to_string(bytes[i]) + "; a bool must be 0 or 1");
}

// Tensors: every header tensor (but __pad__) is listed in program.tensors and vice versa. Reference
// tensors go to `reference`, the rest to the module.
void read_tensors(const Json& program, const fxw::Container& c, const std::shared_ptr<uint8_t>& file,
                  GraphModule& gm, std::unordered_map<std::string, Tensor>& reference,
                  std::unordered_map<std::string, Tensor>& scales) {
  const Json* kinds = member(program, "tensors");
  if (kinds && !kinds->is_object()) bad("program.tensors must be an object");
  std::unordered_set<std::string_view> entries;
  for (const fxw::TensorEntry& e : c.tensors) entries.insert(e.name);
  // program.tensors by name (a Json object finds a key by scanning it: quadratic over a few hundred tensors).
  std::unordered_map<std::string_view, const Json*> listed;
  if (kinds) {
    for (auto it = kinds->begin(); it != kinds->end(); ++it) {
      if (!entries.count(it.key())) bad("program.tensors lists '" + fxw::clip(it.key()) + "', which is not in the header");
      listed.emplace(it.key(), &it.value());
    }
  }
  for (const fxw::TensorEntry& e : c.tensors) {
    auto found = listed.find(e.name);
    const Json* kind = found == listed.end() ? nullptr : found->second;
    if (!kind) bad("tensor '" + e.name + "' of the header is not listed in program.tensors");
    if (!kind->is_string()) bad("program.tensors['" + e.name + "'] must be a string");
    bool is_reference = false, is_scale = false;
    const TensorKind k = parse_kind(e.name, kind->get<std::string>(), &is_reference, &is_scale);
    // c.data points into `file`, which the view keeps alive (the const is the parser's: the block is ours).
    uint8_t* bytes = file.get() + (c.data - file.get()) + e.begin;
    if (e.dtype == DType::Bool) check_bool_bytes(e.name, bytes, static_cast<size_t>(e.end - e.begin));
    Tensor t = Tensor::view_bytes(e.shape, e.dtype, bytes, static_cast<size_t>(e.end - e.begin), file);
    if (is_reference) {
      reference[e.name] = std::move(t);
    } else if (is_scale) {
      scales[e.name] = std::move(t);
    } else {
      gm.tensors()[e.name] = NamedTensor{k, std::move(t)};
    }
  }
}

void read_nodes(const Json& program, GraphModule& gm) {
  const Json* nodes = member(program, "nodes");
  if (!nodes || !nodes->is_array()) bad("program.nodes is missing or not an array");
  if (nodes->size() > fxw::kMaxNodes)
    bad("program has " + std::to_string(nodes->size()) + " nodes; the limit is " + std::to_string(fxw::kMaxNodes));

  Graph& graph = gm.graph();
  // Names view the program's strings, which outlive this function's maps.
  std::unordered_map<std::string_view, Node*> by_name;  // file names (the graph may rename, never the file)
  std::unordered_set<std::string_view> later;            // names defined further down: forward references
  for (const Json& jn : *nodes)
    if (jn.is_object())
      if (const Json* n = member(jn, "name"); n && n->is_string()) later.insert(n->get_ref<const std::string&>());
  std::string current;
  NodeResolver resolve = [&](const std::string& name) -> Node* {
    auto it = by_name.find(name);
    if (it != by_name.end()) return it->second;
    if (name == current) throw FxError("refers to itself (a cycle)", current);
    if (later.count(name))
      throw FxError("refers to node '" + name + "' before it is defined (a node must come after its inputs)",
                    current);
    return nullptr;
  };
  size_t index = 0;
  for (const Json& jn : *nodes) {
    const std::string where = "program.nodes[" + std::to_string(index++) + "]";
    if (!jn.is_object()) bad(where + " must be an object");
    const std::string& name = string_field(jn, "name", where);
    if (name.empty()) bad(where + ".name is empty");
    if (by_name.count(name)) throw FxError("duplicate node name", name);
    if (!graph.names().accepts(name))
      throw FxError(where + ".name '" + name +
                        "' is not a name FX would give a node (an identifier of letters, digits and '_', "
                        "not a Python keyword or builtin, unique)",
                    name);
    current = name;
    const std::string& op_text = string_field(jn, "op", where, name);
    Op op;
    try {
      op = parse_op(op_text);
    } catch (const FxError&) {
      throw FxError("unknown op '" + op_text +
                    "' (expected placeholder, get_attr, call_function, call_module, call_method or output)", name);
    }
    const std::string& target = string_field(jn, "target", where, name);
    std::string type_expr;
    if (const Json* t = member(jn, "type")) {
      if (!t->is_null()) {
        if (!t->is_string()) throw FxError("type must be a string", name);
        type_expr = t->get<std::string>();
        fxw::check_string_length(type_expr, "type", name);
      }
    }

    ValueList args;
    if (const Json* a = member(jn, "args")) {
      if (!a->is_array()) throw FxError("args must be a JSON array", name);
      ValueContext ctx{name, "args"};
      for (const Json& item : *a) args.push_back(value_from_json(item, resolve, ctx));
    }
    Kwargs kwargs;
    if (const Json* k = member(jn, "kwargs")) {
      if (!k->is_object()) throw FxError("kwargs must be a JSON object", name);
      ValueContext ctx{name, "kwargs"};
      for (auto it = k->begin(); it != k->end(); ++it) {
        fxw::check_string_length(it.key(), "kwargs", name);
        kwargs.emplace_back(it.key(), value_from_json(it.value(), resolve, ctx));
      }
    }
    Kwargs meta;
    if (const Json* m = member(jn, "meta")) {
      if (!m->is_object()) throw FxError("meta must be a JSON object", name);
      ValueContext ctx{name, "meta"};
      for (auto it = m->begin(); it != m->end(); ++it) {
        fxw::check_string_length(it.key(), "meta", name);
        meta.emplace_back(it.key(), value_from_json(it.value(), resolve, ctx));
      }
    }

    switch (op) {
      case Op::GetAttr:
        if (!gm.tensors().count(target) && !gm.modules().count(target))
          throw FxError("get_attr target '" + target + "' names no tensor or module of the file", name);
        break;
      case Op::CallModule:
        if (!gm.modules().count(target))
          throw FxError("call_module target '" + target + "' is not in program.modules", name);
        break;
      case Op::Output:
        if (args.size() != 1)
          throw FxError("output takes exactly one argument, found " + std::to_string(args.size()), name);
        break;
      default:
        if (target.empty()) throw FxError("empty target", name);
    }

    Node* node = graph.create_node(op, target, std::move(args), std::move(kwargs), name, std::move(type_expr));
    for (auto& [key, value] : meta) node->set_meta(key, std::move(value));
    by_name[name] = node;
  }
  graph.lint();  // one output, last; users in sync — the IR's own invariants
}

void read_reference(const Json& program, GraphModule& gm, const std::unordered_map<std::string, Tensor>& tensors) {
  const Json* r = member(program, "reference");
  if (!r || r->is_null()) return;
  if (!r->is_object()) bad("program.reference must be an object");
  const Json* inputs = member(*r, "inputs");
  const Json* outputs = member(*r, "outputs");
  if (!inputs || !inputs->is_array()) bad("program.reference.inputs is missing or not an array");
  if (!outputs) bad("program.reference.outputs is missing");
  size_t placeholders = 0;
  for (Node* n : gm.graph().nodes())
    if (n->op() == Op::Placeholder) ++placeholders;
  if (inputs->size() != placeholders)
    bad("program.reference has " + std::to_string(inputs->size()) + " inputs but the graph has " +
        std::to_string(placeholders) + " placeholders");
  // In the file, a $tensor names a reference tensor.
  TensorReader find = [&](const Json& body) -> Tensor {
    if (!body.is_string()) throw FxError("$tensor needs the name of a reference tensor, found a JSON " + std::string(body.type_name()));
    const std::string& name = body.get_ref<const std::string&>();
    auto it = tensors.find(name);
    if (it == tensors.end()) throw FxError("$tensor '" + fxw::clip(name, 64) + "' is not a reference tensor of this file");
    return it->second;
  };
  Reference& ref = gm.reference();
  ValueContext in_ctx{"", "fxwasm file: program.reference.inputs"};
  for (const Json& x : *inputs) ref.inputs.push_back(object_from_json(x, find, in_ctx));
  ref.outputs = object_from_json(*outputs, find, ValueContext{"", "fxwasm file: program.reference.outputs"});
  ref.present = true;
}

}  // namespace

uint8_t* alloc_file_block(size_t size) {
  constexpr size_t kAlign = 64;
  if (size > SIZE_MAX - 2 * kAlign) return nullptr;
  const size_t padded = (size + kAlign - 1) / kAlign * kAlign;
  return static_cast<uint8_t*>(std::aligned_alloc(kAlign, padded == 0 ? kAlign : padded));
}

std::shared_ptr<uint8_t> own_file_block(uint8_t* block) {
  return std::shared_ptr<uint8_t>(block, [](uint8_t* p) { std::free(p); });
}

std::unique_ptr<GraphModule> read_fxw(const uint8_t* data, size_t size) {
  if (data == nullptr && size != 0) bad("no data");
  uint8_t* block = alloc_file_block(size);
  if (!block) throw FxError("out of memory: cannot allocate " + std::to_string(size) + " bytes for the file");
  std::shared_ptr<uint8_t> file = own_file_block(block);
  if (size) std::memcpy(block, data, size);
  return read_fxw_block(std::move(file), size);
}

std::unique_ptr<GraphModule> read_fxw_block(std::shared_ptr<uint8_t> file, size_t size) {
  if (!file && size != 0) bad("no data");
  const fxw::Container c = fxw::parse_container(file.get(), size);
  Json program;
  try {
    program = fxw::parse_json_checked(c.program, "fxwasm file: program");
  } catch (const Json::exception& e) {
    bad("program is not valid JSON (" + fxw::clip(e.what(), 300) + ")");
  }
  if (!program.is_object()) bad("program must be a JSON object");

  auto gm = std::make_unique<GraphModule>();
  std::unordered_map<std::string, Tensor> reference_tensors, scale_tensors;
  read_producer(program, *gm);
  read_modules(program, *gm);
  read_tensors(program, c, file, *gm, reference_tensors, scale_tensors);
  read_quantized(program, scale_tensors, *gm);
  read_nodes(program, *gm);
  read_reference(program, *gm, reference_tensors);
  read_pytree(program, *gm);
  return gm;
}

}  // namespace fx
