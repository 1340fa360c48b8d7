// A subgraph pattern rewriter, as torch.fx.subgraph_rewriter.replace_pattern: every non-overlapping
// occurrence of `pattern` in a graph is replaced by a copy of `replacement`.
// Matching follows torch's SubgraphMatcher (match_output=False, match_placeholder=False):
//  - the anchors are the pattern nodes the output returns that have no other user; matching walks
//    backwards from them, comparing op and target (get_attr: both name a tensor), the number of args and
//    the kwargs keys, and every argument — nodes recursively, sequences item by item, literals by equality;
//  - a pattern placeholder is a wildcard: it matches any node or literal, the same one wherever it is used,
//    and two placeholders never match the same node;
//  - a match must be self-contained: its inner nodes (all but those the pattern returns) have no users
//    outside it; matches overlapping an earlier one are dropped.
// Each match is replaced in place: the replacement's placeholders bound to what the pattern's matched
// (in order), its nodes copied before the first user of the returned nodes, uses redirected, the matched
// nodes erased. get_attr/call_module targets of the replacement must exist in the module being rewritten.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "program/graph_module.h"

namespace fx {

struct PatternMatch {
  std::string anchor;                                        // the graph node matched by the first anchor
  std::vector<std::pair<std::string, std::string>> nodes_map;  // pattern node name → graph node name
                                                             // (a placeholder bound to a literal: its repr)
  std::vector<std::string> replacements;                     // the nodes copied in from the replacement
};

// Finds the matches without changing anything.
std::vector<PatternMatch> find_pattern(const GraphModule& gm, const Graph& pattern);

// Replaces every match; returns them. FxError when pattern or replacement is malformed (no output,
// placeholder counts differ, returned value counts differ).
std::vector<PatternMatch> replace_pattern(GraphModule& gm, const Graph& pattern, const Graph& replacement);

}  // namespace fx
