// Model: the one facade over the core that the bindings (and native tests and tools) use. It owns a loaded
// GraphModule and answers everything a user asks of it — text views, JSON descriptions, runs, self-checks,
// saving — so that no caller outside cpp/ needs to know the IR, the format or the runtime.
// Every failure is an FxError (naming the node when there is one).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/check.h"
#include "program/graph_module.h"
#include "program/object.h"
#include "runtime/plan.h"

namespace fx {

class Model {
 public:
  // Parses a .fxw file; `source` (a path, URL or "<bytes>") prefixes every load error. Loading prepares
  // the runtime (its plan), so a graph with ops the runtime cannot run fails here with
  // one FxError naming every unsupported target and the nodes using it — unless `allow_unsupported`
  // (inspection only: text views, info, editing); run() then fails with that same message.
  static std::unique_ptr<Model> load(const uint8_t* data, size_t size, const std::string& source = "<bytes>",
                                     bool allow_unsupported = false);
  // The same without copying the file: `file` (from serialize/reader.h's alloc_file_block) is kept alive
  // by the tensors, which view its bytes.
  static std::unique_ptr<Model> load_block(std::shared_ptr<uint8_t> file, size_t size, const std::string& source,
                                     bool allow_unsupported = false);
  explicit Model(std::unique_ptr<GraphModule> gm, std::string source = "<memory>");
  // A GraphModule with an empty graph and a root module, for building a program from scratch.
  static std::unique_ptr<Model> empty();
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const GraphModule& graph_module() const { return *gm_; }
  // For editing (api/graph_edit.h, passes). Whoever changes the graph through it calls graph_changed().
  GraphModule& mutable_graph_module() { return *gm_; }
  // The graph or its tensors changed: the runtime is rebuilt on the next run. Unless `semantics_kept`
  // (a pass that computes the same function), the stored reference is dropped: it describes the exported
  // program, and an edited one may take other inputs or give other outputs.
  void graph_changed(bool semantics_kept);
  const std::string& source() const { return source_; }

  std::string print_tabular() const;  // as torch.fx.Graph.print_tabular
  std::string code() const;           // as GraphModule.code

  // Format version, producer, node and op counts, inputs/outputs (shapes when meta knows them),
  // parameter count and bytes, unsupported ops with their nodes.
  std::string info_json() const;
  // {"nodes": [{op, name, target, args, kwargs, users, meta}]} with values in the format's encoding.
  std::string graph_json() const;
  // The module tree as stored: {qualified name: {"type", "hparams": {name: value (the format's JSON)}}}.
  std::string modules_json() const;
  // The named tensors: [{"name", "kind", "shape", "dtype", "bytes"}], by name.
  std::string tensors_json() const;
  // One named tensor (FxError naming the tensors there are when there is no such name).
  const Tensor& tensor(const std::string& name) const;

  // Placeholder names in order (the inputs run expects).
  std::vector<std::string> input_names() const;

  // One run with one Object per placeholder; the result has the output node's structure.
  // The runtime is prepared at load, and again after an edit (graph_changed) on the next run.
  Object run(const std::vector<Object>& inputs, Profile* profile = nullptr);

  // Whether the graph the runtime runs writes into a tensor in place (runtime/plan.h mutates_in_place).
  bool mutates_in_place() { return plan().mutates_in_place(); }

  // The runtime's tensor arena after the last run (runtime/plan.h memory()); zeros before any run.
  BufferPool::Stats run_memory() const;

  // Runs the reference inputs stored in the file and compares with the stored outputs, as torch.allclose
  // (api/check.h): NaN against NaN passes only with `equal_nan`.
  CheckReport check(double rtol = 1e-4, double atol = 1e-5, bool equal_nan = false);

  std::vector<uint8_t> save() const;  // the same format, bytes ready for a file

 private:
  Plan& plan();

  std::unique_ptr<GraphModule> gm_;
  std::string source_;
  std::unique_ptr<Plan> plan_;
};

// A profiled run as JSON: [{op, name, target, shape (null unless a tensor), dtype, result, ms, fused_into (only
// for a node the runtime ran fused into another: that node's name)}] in run order.
std::string profile_json(const Profile& profile);

}  // namespace fx
