// The graph as an HTML table with the columns of torch.fx.Graph.print_tabular.
//
// The cells come from gm.printTabular() (the core's rendering, identical to the CLI's `table`), cut at
// the column boundaries its dashed rule line gives. That keeps Python's repr of arguments (1.0 vs 1,
// quoted strings, torch.float32 …) in one place — the core — instead of re-implementing it here.
// When that text cannot be cut (an unexpected layout), cells are formatted from gm.graph.nodes.
import { reprArg, targetName } from './repr.js';

const COLUMNS = ['opcode', 'name', 'target', 'args', 'kwargs'];

/** Splits print_tabular text into rows of cells; null when the layout is not the expected one. */
export function parseTabular(text) {
  const lines = text.replace(/\n+$/, '').split('\n');
  const ruleIndex = lines.findIndex((l) => /^-+( +-+)*\s*$/.test(l));
  if (ruleIndex !== 1) return null;
  const spans = [];
  for (const m of lines[1].matchAll(/-+/g)) spans.push(m.index);
  if (spans.length !== COLUMNS.length) return null;
  const cut = (line) =>
    spans.map((start, i) => line.slice(start, i + 1 < spans.length ? spans[i + 1] : undefined).trimEnd());
  const header = cut(lines[0]).map((s) => s.trim());
  if (header.join() !== COLUMNS.join()) return null;
  return lines.slice(2).map(cut);
}

function rowsFromNodes(nodes) {
  return nodes.map((n) => [n.op, n.name, targetName(n), reprArg(n.args ?? []), reprArg(n.kwargs ?? {})]);
}

/** Table rows for a GraphModule: one array of five cells per node, in graph order. */
export function tabularRows(gm, nodes) {
  let rows = null;
  try {
    rows = parseTabular(gm.printTabular());
  } catch {
    rows = null;
  }
  // The parsed text must describe the same nodes the graph lists, row for row.
  if (rows && nodes && (rows.length !== nodes.length || rows.some((r, i) => r[1] !== nodes[i].name))) rows = null;
  return rows ?? rowsFromNodes(nodes ?? []);
}

/** Fills `table` (a <table> with a <tbody>) with one <tr> per node. */
export function renderTabular(table, rows) {
  const tbody = table.tBodies[0] ?? table.createTBody();
  const frag = document.createDocumentFragment();
  for (const cells of rows) {
    const tr = document.createElement('tr');
    tr.dataset.node = cells[1];
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (i === 0) td.className = `op-${text}`;
      tr.append(td);
    });
    frag.append(tr);
  }
  tbody.replaceChildren(frag);
}
