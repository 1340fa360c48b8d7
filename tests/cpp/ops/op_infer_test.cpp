// Shape and dtype inference (ops/registry.h, tensor/meta.h) against real runs: every op case of the
// golden files (tests/golden/op_cases.json, tests/golden/ops/*.json) is run for real and inferred on meta
// tensors, and every node of every model (examples/, the corpus, tests/golden/modules/) is run and
// inferred; whatever inference knows must agree with the run in kind, shape and dtype (and Python
// values): it is never wrong. Where it does not know (DataDependent, an unknown node) that is reported
// with the coverage: ops and modules whose inference no case or model checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>

#include "golden_decode.h"
#include "nn/registry.h"
#include "ops/registry.h"
#include "passes/shape_prop.h"
#include "exec/interpreter.h"
#include "serialize/reader.h"
#include "tensor/meta.h"
#include "../model_files.h"

namespace fx {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Ops whose result depends on tensor values, so inference leaves it unknown (as torch's meta device
// does). Each is flagged `data_dependent` in its OpDef; nothing else may be.
const std::set<std::string> kDataDependent = {
    "torch.Tensor.item",  // a Python number read from the tensor
    "torch.nonzero", "torch.argwhere", "torch.masked_select",  // as many rows/values as true values
    "torch.functional.unique", "torch.functional.unique_consecutive",  // as many values as distinct ones
};

// Ops whose result depends on tensor values for some arguments only (torch's meta device cannot do
// these either): a tensor where a Python value is read, a bool mask, a tensor of split points.
const std::set<std::string> kDataDependentByArgument = {
    "builtins.int", "builtins.float", "builtins.bool",   // int(t) …
    "operator.not_", "operator.truth", "operator.pos",   // not t, bool(t), +t on a one-element tensor
    "torch._assert",                                     // _assert(t, msg) reads t
    "torch.arange",                                      // arange(t): the length is t's value
    "operator.getitem", "aten.index.Tensor",             // x[mask]: as many rows as true values
    "torch.tensor_split",                                // split points given as a tensor
};

// Model nodes inference may leave unknown, by target: their results depend on tensor values (as on
// torch's meta device). Any other unknown node fails the test, unless one of its inputs is unknown too
// (then it is unknown because of that input).
const std::set<std::string> kUnknownNodeTargets = {
    "torch.nonzero", "aten.nonzero.default",                          // as many rows as nonzero values
    "torch.masked_select", "aten.masked_select.default",              // as many values as true mask entries
    "torch.nn.functional.one_hot", "aten.one_hot.default",            // num_classes=-1: max(input) + 1
    "torch.Tensor.item", "item", "aten.item.default",                  // a Python number read from the tensor
    "aten._local_scalar_dense.default",                                // likewise
    "operator.getitem", "aten.index.Tensor",                           // x[mask]
    "builtins.int", "builtins.float", "builtins.bool",                 // int(t) …
    "operator.not_", "operator.truth",                                 // not t, bool(t)
};

// "" when `inferred` has the kind, shape and dtype (or value, for a Python value) of `real`.
std::string mismatch(const Object& inferred, const Object& real) {
  if (inferred.kind() != real.kind()) return "inferred " + inferred.describe() + ", ran " + real.describe();
  switch (real.kind()) {
    case Object::Kind::Tensor:
      if (inferred.tensor().shape() != real.tensor().shape() || inferred.tensor().dtype() != real.tensor().dtype())
        return "inferred " + inferred.describe() + ", ran " + real.describe();
      return "";
    case Object::Kind::Tuple: case Object::Kind::List: {
      if (inferred.items().size() != real.items().size()) return "inferred " + inferred.describe() + ", ran " + real.describe();
      for (size_t i = 0; i < real.items().size(); ++i) {
        const std::string m = mismatch(inferred.items()[i], real.items()[i]);
        if (!m.empty()) return "[" + std::to_string(i) + "] " + m;
      }
      return "";
    }
    case Object::Kind::Dict: {
      if (inferred.dict_items().size() != real.dict_items().size()) return "dict sizes differ";
      for (size_t i = 0; i < real.dict_items().size(); ++i) {
        const std::string m = mismatch(inferred.dict_items()[i].second, real.dict_items()[i].second);
        if (!m.empty()) return "[" + real.dict_items()[i].first + "] " + m;
      }
      return "";
    }
    case Object::Kind::Value: {
      const Value& a = inferred.value();
      const Value& b = real.value();
      if (a.kind() == ValueKind::Float && b.kind() == ValueKind::Float &&
          (a.as_float() == b.as_float() || (a.as_float() != a.as_float() && b.as_float() != b.as_float())))
        return "";
      return a == b ? "" : "inferred " + a.repr() + ", ran " + b.repr();
    }
  }
  return "";
}

struct Coverage {
  std::set<const OpDef*> ops;           // inferred as they ran at least once
  std::set<ModuleBinder> modules;       // leaf modules (by binder: one per class, any spelling), likewise
  std::set<std::string> data_dependent;  // ops that gave DataDependent on a case they ran
  std::set<std::string> unknown_nodes;   // "model: node" inference left unknown
  std::set<std::string> unexpected_unknown;  // those neither on kUnknownNodeTargets nor fed by an unknown node
  int cases = 0, models = 0, nodes = 0;
};

const OpDef* def_of(const json& c) {
  const std::string target = c.at("target").get<std::string>();
  const bool method = c.at("call").get<std::string>() == "method";
  return method ? OpRegistry::global().find_method(target) : OpRegistry::global().find_function(target);
}

OpCall decode_call(const json& c, bool meta) {
  OpCall call;
  for (const json& a : c.at("args")) {
    Object o = golden::decode(a);
    call.args.push_back(meta ? to_meta(o) : o);
  }
  for (const auto& [k, v] : c.at("kwargs").items()) {
    Object o = golden::decode(v);
    call.kwargs.emplace_back(k, meta ? to_meta(o) : o);
  }
  return call;
}

void check_cases(const std::string& path, Coverage& cov) {
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  const json doc = json::parse(in);
  for (const json& c : doc.at("cases")) {
    const std::string id = path.substr(path.rfind('/') + 1) + ":" + c.at("id").get<std::string>();
    const OpDef* def = def_of(c);
    if (!def) continue;  // the golden test reports it
    Object real;
    std::string real_error;
    try {
      real = def->run(decode_call(c, false));
    } catch (const FxError& e) {
      real_error = e.what();
    }
    OpCall call = decode_call(c, true);
    try {
      MetaScope meta;
      if (def->data_dependent) throw_data_dependent();
      const Object inferred = def->infer ? def->infer(call) : def->run(call);
      if (!real_error.empty()) continue;  // a check that needs values (an index out of range): not for inference
      const std::string m = mismatch(inferred, real);
      EXPECT_EQ(m, "") << id;
      if (m.empty()) cov.ops.insert(def);
      ++cov.cases;
    } catch (const DataDependent&) {
      if (!kDataDependent.count(def->name) && !kDataDependentByArgument.count(def->name))
        cov.data_dependent.insert(def->name);
    } catch (const FxError& e) {
      // Inference rejects what the run rejects, with the same message.
      EXPECT_EQ(std::string(e.what()), real_error) << id << ": inference failed, the run did not";
    }
  }
}

using testing::fxw_files;

// Runs the model on its reference inputs node by node and infers it from their shapes and dtypes.
void check_model(const std::string& path, Coverage& cov) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::unique_ptr<GraphModule> gm = read_fxw(bytes.data(), bytes.size());
  if (!gm->reference().present) return;
  Interpreter interp(*gm);
  std::map<const Node*, Object> ran;
  interp.set_node_hook([&](const Node& n, const Object& v) { ran[&n] = v; });
  interp.run(gm->reference().inputs);
  std::vector<Object> inputs;
  for (const Object& x : gm->reference().inputs) inputs.push_back(to_meta(x));
  std::map<const Node*, Object> inferred;
  interp.infer(inputs, [&](const Node& n, const Object* v) {
    if (v) inferred[&n] = *v;
  });
  std::set<const Node*> unknown;
  for (const Node* n : gm->graph().nodes()) {
    auto it = inferred.find(n);
    if (it == inferred.end()) {
      const std::string where = path.substr(path.rfind('/') + 1) + ": " + n->name() + " (" + n->target() + ")";
      cov.unknown_nodes.insert(where);
      unknown.insert(n);
      bool fed_by_unknown = false;
      for (const Node* in : n->all_input_nodes()) fed_by_unknown = fed_by_unknown || unknown.count(in) > 0;
      if (!fed_by_unknown && !kUnknownNodeTargets.count(n->target())) cov.unexpected_unknown.insert(where);
      continue;
    }
    const std::string m = mismatch(it->second, ran.at(n));
    EXPECT_EQ(m, "") << path << ": node " << n->name();
    ++cov.nodes;
    if (!m.empty()) continue;
    if (n->op() == Op::CallFunction || n->op() == Op::CallMethod)
      cov.ops.insert(OpRegistry::global().find(n->op(), n->target()));
    if (n->op() == Op::CallModule) cov.modules.insert(ModuleRegistry::global().find(gm->modules().at(n->target()).type));
  }
  ++cov.models;
}

TEST(OpInfer, EveryOpAndModuleInfersAsItRuns) {
  const fs::path root = FXWASM_SOURCE_DIR;
  Coverage cov;
  check_cases((root / "tests/golden/op_cases.json").string(), cov);
  for (const std::string& f : [&] {
         std::vector<std::string> files;
         for (const auto& e : fs::directory_iterator(root / "tests/golden/ops"))
           if (e.path().extension() == ".json") files.push_back(e.path().string());
         std::sort(files.begin(), files.end());
         return files;
       }())
    check_cases(f, cov);
  for (const char* dir : {"examples", ".cache/corpus", "tests/golden/modules"})
    for (const std::string& f : fxw_files(root / dir)) check_model(f, cov);
  std::cout << "[ infer  ] " << cov.cases << " op cases, " << cov.models << " models, " << cov.nodes << " nodes\n";
  EXPECT_GT(cov.cases, 300);

  // Every op: checked by a case or a model node, or on the data-dependent list (and flagged so).
  std::set<std::string> unchecked, flagged;
  for (const OpDef& d : OpRegistry::global().all()) {
    if (d.data_dependent) flagged.insert(d.name);
    else if (!cov.ops.count(&d)) unchecked.insert(d.name);
  }
  EXPECT_EQ(flagged, kDataDependent);
  std::cout << "[ infer  ] data-dependent on a case, beyond the lists above (to do):";
  for (const std::string& name : cov.data_dependent) std::cout << " " << name;
  std::cout << "\n[ infer  ] " << cov.unknown_nodes.size() << " model nodes unknown to inference";
  for (const std::string& n : cov.unknown_nodes) std::cout << "; " << n;
  std::cout << "\n";
  // Every model node is inferred, but for the data-dependent ones (kUnknownNodeTargets) and their users.
  EXPECT_EQ(cov.unexpected_unknown, std::set<std::string>{}) << "model nodes inference left unknown";
  // Coverage of the checks above (a report: an op with no case and in no model is not an error).
  std::cout << "[ infer  ] " << unchecked.size() << " of " << OpRegistry::global().all().size()
            << " ops never checked against a run:";
  for (const std::string& name : unchecked) std::cout << " " << name;
  std::cout << "\n";
  std::map<ModuleBinder, std::string> unchecked_modules;
  for (const std::string& t : ModuleRegistry::global().types()) {
    const ModuleBinder b = ModuleRegistry::global().find(t);
    if (!cov.modules.count(b)) unchecked_modules[b] += (unchecked_modules[b].empty() ? "" : ", ") + t;
  }
  for (const auto& [b, types] : unchecked_modules)
    std::cout << "[ infer  ] module never checked against a run: " << types << "\n";
}

}  // namespace
}  // namespace fx
