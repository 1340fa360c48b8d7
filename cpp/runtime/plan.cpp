#include "runtime/plan.h"

#include "passes/fuse.h"
#include "passes/grow_caches.h"
#include "passes/mutation.h"
#include "passes/pt2e_weights.h"
#include "kernels/parallel.h"
#include "support/error.h"

namespace fx {
Plan::Plan(const GraphModule& gm) {
  lowered_ = gm.copy();
  Pt2eWeights().run(*lowered_);
  try {
    FuseEpilogues fuse(FuseEpilogues::BatchNorm::AsScale);
    fuse.run(*lowered_);
  } catch (const FxError&) {
    // A module the rewrite cannot read (a Conv2d without its weight or hyperparameters): run the graph as
    // written, where that node reports what is wrong when it runs, as it would without the plan.
    lowered_ = gm.copy();
    Pt2eWeights().run(*lowered_);
  }
  GrowCaches().run(*lowered_);
  mutates_in_place_ = graph_mutates_in_place(*lowered_);
  interpreter_ = std::make_unique<Interpreter>(*lowered_);
  statics_ = std::make_unique<ShapeStaticCache>(*interpreter_);
  // What each fused node stands for in the user's graph, for profiles and messages.
  for (const Node* n : lowered_->graph().nodes()) {
    const Value* absorbed = n->meta_value("fused_nodes");
    if (!absorbed || !absorbed->is_sequence()) {
      const Node* mine = gm.graph().find(n->name());
      if (!mine || mine->op() != n->op()) added_.insert(n->name());
      else if (mine->target() != n->target()) retargeted_[n->name()] = mine->target();  // cat → cat_grow
      continue;
    }
    const Node* head = gm.graph().find(n->name());
    if (!head) continue;
    Fused f;
    f.head = {head->name(), head->op(), head->target()};
    for (const Value& v : absorbed->items()) {
      const Node* orig = v.kind() == ValueKind::Str ? gm.graph().find(v.as_str()) : nullptr;
      if (orig) f.absorbed.push_back({orig->name(), orig->op(), orig->target()});
    }
    fused_[n->name()] = std::move(f);
  }
}

Object Plan::run(const std::vector<Object>& inputs, Profile* profile) const {
  interpreter_->check_inputs(inputs);
  std::unique_ptr<Profiler> profiler = profile ? std::make_unique<Profiler>(*profile) : nullptr;
  const kernels::HotSection hot;  // the kernel threads stay awake between this run's jobs
  Object out;
  try {
    out = interpreter_->run(inputs, profiler.get(), statics_.get());
  } catch (const FxError& e) {
    // A fused node fails under the name of the node it was made from: say what that node was.
    auto it = fused_.find(e.node());
    const std::string prefix = "call_function fxwasm.fused_";
    const std::string& msg = e.bare_message();
    if (it == fused_.end() || msg.compare(0, prefix.size(), prefix) != 0) throw;
    const Fused::Node& head = it->second.head;
    const size_t colon = msg.find(": ");
    throw FxError(std::string(op_name(head.op)) + " " + head.target + (colon == std::string::npos ? "" : msg.substr(colon)),
                  e.node());
  }
  if (profile) {
    profiler->finish(interpreter_->memory());
    // The nodes fused into another follow it, with no time of their own.
    std::vector<NodeProfile> nodes;
    nodes.reserve(profile->nodes.size());
    for (NodeProfile& p : profile->nodes) {
      if (added_.count(p.name)) continue;
      auto it = fused_.find(p.name);
      if (auto r = retargeted_.find(p.name); r != retargeted_.end()) p.target = r->second;
      if (it == fused_.end()) {
        nodes.push_back(std::move(p));
        continue;
      }
      p.op = it->second.head.op;  // the producer as the user's graph has it
      p.target = it->second.head.target;
      nodes.push_back(p);
      for (const Fused::Node& a : it->second.absorbed) {
        NodeProfile q = p;
        q.name = a.name;
        q.op = a.op;
        q.target = a.target;
        q.ms = 0.0;
        q.fused_into = p.name;
        nodes.push_back(std::move(q));
      }
    }
    profile->nodes = std::move(nodes);
  }
  return out;
}

}  // namespace fx
