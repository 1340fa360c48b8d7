#include "api/model.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "ir/python_code.h"
#include "ir/tabular.h"
#include "serialize/reader.h"
#include "serialize/value_json.h"
#include "serialize/writer.h"
#include "support/error.h"

namespace fx {
namespace {

using ojson = nlohmann::ordered_json;

// The reader accepts version "1" only (docs/format.md), so every loaded model is of that version.
constexpr const char* kFormatVersion = "1";

std::string dump(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

// A meta "shape" ($size, or a sequence of them) as JSON: [2, 3] for a Size, nested lists for sequences,
// null when unknown (or symbolic).
ojson shape_json(const Value* v) {
  if (!v) return nullptr;
  if (v->kind() == ValueKind::Size) {
    ojson dims = ojson::array();
    for (const Value& d : v->items()) {
      if (d.kind() != ValueKind::Int) return nullptr;
      dims.push_back(d.as_int());
    }
    return dims;
  }
  if (v->kind() == ValueKind::Tuple || v->kind() == ValueKind::List) {
    ojson items = ojson::array();
    for (const Value& x : v->items()) items.push_back(shape_json(&x));
    return items;
  }
  return nullptr;
}

ojson dtype_json(const Value* v) {
  if (!v) return nullptr;
  if (v->kind() == ValueKind::Dtype) return v->as_str();
  if (v->kind() == ValueKind::Tuple || v->kind() == ValueKind::List) {
    ojson items = ojson::array();
    for (const Value& x : v->items()) items.push_back(dtype_json(&x));
    return items;
  }
  return nullptr;
}

// The output node's value flattened to leaves with their paths ("[0]", "['logits']").
// The nesting the graph's code puts its flat outputs back into (a pytree skeleton: tuples and lists as
// arrays, dicts — Hugging Face's ModelOutput, namedtuples — as objects, null for each flat output in order).
ojson structure_json(const Value& v) {
  if (v.kind() == ValueKind::Tuple || v.kind() == ValueKind::List) {
    ojson a = ojson::array();
    for (const Value& x : v.items()) a.push_back(structure_json(x));
    return a;
  }
  if (v.kind() == ValueKind::Dict) {
    ojson o = ojson::object();
    for (const auto& [k, x] : v.dict_items()) o[k] = structure_json(x);
    return o;
  }
  return nullptr;
}

void output_leaves(const Value& v, const std::string& path, ojson& out) {
  if (v.kind() == ValueKind::Tuple || v.kind() == ValueKind::List) {
    for (size_t i = 0; i < v.items().size(); ++i)
      output_leaves(v.items()[i], path + "[" + std::to_string(i) + "]", out);
    return;
  }
  if (v.kind() == ValueKind::Dict) {
    for (const auto& [k, x] : v.dict_items()) output_leaves(x, path + "[" + python_str_repr(k) + "]", out);
    return;
  }
  ojson leaf;
  leaf["name"] = path.empty() ? "output" : path;
  if (v.is_node()) {
    const Node* n = v.as_node();
    leaf["node"] = n->name();
    leaf["shape"] = shape_json(n->meta_value("shape"));
    leaf["dtype"] = dtype_json(n->meta_value("dtype"));
  } else {
    leaf["node"] = nullptr;
    leaf["value"] = v.repr();
    leaf["shape"] = nullptr;
    leaf["dtype"] = nullptr;
  }
  out.push_back(std::move(leaf));
}

struct TensorStats {
  int64_t count = 0, tensors = 0, bytes = 0;
  ojson json() const { return ojson{{"count", count}, {"tensors", tensors}, {"bytes", bytes}}; }
};

}  // namespace

std::unique_ptr<Model> Model::load(const uint8_t* data, size_t size, const std::string& source,
                                   bool allow_unsupported) {
  FX_CHECK(data != nullptr || size == 0, source + ": no data");
  uint8_t* block = alloc_file_block(size);
  if (!block) throw FxError(source + ": out of memory: cannot allocate " + std::to_string(size) + " bytes");
  std::shared_ptr<uint8_t> file = own_file_block(block);
  if (size) std::memcpy(block, data, size);
  return load_block(std::move(file), size, source, allow_unsupported);
}

std::unique_ptr<Model> Model::load_block(std::shared_ptr<uint8_t> file, size_t size, const std::string& source,
                                   bool allow_unsupported) {
  FX_CHECK(file != nullptr || size == 0, source + ": no data");
  try {
    auto model = std::make_unique<Model>(read_fxw_block(std::move(file), size), source);
    // Load-time planning: the plan resolves every op now, so the first run pays nothing extra. It
    // refuses a graph with unsupported ops (one list of them all); inspection-only loads keep the model.
    try {
      model->plan();
    } catch (const FxError&) {
      if (!allow_unsupported) throw;  // inspection only: run() reports it again
    }
    return model;
  } catch (const FxError& e) {
    // Load errors name the file, so a user with many models knows which one is bad.
    throw FxError(source + ": " + e.bare_message(), e.node());
  }
}

Model::Model(std::unique_ptr<GraphModule> gm, std::string source) : gm_(std::move(gm)), source_(std::move(source)) {
  FX_CHECK(gm_ != nullptr, "Model: no GraphModule");
}

Model::~Model() = default;

std::unique_ptr<Model> Model::empty() {
  auto gm = std::make_unique<GraphModule>();
  gm->modules()[""] = ModuleInfo{"torch.nn.modules.module.Module", {}};
  gm->producer().tracer = "graph";
  return std::make_unique<Model>(std::move(gm), "<new>");
}

void Model::graph_changed(bool semantics_kept) {
  plan_.reset();
  if (!semantics_kept) gm_->reference() = Reference{};
}

std::string Model::print_tabular() const { return fx::print_tabular(gm_->graph()); }

std::string Model::code() const {
  const PyTreeCodegen& tree = gm_->pytree();
  if (!tree.present) return python_code(gm_->graph());
  return python_code(gm_->graph(), pytree_code(tree.orig_args, tree.has_inputs ? &tree.inputs : nullptr,
                                               tree.has_outputs ? &tree.outputs : nullptr));
}

std::vector<std::string> Model::input_names() const {
  std::vector<std::string> names;
  for (const Node* n : gm_->graph().nodes())
    if (n->op() == Op::Placeholder) names.push_back(n->name());
  return names;
}

std::string Model::info_json() const {
  const Graph& g = gm_->graph();
  ojson j;
  j["source"] = source_;
  j["format"] = "fxwasm";
  j["format_version"] = kFormatVersion;
  j["producer"] = ojson{{"torch", gm_->producer().torch_version},
                        {"exporter", gm_->producer().exporter_version},
                        {"tracer", gm_->producer().tracer}};
  j["nodes"] = g.size();
  ojson ops = ojson::object(), targets = ojson::object(), inputs = ojson::array(), outputs = ojson::array();
  for (const Node* n : g.nodes()) {
    const std::string op = op_name(n->op());
    ops[op] = ops.value(op, 0) + 1;
    std::string key;
    if (n->op() == Op::CallFunction) key = n->target();
    else if (n->op() == Op::CallMethod) key = "method " + n->target();
    else if (n->op() == Op::CallModule) {
      auto m = gm_->modules().find(n->target());
      key = "module " + (m != gm_->modules().end() ? m->second.type : n->target());
    }
    if (!key.empty()) targets[key] = targets.value(key, 0) + 1;
    if (n->op() == Op::Placeholder) {
      inputs.push_back(ojson{{"name", n->name()}, {"target", n->target()},
                             {"shape", shape_json(n->meta_value("shape"))},
                             {"dtype", dtype_json(n->meta_value("dtype"))}});
    }
    if (n->op() == Op::Output && !n->args().empty()) output_leaves(n->args()[0], "", outputs);
  }
  j["ops"] = std::move(ops);
  j["targets"] = std::move(targets);
  j["inputs"] = std::move(inputs);
  j["outputs"] = std::move(outputs);
  const PyTreeCodegen& tree = gm_->pytree();
  if (tree.present && tree.has_outputs) j["output_structure"] = structure_json(tree.outputs);  // null: one leaf
  TensorStats params, buffers, constants;
  for (const auto& [name, t] : gm_->tensors()) {
    TensorStats& s = t.kind == TensorKind::Parameter ? params : t.kind == TensorKind::Buffer ? buffers : constants;
    s.count += t.tensor.numel();
    s.tensors += 1;
    s.bytes += static_cast<int64_t>(t.tensor.nbytes());
  }
  j["parameters"] = params.json();
  j["buffers"] = buffers.json();
  j["constants"] = constants.json();
  j["modules"] = gm_->modules().size();
  j["has_reference"] = gm_->reference().present;
  ojson unsupported = ojson::array();
  for (const auto& u : find_unsupported(*gm_)) {
    ojson nodes = ojson::array();
    for (const auto& name : u.nodes) nodes.push_back(name);
    unsupported.push_back(ojson{{"kind", u.kind}, {"target", u.target}, {"nodes", std::move(nodes)}});
  }
  j["unsupported"] = std::move(unsupported);
  return dump(j);
}

std::string Model::graph_json() const {
  ojson nodes = ojson::array();
  for (const Node* n : gm_->graph().nodes()) {
    ojson j;
    j["op"] = op_name(n->op());
    j["name"] = n->name();
    j["target"] = n->target();
    ojson args = ojson::array();
    for (const Value& a : n->args()) args.push_back(value_to_json(a));
    j["args"] = std::move(args);
    ojson kwargs = ojson::object();
    for (const auto& [k, v] : n->kwargs()) kwargs[k] = value_to_json(v);
    j["kwargs"] = std::move(kwargs);
    ojson users = ojson::array();
    for (const Node* u : n->users()) users.push_back(u->name());
    j["users"] = std::move(users);
    if (!n->type_expr().empty()) j["type"] = n->type_expr();
    ojson meta = ojson::object();
    for (const auto& [k, v] : n->meta()) meta[k] = value_to_json(v);
    j["meta"] = std::move(meta);
    nodes.push_back(std::move(j));
  }
  return dump(ojson{{"nodes", std::move(nodes)}});
}

Plan& Model::plan() {
  if (!plan_) plan_ = std::make_unique<Plan>(*gm_);
  return *plan_;
}

Object Model::run(const std::vector<Object>& inputs, Profile* profile) { return plan().run(inputs, profile); }

BufferPool::Stats Model::run_memory() const { return plan_ ? plan_->memory() : BufferPool::Stats{}; }

CheckReport Model::check(double rtol, double atol, bool equal_nan) {
  CheckReport report;
  report.rtol = rtol;
  report.atol = atol;
  report.equal_nan = equal_nan;
  const Reference& ref = gm_->reference();
  if (!ref.present) return report;  // status NoReference
  const Object actual = run(ref.inputs);
  report.outputs = compare_outputs(actual, ref.outputs, rtol, atol, equal_nan);
  report.status = CheckStatus::Pass;
  for (const LeafCheck& l : report.outputs)
    if (!l.pass) report.status = CheckStatus::Fail;
  return report;
}

std::vector<uint8_t> Model::save() const { return write_fxw(*gm_); }

std::string profile_json(const Profile& profile) {
  ojson nodes = ojson::array();
  for (const NodeProfile& p : profile.nodes) {
    ojson j;
    j["op"] = op_name(p.op);
    j["name"] = p.name;
    j["target"] = p.target;
    j["shape"] = p.is_tensor ? ojson(p.shape) : ojson(nullptr);
    j["dtype"] = p.is_tensor ? ojson(dtype_name(p.dtype)) : ojson(nullptr);
    j["result"] = p.result;
    j["ms"] = p.ms;
    if (!p.fused_into.empty()) j["fused_into"] = p.fused_into;
    nodes.push_back(std::move(j));
  }
  return dump(nodes);
}

}  // namespace fx
