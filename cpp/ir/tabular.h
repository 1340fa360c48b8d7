// The graph as torch.fx.Graph.print_tabular shows it: one row per node (opcode, name, target, args, kwargs)
// laid out exactly as tabulate 0.10's "simple" format lays it out, targets as canonical qualified names.
#pragma once
#include <string>
#include <vector>

namespace fx {

class Graph;

// What print_tabular prints, including the final newline of print().
std::string print_tabular(const Graph& graph);

// tabulate(rows, headers=headers) in the "simple" format, without the final newline. Cells of the first
// `parsed_columns` columns are strings tabulate may read as numbers (the opcode, name and target columns
// of print_tabular); the other columns stand for objects whose str() tabulate never parses (tuples, dicts).
std::string tabulate_simple(const std::vector<std::vector<std::string>>& rows,
                            const std::vector<std::string>& headers, size_t parsed_columns);

}  // namespace fx
