#include "passes/subgraph_rewriter.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
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

// Work stays linear in the graph for the patterns files and editors can hand over (a 3,000-node pattern, a
// graph of 200,000 nodes, a node with 200,000 users):
//  - candidates for the first anchor are tried in graph order, greedily: a graph node an earlier match took
//    can be bound only by a placeholder, so overlapping matches fail at once instead of being found and
//    dropped (which kept every overlapping match, and its map, in memory);
//  - a pattern node of height h (the longest chain of non-placeholder nodes ending at it) can only match a
//    graph node of free height >= h (the same over nodes no match took), so the candidates of a long
//    chain pattern that cannot reach its top are skipped without a walk;
//  - a match is walked with an explicit stack, never recursion, so no pattern depth reaches the C++ stack;
//  - an inner node with more users than its pattern node cannot be contained, which is seen before its
//    users are walked.
class Matcher {
 public:
  Matcher(const GraphModule& gm, const Graph& pattern) : gm_(gm), pattern_(pattern) {
    const Node* out = pattern.output_node();
    if (!out) throw FxError("replace_pattern: the pattern graph has no output node");
    for (Node* n : pattern.nodes()) {
      if (n->op() == Op::Placeholder) placeholders_.push_back(n);
      else if (n->op() != Op::Output && n->users().empty())
        throw FxError("replace_pattern: the pattern has dead code (a node nothing uses)", n->name());
      if (n->op() == Op::Placeholder || n->op() == Op::Output) continue;
      size_t h = 0;
      for (const Node* in : n->all_input_nodes()) h = std::max(h, height_.count(in) ? height_[in] : 0);
      height_[n] = h + 1;
    }
    returning_ = out->all_input_nodes();
    returning_set_.insert(returning_.begin(), returning_.end());
    for (Node* n : returning_)
      if (n->users().size() == 1) anchors_.push_back(n);
    if (anchors_.empty()) throw FxError("replace_pattern: the pattern returns no node computed inside it");
  }

  std::vector<Match> match() {
    const Graph& g = gm_.graph();
    const std::vector<Node*> order = g.nodes();
    // Free heights, first without any match: an upper bound for the anchors tried out of order.
    for (const Node* n : order) free_[n] = free_height(n);
    std::vector<std::vector<Node*>> candidates(anchors_.size());
    for (size_t i = 1; i < anchors_.size(); ++i)
      for (Node* n : order)
        if (nodes_equal(anchors_[i], n)) candidates[i].push_back(n);
    std::vector<Match> kept;
    for (Node* n : order) {
      free_[n] = free_height(n);  // now knowing the matches taken before it
      if (taken_.count(n) || !nodes_equal(anchors_[0], n) || free_[n] < height_of(anchors_[0])) continue;
      Match m;
      if (!match_node(anchors_[0], n, m)) continue;
      if (!complete(1, m, candidates)) continue;
      for (const auto& [pn, b] : m.map)
        if (pn->op() != Op::Placeholder) {
          taken_.insert(b.node);
          free_[b.node] = 0;
        }
      kept.push_back(std::move(m));
    }
    return kept;
  }

  const std::vector<Node*>& placeholders() const { return placeholders_; }
  const std::vector<Node*>& returning() const { return returning_; }
  const std::vector<Node*>& anchors() const { return anchors_; }

 private:
  size_t height_of(const Node* p) const {
    auto it = height_.find(p);
    return it == height_.end() ? 0 : it->second;
  }

  size_t free_height(const Node* n) const {
    if (taken_.count(n)) return 0;
    size_t h = 0;
    for (const Node* in : n->all_input_nodes()) {
      auto it = free_.find(in);
      h = std::max(h, it == free_.end() ? 0 : it->second);
    }
    return h + 1;
  }

  // Binds the remaining anchors (from `i`) to candidates, in order, keeping the first complete match that
  // is contained: later ones would overlap it.
  bool complete(size_t i, Match& m, const std::vector<std::vector<Node*>>& candidates) const {
    if (i == anchors_.size()) return contained(m);
    for (Node* c : candidates[i]) {
      if (taken_.count(c) || free_.at(c) < height_of(anchors_[i])) continue;
      Match attempt = m;
      if (match_node(anchors_[i], c, attempt) && complete(i + 1, attempt, candidates)) {
        m = std::move(attempt);
        return true;
      }
    }
    return false;
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

  // Matches pattern node `p` to graph node `g` and everything they use, pair by pair from a stack.
  bool match_node(const Node* p, Node* g, Match& m) const {
    std::vector<std::pair<const Value*, const Value*>> values;  // argument pairs still to compare
    std::vector<std::pair<const Node*, Node*>> nodes{{p, g}};    // node pairs still to bind
    while (!nodes.empty() || !values.empty()) {
      if (!values.empty()) {
        const auto [pv, gv] = values.back();
        values.pop_back();
        if (!match_value(*pv, *gv, m, values, nodes)) return false;
        continue;
      }
      const auto [pn, gn] = nodes.back();
      nodes.pop_back();
      auto it = m.map.find(pn);
      if (it != m.map.end()) {
        if (it->second.node != gn) return false;
        continue;
      }
      if (m.used.count(gn) || !nodes_equal(pn, gn)) return false;
      m.map[pn] = Binding{gn, Value()};
      m.used.insert(gn);
      if (pn->op() == Op::Placeholder) continue;
      if (taken_.count(gn) || free_.at(gn) < height_of(pn)) return false;
      if (!returning_set_.count(pn) && gn->num_users() > pn->num_users()) return false;  // cannot be contained
      if (pn->args().size() != gn->args().size() || pn->kwargs().size() != gn->kwargs().size()) return false;
      for (size_t i = 0; i < pn->kwargs().size(); ++i)
        if (pn->kwargs()[i].first != gn->kwargs()[i].first) return false;
      for (size_t i = pn->kwargs().size(); i-- > 0;) values.emplace_back(&pn->kwargs()[i].second, &gn->kwargs()[i].second);
      for (size_t i = pn->args().size(); i-- > 0;) values.emplace_back(&pn->args()[i], &gn->args()[i]);
    }
    return true;
  }

  bool match_value(const Value& p, const Value& g, Match& m, std::vector<std::pair<const Value*, const Value*>>& values,
                   std::vector<std::pair<const Node*, Node*>>& nodes) const {
    if (p.is_node() && g.is_node()) {
      nodes.emplace_back(p.as_node(), g.as_node());
      return true;
    }
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
      for (size_t i = p.items().size(); i-- > 0;) values.emplace_back(&p.items()[i], &g.items()[i]);
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
      if (p->op() == Op::Placeholder || returning_set_.count(p)) continue;
      for (const Node* u : b.node->users())
        if (!inside.count(u)) return false;
    }
    return true;
  }

  const GraphModule& gm_;
  const Graph& pattern_;
  std::vector<Node*> placeholders_, returning_, anchors_;
  std::unordered_set<const Node*> returning_set_;
  std::unordered_map<const Node*, size_t> height_;  // pattern nodes but placeholders
  std::unordered_map<const Node*, size_t> free_;    // graph nodes
  std::unordered_set<const Node*> taken_;           // graph nodes of the matches kept so far
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

// A graph's node order as numbers with gaps, kept up to date while replacements are inserted, so that the
// first user of a match's returned nodes is found without walking the graph for every match.
class Positions {
 public:
  explicit Positions(const Graph& g) : g_(g) { renumber(); }
  uint64_t of(const Node* n) const { return pos_.at(n); }
  // Numbers `count` nodes about to be inserted, in order, just before `before` (nullptr: at the end).
  std::vector<uint64_t> reserve(const Node* before, size_t count) {
    auto bounds = [&] {
      const Node* prev = before ? before->prev() : last();
      const uint64_t lo = prev ? of(prev) : 0;
      const uint64_t hi = before ? of(before) : lo + (uint64_t(count) + 1) * kGap;
      return std::make_pair(lo, hi);
    };
    auto [lo, hi] = bounds();
    if (hi - lo <= count) {  // no room left between them: number the whole graph again
      renumber();
      std::tie(lo, hi) = bounds();
    }
    std::vector<uint64_t> out;
    for (size_t i = 1; i <= count; ++i) out.push_back(lo + (hi - lo) / (count + 1) * i);
    return out;
  }
  void set(const Node* n, uint64_t p) { pos_[n] = p; }

 private:
  static constexpr uint64_t kGap = uint64_t(1) << 32;
  const Node* last() const {
    const Node* n = g_.output_node();
    if (n) return n;
    const std::vector<Node*> all = g_.nodes();
    return all.empty() ? nullptr : all.back();
  }
  void renumber() {
    pos_.clear();
    uint64_t p = 0;
    for (const Node* n : g_.nodes()) pos_[n] = (p += kGap);
  }
  const Graph& g_;
  std::unordered_map<const Node*, uint64_t> pos_;
};

// A copy of `g` that shares no node with it: replace_pattern(gm, gm) hands the graph being rewritten in
// as its own pattern (and maybe replacement), which must not change while it is being matched and copied.
std::unique_ptr<Graph> detached_copy(const Graph& g) {
  auto copy = std::make_unique<Graph>();
  std::unordered_map<const Node*, Node*> map;
  const Value out = copy->graph_copy(g, map);
  if (g.output_node()) copy->output(out);
  return copy;
}

}  // namespace

std::vector<PatternMatch> find_pattern(const GraphModule& gm, const Graph& pattern) {
  Matcher matcher(gm, pattern);
  std::vector<PatternMatch> out;
  for (const Match& m : matcher.match()) out.push_back(describe(m, matcher, pattern));
  return out;
}

std::vector<PatternMatch> replace_pattern(GraphModule& gm, const Graph& pattern_in, const Graph& replacement_in) {
  std::unique_ptr<Graph> own_pattern, own_replacement;
  const Graph* pattern_ptr = &pattern_in;
  const Graph* replacement_ptr = &replacement_in;
  if (&pattern_in == &gm.graph()) pattern_ptr = (own_pattern = detached_copy(pattern_in)).get();
  if (&replacement_in == &gm.graph()) replacement_ptr = (own_replacement = detached_copy(replacement_in)).get();
  const Graph& pattern = *pattern_ptr;
  const Graph& replacement = *replacement_ptr;
  Matcher matcher(gm, pattern);
  std::vector<Match> matches = matcher.match();
  std::vector<Node*> rep_placeholders;
  size_t rep_count = 0;  // nodes each match copies in
  for (Node* n : replacement.nodes()) {
    if (n->op() == Op::Placeholder) rep_placeholders.push_back(n);
    else if (n->op() != Op::Output) ++rep_count;
  }
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
  Positions positions(g);
  std::unordered_map<Node*, Node*> changed;  // graph nodes replaced by earlier rewrites → their replacements
  auto current = [&changed](Node* n) {
    for (auto it = changed.find(n); it != changed.end(); it = changed.find(n)) n = it->second;
    return n;
  };
  const std::vector<Node*> pnodes = pattern.nodes();
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
    Node* insert_point = nullptr;
    for (Node* r : returning)
      for (Node* u : r->users())
        if (!insert_point || positions.of(u) < positions.of(insert_point)) insert_point = u;
    if (!insert_point) {
      Node* last = nullptr;
      for (Node* r : returning)
        if (!last || positions.of(r) > positions.of(last)) last = r;
      insert_point = last ? last->next() : nullptr;
    }
    const std::vector<uint64_t> keys = positions.reserve(insert_point, rep_count);
    Value copied_output;
    {
      auto guard = insert_point ? g.inserting_before(insert_point) : g.inserting_after(nullptr);
      auto lookup = [&val_map](Node* n) -> Value {
        auto it = val_map.find(n);
        if (it == val_map.end()) throw FxError("replace_pattern: used before it is defined", n->name());
        return it->second;
      };
      size_t k = 0;
      for (Node* n : replacement.nodes()) {
        if (n->op() == Op::Placeholder) continue;
        if (n->op() == Op::Output) {
          copied_output = n->args().empty() ? Value() : n->args()[0].map_nodes(lookup);
          break;
        }
        Node* copy = g.node_copy(*n, lookup);
        positions.set(copy, keys[k++]);
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
    for (auto it = pnodes.rbegin(); it != pnodes.rend(); ++it) {
      if ((*it)->op() == Op::Placeholder || (*it)->op() == Op::Output) continue;
      g.erase_node(m.map.at(*it).node);
    }
    out.push_back(std::move(report));
  }
  return out;
}

}  // namespace fx
