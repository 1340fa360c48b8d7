#include "passes/subgraph_rewriter.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "support/error.h"

namespace fx {
namespace {

// Pattern node → what it matched: a graph node, or (placeholders only) a literal.
struct Binding {
  Node* node = nullptr;
  Value literal;
};

struct Match {
  std::map<const Node*, Binding> map;  // ordered by address: only looked up, never walked for output
  std::unordered_set<const Node*> used;  // graph nodes already matched
};

class Matcher {
 public:
  Matcher(const GraphModule& gm, const Graph& pattern) : gm_(gm), pattern_(pattern) {
    const Node* out = pattern.output_node();
    if (!out) throw FxError("replace_pattern: the pattern graph has no output node");
    for (Node* n : pattern.nodes()) {
      if (n->op() == Op::Placeholder) placeholders_.push_back(n);
      else if (n->op() != Op::Output && n->users().empty())
        throw FxError("replace_pattern: the pattern has dead code (a node nothing uses)", n->name());
    }
    returning_ = out->all_input_nodes();
    for (Node* n : returning_)
      if (n->users().size() == 1) anchors_.push_back(n);
    if (anchors_.empty()) throw FxError("replace_pattern: the pattern returns no node computed inside it");
  }

  std::vector<Match> match() const {
    std::vector<Match> found;
    std::vector<std::vector<Node*>> candidates;
    for (const Node* a : anchors_) {
      candidates.emplace_back();
      for (Node* n : gm_.graph().nodes())
        if (nodes_equal(a, n)) candidates.back().push_back(n);
    }
    backtrack(0, Match{}, candidates, found);
    std::vector<Match> kept;
    std::unordered_set<const Node*> taken;
    for (Match& m : found) {
      if (!contained(m)) continue;
      bool overlap = false;
      for (const auto& [p, b] : m.map)
        if (p->op() != Op::Placeholder && taken.count(b.node)) overlap = true;
      if (overlap) continue;
      for (const auto& [p, b] : m.map)
        if (p->op() != Op::Placeholder) taken.insert(b.node);
      kept.push_back(std::move(m));
    }
    return kept;
  }

  const std::vector<Node*>& placeholders() const { return placeholders_; }
  const std::vector<Node*>& returning() const { return returning_; }
  const std::vector<Node*>& anchors() const { return anchors_; }

 private:
  void backtrack(size_t i, const Match& m, const std::vector<std::vector<Node*>>& candidates,
                 std::vector<Match>& found) const {
    if (i == anchors_.size()) {
      found.push_back(m);
      return;
    }
    for (Node* c : candidates[i]) {
      Match attempt = m;
      if (match_nodes(anchors_[i], c, attempt)) backtrack(i + 1, attempt, candidates, found);
    }
  }

  bool nodes_equal(const Node* p, const Node* g) const {
    if (p->op() == Op::Placeholder) return true;
    if (p->op() != g->op()) return false;
    if (p->op() == Op::GetAttr) {
      // As torch: get_attr matches get_attr of any tensor (values are not compared).
      return gm_.find_tensor(g->target()) != nullptr;
    }
    return p->target() == g->target();
  }

  bool match_nodes(const Node* p, Node* g, Match& m) const {
    auto it = m.map.find(p);
    if (it != m.map.end()) return it->second.node == g;
    if (m.used.count(g) || !nodes_equal(p, g)) return false;
    m.map[p] = Binding{g, Value()};
    m.used.insert(g);
    if (p->op() == Op::Placeholder) return true;
    if (p->args().size() != g->args().size() || p->kwargs().size() != g->kwargs().size()) return false;
    for (size_t i = 0; i < p->kwargs().size(); ++i)
      if (p->kwargs()[i].first != g->kwargs()[i].first) return false;
    for (size_t i = 0; i < p->args().size(); ++i)
      if (!match_values(p->args()[i], g->args()[i], m)) return false;
    for (size_t i = 0; i < p->kwargs().size(); ++i)
      if (!match_values(p->kwargs()[i].second, g->kwargs()[i].second, m)) return false;
    return true;
  }

  bool match_values(const Value& p, const Value& g, Match& m) const {
    if (p.is_node() && g.is_node()) return match_nodes(p.as_node(), g.as_node(), m);
    if (p.is_node()) {
      const Node* pn = p.as_node();
      if (pn->op() != Op::Placeholder) return false;
      auto it = m.map.find(pn);
      if (it != m.map.end()) return it->second.node == nullptr && it->second.literal == g;
      m.map[pn] = Binding{nullptr, g};
      return true;
    }
    if (g.is_node()) return false;
    const bool pseq = p.kind() == ValueKind::Tuple || p.kind() == ValueKind::List;
    const bool gseq = g.kind() == ValueKind::Tuple || g.kind() == ValueKind::List;
    if (pseq && gseq) {
      if (p.items().size() != g.items().size()) return false;
      for (size_t i = 0; i < p.items().size(); ++i)
        if (!match_values(p.items()[i], g.items()[i], m)) return false;
      return true;
    }
    return p == g;  // Value equality compares kinds: 1 does not match 1.0, as torch's type check
  }

  // The inner nodes of a match (not the ones the pattern returns) are used only inside it.
  bool contained(const Match& m) const {
    std::unordered_set<const Node*> inside;
    for (const auto& [p, b] : m.map)
      if (p->op() != Op::Placeholder && b.node) inside.insert(b.node);
    for (const auto& [p, b] : m.map) {
      if (p->op() == Op::Placeholder) continue;
      if (std::find(returning_.begin(), returning_.end(), p) != returning_.end()) continue;
      for (const Node* u : b.node->users())
        if (!inside.count(u)) return false;
    }
    return true;
  }

  const GraphModule& gm_;
  const Graph& pattern_;
  std::vector<Node*> placeholders_, returning_, anchors_;
};

PatternMatch describe(const Match& m, const Matcher& matcher, const Graph& pattern) {
  PatternMatch out;
  out.anchor = m.map.at(matcher.anchors()[0]).node->name();
  for (const Node* p : pattern.nodes()) {
    auto it = m.map.find(p);
    if (it == m.map.end()) continue;
    out.nodes_map.emplace_back(p->name(), it->second.node ? it->second.node->name() : it->second.literal.repr());
  }
  return out;
}

}  // namespace

std::vector<PatternMatch> find_pattern(const GraphModule& gm, const Graph& pattern) {
  Matcher matcher(gm, pattern);
  std::vector<PatternMatch> out;
  for (const Match& m : matcher.match()) out.push_back(describe(m, matcher, pattern));
  return out;
}

std::vector<PatternMatch> replace_pattern(GraphModule& gm, const Graph& pattern, const Graph& replacement) {
  Matcher matcher(gm, pattern);
  std::vector<Match> matches = matcher.match();
  std::vector<Node*> rep_placeholders;
  for (Node* n : replacement.nodes())
    if (n->op() == Op::Placeholder) rep_placeholders.push_back(n);
  const Node* rep_output = replacement.output_node();
  if (!rep_output) throw FxError("replace_pattern: the replacement graph has no output node");
  if (rep_placeholders.size() != matcher.placeholders().size())
    throw FxError("replace_pattern: the pattern has " + std::to_string(matcher.placeholders().size()) +
                  " placeholders but the replacement has " + std::to_string(rep_placeholders.size()));
  for (const Node* n : replacement.nodes()) {
    if (n->op() == Op::GetAttr && !gm.tensors().count(n->target()) && !gm.modules().count(n->target()))
      throw FxError("replace_pattern: get_attr target '" + n->target() + "' is not in the module", n->name());
    if (n->op() == Op::CallModule && !gm.modules().count(n->target()))
      throw FxError("replace_pattern: call_module target '" + n->target() + "' is not in the module", n->name());
  }

  Graph& g = gm.graph();
  std::unordered_map<Node*, Node*> changed;  // graph nodes replaced by earlier rewrites → their replacements
  auto current = [&changed](Node* n) {
    for (auto it = changed.find(n); it != changed.end(); it = changed.find(n)) n = it->second;
    return n;
  };
  std::vector<PatternMatch> out;
  for (Match& m : matches) {
    PatternMatch report = describe(m, matcher, pattern);
    // Replacement placeholder i stands for what pattern placeholder i matched.
    std::unordered_map<const Node*, Value> val_map;
    for (size_t i = 0; i < rep_placeholders.size(); ++i) {
      const Binding& b = m.map.at(matcher.placeholders()[i]);
      val_map[rep_placeholders[i]] = b.node ? Value::node(current(b.node)) : b.literal;
    }
    std::vector<Node*> returning;
    for (Node* p : matcher.returning()) returning.push_back(m.map.at(p).node);
    // Insert before the first user (in graph order) of a returned node, else right after the last one.
    std::unordered_set<const Node*> users;
    for (Node* r : returning)
      for (Node* u : r->users()) users.insert(u);
    Node* insert_point = nullptr;
    const std::vector<Node*> order = g.nodes();
    for (Node* n : order)
      if (users.count(n)) {
        insert_point = n;
        break;
      }
    if (!insert_point) {
      for (size_t i = order.size(); i-- > 0;)
        if (std::find(returning.begin(), returning.end(), order[i]) != returning.end()) {
          insert_point = i + 1 < order.size() ? order[i + 1] : nullptr;
          break;
        }
    }
    Value copied_output;
    {
      auto guard = insert_point ? g.inserting_before(insert_point) : g.inserting_after(nullptr);
      auto lookup = [&val_map](Node* n) -> Value {
        auto it = val_map.find(n);
        if (it == val_map.end()) throw FxError("replace_pattern: used before it is defined", n->name());
        return it->second;
      };
      for (Node* n : replacement.nodes()) {
        if (n->op() == Op::Placeholder) continue;
        if (n->op() == Op::Output) {
          copied_output = n->args().empty() ? Value() : n->args()[0].map_nodes(lookup);
          break;
        }
        Node* copy = g.node_copy(*n, lookup);
        val_map[n] = Value::node(copy);
        report.replacements.push_back(copy->name());
      }
    }
    std::vector<Value> copied = copied_output.kind() == ValueKind::Tuple || copied_output.kind() == ValueKind::List
                                    ? copied_output.items()
                                    : std::vector<Value>{copied_output};
    if (copied.size() != returning.size())
      throw FxError("replace_pattern: the pattern returns " + std::to_string(returning.size()) +
                    " values but the replacement " + std::to_string(copied.size()));
    for (size_t i = 0; i < returning.size(); ++i) {
      if (!copied[i].is_node()) throw FxError("replace_pattern: the replacement must return nodes");
      returning[i]->replace_all_uses_with(copied[i].as_node());
      changed[returning[i]] = copied[i].as_node();
    }
    const std::vector<Node*> pnodes = pattern.nodes();
    for (auto it = pnodes.rbegin(); it != pnodes.rend(); ++it) {
      if ((*it)->op() == Op::Placeholder || (*it)->op() == Op::Output) continue;
      g.erase_node(m.map.at(*it).node);
    }
    out.push_back(std::move(report));
  }
  return out;
}

}  // namespace fx
