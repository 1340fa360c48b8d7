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

// ---- output shape and dtype: from the node's meta (the exporter's, or shape_prop's), then from a run ----

const untag = (v, tag) => (v && typeof v === 'object' && tag in v ? v[tag] : v);

const isSize = (v) => v && typeof v === 'object' && '$size' in v;

// A shape as text: [2, 3]; several outputs (a tuple of sizes, e.g. the output node's) as ([2, 3], []).
function shapeText(shape) {
  if (Array.isArray(shape) && shape.some((x) => isSize(x) || Array.isArray(x))) {
    return `(${shape.map(shapeText).join(', ')})`;
  }
  const s = untag(shape, '$size');
  return Array.isArray(s) ? `[${s.map((d) => (d && typeof d === 'object' ? JSON.stringify(d) : d)).join(', ')}]` : '';
}

function dtypeText(dtype) {
  if (Array.isArray(dtype)) return `(${dtype.map(dtypeText).join(', ')})`;
  const d = untag(dtype, '$dtype');
  return typeof d === 'string' ? d.replace(/^torch\./, '') : '';
}

/** {name: {shape, dtype}} (as text) from each node's meta; nodes without tensor meta are left out. */
export function metaShapes(nodes) {
  const out = {};
  for (const n of nodes) {
    let meta;
    try {
      meta = n.meta ?? {};
    } catch {
      meta = {};
    }
    const src = meta.shape !== undefined ? meta : meta.tensor_meta ?? meta.val ?? {};
    const shape = shapeText(src.shape);
    const dtype = dtypeText(src.dtype);
    if (shape || dtype) out[n.name] = { shape, dtype };
  }
  return out;
}

/** {name: {shape, dtype}} from a run's profile ([{name, shape, dtype}]). */
export function profileShapes(profile) {
  const out = {};
  for (const p of profile ?? []) {
    const shape = Array.isArray(p.shape) ? `[${p.shape.join(', ')}]` : shapeText(p.shape);
    const dtype = dtypeText(p.dtype);
    if (shape || dtype) out[p.name] = { shape, dtype };
  }
  return out;
}

/**
 * Fills `table` (a <table> with a <tbody>) with one <tr> per node: print_tabular's five columns, then
 * the output shape and dtype where known (`shapes`: {name: {shape, dtype}}). `onSelect(name)` is called
 * when a row is clicked.
 */
export function renderTabular(table, rows, shapes = {}, onSelect = null) {
  const tbody = table.tBodies[0] ?? table.createTBody();
  const frag = document.createDocumentFragment();
  for (const cells of rows) {
    const tr = document.createElement('tr');
    tr.dataset.node = cells[1];
    tr.tabIndex = -1;
    const known = shapes[cells[1]] ?? {};
    [...cells, known.shape ?? '', known.dtype ?? ''].forEach((text, i) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (i === 0) td.className = `op-${text}`;
      if (i >= 5) td.className = i === 5 ? 'shape' : 'dtype';
      tr.append(td);
    });
    frag.append(tr);
  }
  tbody.replaceChildren(frag);
  tbody.onclick = onSelect
    ? (ev) => {
        const tr = ev.target.closest('tr');
        if (tr?.dataset.node) onSelect(tr.dataset.node);
      }
    : null;
}

/** Fills in the shape and dtype cells from `shapes` (after a run), keeping cells already known. */
export function updateTabularShapes(table, shapes) {
  for (const tr of table.tBodies[0]?.rows ?? []) {
    const known = shapes[tr.dataset.node];
    if (!known) continue;
    if (known.shape) tr.cells[5].textContent = known.shape;
    if (known.dtype) tr.cells[6].textContent = known.dtype;
  }
}

/** Marks the selected node's row and scrolls it into view. */
export function selectInTable(table, name, scroll = true) {
  for (const tr of table.querySelectorAll('tr.selected')) {
    tr.classList.remove('selected');
    tr.removeAttribute('aria-selected');
  }
  if (!name) return;
  const tr = table.querySelector(`tbody tr[data-node="${CSS.escape(name)}"]`);
  if (!tr) return;
  tr.classList.add('selected');
  tr.setAttribute('aria-selected', 'true');
  if (scroll) tr.scrollIntoView?.({ block: 'nearest' });
}
