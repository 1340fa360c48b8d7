// GraphModule: a Graph plus what it refers to — the module tree (qualified name → type and
// hyperparameters, for call_module targets) and named tensors (parameters, buffers, constants).
#pragma once
#include <map>
#include <memory>
#include <string>

#include "ir/graph.h"
#include "program/object.h"
#include "tensor/tensor.h"

namespace fx {

struct ModuleInfo {
  std::string type;  // qualified class name, e.g. "torch.nn.modules.conv.Conv2d"
  Kwargs hparams;    // constructor-level hyperparameters as exported (in_channels, stride, ...)
};

enum class TensorKind { Parameter, Buffer, Constant };
// "parameter", "buffer", "constant": the format's and the API's spelling.
inline const char* tensor_kind_name(TensorKind k) {
  return k == TensorKind::Parameter ? "parameter" : k == TensorKind::Buffer ? "buffer" : "constant";
}

struct NamedTensor {
  TensorKind kind = TensorKind::Parameter;
  Tensor tensor;
};

struct Producer {
  std::string torch_version;
  std::string exporter_version;
  std::string tracer;  // "symbolic", "aten", "export", "dynamo", "graph"
};

// Reference inputs and outputs stored in the file for self-checks (`fxwasm check`).
struct Reference {
  bool present = false;
  std::vector<Object> inputs;  // one per placeholder, in order
  Object outputs;              // the output structure, as the output node returns it
};

// The input/output structure a flat graph's code wraps around it (docs/format.md §2 `pytree`; torch's
// _PyTreeCodeGen). `inputs` / `outputs` are skeletons: tuples, lists and str-keyed dicts whose leaves are
// None. The leaves are the placeholders and the items of the output node's flat tuple, in order; the
// writer fills them in from the graph as it is then, so no Node pointer is kept here (graph edits may
// erase nodes).
struct PyTreeCodegen {
  bool present = false;
  std::vector<std::string> orig_args;  // forward's parameter names
  bool has_inputs = false;
  Value inputs;
  bool has_outputs = false;
  Value outputs;
};

class GraphModule {
 public:
  GraphModule() = default;
  GraphModule(const GraphModule&) = delete;
  GraphModule& operator=(const GraphModule&) = delete;

  // A copy whose graph has nodes of its own (same names, args, meta; node references in meta point to the
  // copy's nodes) and whose tensors share storage with this one's: what a pass may rewrite without touching
  // the original (the runtime's plan, runtime/plan.h).
  std::unique_ptr<GraphModule> copy() const;

  Graph& graph() { return graph_; }
  const Graph& graph() const { return graph_; }

  std::map<std::string, ModuleInfo>& modules() { return modules_; }  // "" = root
  const std::map<std::string, ModuleInfo>& modules() const { return modules_; }
  std::map<std::string, NamedTensor>& tensors() { return tensors_; }  // state_dict-style names
  const std::map<std::string, NamedTensor>& tensors() const { return tensors_; }
  const Tensor* find_tensor(const std::string& qualified_name) const;

  Producer& producer() { return producer_; }
  const Producer& producer() const { return producer_; }
  Reference& reference() { return reference_; }
  const Reference& reference() const { return reference_; }
  PyTreeCodegen& pytree() { return pytree_; }
  const PyTreeCodegen& pytree() const { return pytree_; }

 private:
  Graph graph_;
  std::map<std::string, ModuleInfo> modules_;
  std::map<std::string, NamedTensor> tensors_;
  Producer producer_;
  Reference reference_;
  PyTreeCodegen pytree_;
};

}  // namespace fx
