#include "serialize/writer.h"

#include <map>
#include <set>

#include "serialize/limits.h"
#include "serialize/pytree_json.h"
#include "serialize/quantized_json.h"
#include "tensor/quantized.h"
#include "serialize/safetensors.h"
#include "support/error.h"

namespace fx {
namespace {


Json kwargs_json(const Kwargs& kwargs) {
  Json o = Json::object();
  for (const auto& [k, v] : kwargs) o[k] = value_to_json(v);
  return o;
}

Json node_json(const Node& n) {
  Json j = Json::object();
  j["op"] = op_name(n.op());
  j["name"] = n.name();
  j["target"] = n.target();
  Json args = Json::array();
  try {
    for (const Value& a : n.args()) args.push_back(value_to_json(a));
    j["args"] = std::move(args);
    j["kwargs"] = kwargs_json(n.kwargs());
    if (!n.type_expr().empty()) j["type"] = n.type_expr();
    if (!n.meta().empty()) j["meta"] = kwargs_json(n.meta());
  } catch (const FxError& e) {
    throw FxError(e.bare_message(), n.name());
  }
  return j;
}

}  // namespace

Json program_to_json(const GraphModule& gm, std::vector<std::pair<std::string, Tensor>>* reference_tensors) {
  Json program = Json::object();
  Json producer = Json::object();
  producer["torch"] = gm.producer().torch_version;
  producer["exporter"] = gm.producer().exporter_version;
  producer["tracer"] = gm.producer().tracer;
  program["producer"] = std::move(producer);

  Json nodes = Json::array();
  for (const Node* n : gm.graph().nodes()) nodes.push_back(node_json(*n));
  program["nodes"] = std::move(nodes);

  Json modules = Json::object();
  for (const auto& [name, info] : gm.modules()) {
    Json m = Json::object();
    m["type"] = info.type;
    m["hparams"] = kwargs_json(info.hparams);
    modules[name] = std::move(m);
  }
  program["modules"] = std::move(modules);

  Json tensors = Json::object();
  for (const auto& [name, t] : gm.tensors()) tensors[name] = tensor_kind_name(t.kind);
  // Weights stored quantized (docs/format.md §7): their scheme, and their scale tensors' kinds.
  const std::vector<QuantizedEntry> quantized = quantized_entries(gm);
  if (!quantized.empty()) program["quantized"] = quantized_to_json(quantized, tensors);

  const Reference& ref = gm.reference();
  if (ref.present) {
    std::set<std::string> used;
    for (const auto& [name, t] : gm.tensors()) used.insert(name);
    std::vector<std::pair<std::string, Tensor>> local;
    auto& out = reference_tensors ? *reference_tensors : local;
    auto namer = [&](const std::string& prefix) {
      return [&, prefix](const Tensor& t, const std::string& path) -> Json {
        std::string name = prefix + path;
        // dict keys may contain dots and collide with another path: keep names unique
        for (int k = 1; used.count(name); ++k) name = prefix + path + "~" + std::to_string(k);
        used.insert(name);
        tensors[name] = "reference";
        out.emplace_back(name, t);
        return name;
      };
    };
    Json r = Json::object();
    Json inputs = Json::array();
    for (size_t i = 0; i < ref.inputs.size(); ++i)
      inputs.push_back(object_to_json(ref.inputs[i], namer("__ref__.in." + std::to_string(i))));
    r["inputs"] = std::move(inputs);
    r["outputs"] = object_to_json(ref.outputs, namer("__ref__.out"));
    program["tensors"] = std::move(tensors);
    program["reference"] = std::move(r);
  } else {
    program["tensors"] = std::move(tensors);
  }
  if (Json tree = pytree_to_json(gm); !tree.is_null()) program["pytree"] = std::move(tree);
  return program;
}

std::vector<uint8_t> write_fxw(const GraphModule& gm) {
  for (const auto& [name, t] : gm.tensors())
    if (name.rfind("__pad__.", 0) == 0 || name.rfind("__ref__.", 0) == 0 || name == "__metadata__")
      throw FxError("tensor name '" + name + "' is reserved by the format");
  std::vector<std::pair<std::string, Tensor>> reference;
  const Json program = program_to_json(gm, &reference);
  std::string text;
  try {
    text = program.dump();
  } catch (const Json::exception& e) {
    throw FxError(std::string("cannot write the program (") + e.what() + ")");
  }
  if (fxw::json_nesting_depth(text.data(), text.size()) > fxw::kMaxJsonDepth)
    throw FxError("the program nests deeper than the format's limit of " + std::to_string(fxw::kMaxJsonDepth) +
                  " JSON levels");

  std::vector<fxw::TensorToWrite> tensors;
  const std::vector<QuantizedEntry> quantized = quantized_entries(gm);
  std::map<std::string, const QuantizedWeight*> stored;
  for (const QuantizedEntry& e : quantized) stored[e.name] = e.q;
  for (const auto& [name, t] : gm.tensors()) {
    auto q = stored.find(name);
    tensors.push_back({name, q == stored.end() ? &t.tensor : &q->second->data});
  }
  for (const QuantizedEntry& e : quantized)
    if (!e.scale_name.empty()) tensors.push_back({e.scale_name, &e.q->scale});
  for (const auto& [name, t] : reference) tensors.push_back({name, &t});
  return fxw::build_container(text, tensors);
}

}  // namespace fx
