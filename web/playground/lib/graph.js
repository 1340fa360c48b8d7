// The graph drawn as SVG: one box per node (name + target), one arrow per data dependency, laid out
// top-down by dagre (served locally from node_modules at /vendor/dagre.js). Boxes carry
// data-node=<name> so the selection can be kept in step with the table.

const SVG = 'http://www.w3.org/2000/svg';
const CHAR_W = 7.2;   // monospace 12px, close enough for sizing boxes before they are drawn
const BOX_H = 38;
const MAX_LABEL = 36;

let dagrePromise = null;
function loadDagre() {
  dagrePromise ??= import('/vendor/dagre.js').then((m) => m.default ?? m);
  return dagrePromise;
}

const clip = (s) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** [{name, op, label, sub, inputs: [names]}] from the graph's nodes (read once). */
export function graphModel(nodes) {
  return nodes.map((n) => {
    let inputs = [];
    try {
      inputs = (n.allInputNodes ?? []).map((m) => m.name);
    } catch {
      inputs = [];
    }
    const target = typeof n.target === 'string' ? n.target : String(n.target ?? '');
    const sub = n.op === 'placeholder' || n.op === 'output' ? n.op : target;
    return { name: n.name, op: n.op, label: n.name, sub, inputs };
  });
}

/** Lays out and draws the graph into `svg`; `onSelect(name)` is called when a box is clicked. */
export async function renderGraph(svg, model, onSelect) {
  const dagre = await loadDagre();
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 18, ranksep: 28, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of model) {
    const width = Math.max(70, CHAR_W * Math.max(clip(n.label).length, clip(n.sub).length) + 16);
    g.setNode(n.name, { width, height: BOX_H, node: n });
  }
  for (const n of model) {
    for (const src of new Set(n.inputs)) if (g.hasNode(src)) g.setEdge(src, n.name);
  }
  dagre.layout(g);

  const { width = 0, height = 0 } = g.graph();
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
  svg.setAttribute('width', Math.ceil(width));
  svg.setAttribute('height', Math.ceil(height));
  svg.dataset.nodes = String(model.length);

  const defs = el('defs');
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
  marker.append(el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }));
  defs.append(marker);
  svg.append(defs);

  const edges = el('g', { class: 'edges' });
  for (const e of g.edges()) {
    const pts = g.edge(e).points ?? [];
    if (!pts.length) continue;
    const d = pts.map((p, i) => `${i ? 'L' : 'M'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    edges.append(el('path', { d, class: 'edge', 'data-from': e.v, 'data-to': e.w, 'marker-end': 'url(#arrow)' }));
  }
  svg.append(edges);

  const boxes = el('g', { class: 'nodes' });
  for (const name of g.nodes()) {
    const { x, y, width: w, height: h, node } = g.node(name);
    const box = el('g', { class: `node op-${node.op}`, 'data-node': name, transform: `translate(${x - w / 2},${y - h / 2})`, tabindex: 0 });
    box.append(el('title', {}, `${node.op} ${name}\n${node.sub}`));
    box.append(el('rect', { width: w, height: h, rx: 5 }));
    box.append(el('text', { x: w / 2, y: 15, class: 'name' }, clip(node.label)));
    box.append(el('text', { x: w / 2, y: 30, class: 'sub' }, clip(node.sub)));
    boxes.append(box);
  }
  svg.append(boxes);

  svg.onclick = (ev) => {
    const box = ev.target.closest?.('g.node');
    if (box) onSelect(box.dataset.node);
  };
  svg.onkeydown = (ev) => {
    const box = ev.target.closest?.('g.node');
    if (box && (ev.key === 'Enter' || ev.key === ' ')) onSelect(box.dataset.node);
  };
}

/** Marks the selected node's box (and its edges) in the drawing and scrolls it into view. */
export function selectInGraph(svg, name, scroll = true) {
  for (const e of svg.querySelectorAll('.selected')) e.classList.remove('selected');
  if (!name) return;
  const box = svg.querySelector(`g.node[data-node="${CSS.escape(name)}"]`);
  if (!box) return;
  box.classList.add('selected');
  for (const e of svg.querySelectorAll(`path.edge[data-from="${CSS.escape(name)}"], path.edge[data-to="${CSS.escape(name)}"]`)) {
    e.classList.add('selected');
  }
  if (scroll) box.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
}

export function clearGraph(svg) {
  svg.replaceChildren();
  svg.removeAttribute('viewBox');
  svg.setAttribute('width', 0);
  svg.setAttribute('height', 0);
  delete svg.dataset.nodes;
}
