// The graph drawn as SVG and made explorable: boxes (op or module type, output shape, the weights the
// node uses) laid out top-down by dagre (served from node_modules at /vendor/dagre.js); zoom (wheel,
// buttons), pan (drag), fit-to-view, a minimap for graphs bigger than the box, search, module folding
// and marks for what a pass changed. The layout is dagre's; this file only draws and moves a view.
//
// Zoom and pan change one transform on the drawing's <g class="viewport"> (the browser composites it;
// nothing is laid out again), applied at most once per animation frame. Boxes carry data-node=<name>
// (folded modules data-group=<scope>) so the selection stays in step with the table.
import { foldedView } from './graph-model.js';

const SVG = 'http://www.w3.org/2000/svg';
const CHAR_W = 7.2; // monospace 12px, close enough for sizing boxes before they are drawn
const LINE_H = 14;
const MAX_LABEL = 40;
const MAX_WEIGHT_LINES = 4;
const MIN_K = 0.02;
const MAX_K = 4;

let dagrePromise = null;
function loadDagre() {
  dagrePromise ??= import('/vendor/dagre.js').then((m) => m.default ?? m);
  return dagrePromise;
}

const clip = (s, n = MAX_LABEL) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The text lines of a box: [text, class] pairs. */
function boxLines(b) {
  if (b.kind === 'group') {
    return [[`▸ ${b.scope}`, 'name'], [b.type, 'sub'], [b.summary, 'weight'], ...(b.shape ? [[b.shape, 'shape']] : [])];
  }
  const it = b.item;
  const lines = [[it.name, 'name'], [it.type, 'sub']];
  if (b.shape) lines.push([b.shape, 'shape']);
  const ws = b.weights.slice(0, MAX_WEIGHT_LINES).map((w) => [`${w.name.split('.').pop()} ${w.shape}`, 'weight']);
  if (b.weights.length > MAX_WEIGHT_LINES) ws.push([`+${b.weights.length - MAX_WEIGHT_LINES} more`, 'weight']);
  return [...lines, ...ws];
}

/**
 * Creates the view over `svg` (inside `box`, which clips it) with `minimap` (an <svg>) for big graphs.
 * handlers: {onSelect(name), onSelectGroup(scope)}.
 */
export function createGraphView({ svg, box, minimap, onSelect, onSelectGroup }) {
  const view = { k: 1, tx: 0, ty: 0 };
  let layout = null; // {width, height, boxes: Map(id → {x, y, w, h, box})}
  let viewport = null;
  let frame = 0;
  let boxOf = new Map();
  let miniView = null;
  let matches = [];
  let matchIndex = -1;

  function apply() {
    frame = 0;
    if (!viewport) return;
    viewport.setAttribute('transform', `translate(${view.tx.toFixed(1)},${view.ty.toFixed(1)}) scale(${view.k.toPrecision(6)})`);
    svg.dataset.zoom = view.k.toFixed(3);
    svg.classList.toggle('far', view.k < 0.4); // text too small to read: not drawn (cheaper too)
    if (miniView) {
      const { width: W, height: H } = size();
      miniView.setAttribute('x', (-view.tx / view.k).toFixed(1));
      miniView.setAttribute('y', (-view.ty / view.k).toFixed(1));
      miniView.setAttribute('width', (W / view.k).toFixed(1));
      miniView.setAttribute('height', (H / view.k).toFixed(1));
    }
  }
  const schedule = () => {
    frame ||= requestAnimationFrame(apply);
  };
  const size = () => ({ width: box.clientWidth || 600, height: box.clientHeight || 500 });

  function zoomAt(factor, cx, cy) {
    const k = Math.min(MAX_K, Math.max(MIN_K, view.k * factor));
    view.tx = cx - ((cx - view.tx) * k) / view.k;
    view.ty = cy - ((cy - view.ty) * k) / view.k;
    view.k = k;
    schedule();
  }

  function fit() {
    if (!layout) return;
    const { width: W, height: H } = size();
    const k = Math.min(MAX_K, Math.max(MIN_K, Math.min(W / layout.width, H / layout.height, 1.5) * 0.96));
    Object.assign(view, { k, tx: (W - layout.width * k) / 2, ty: (H - layout.height * k) / 2 });
    schedule();
  }

  /** Centers the view on a box (zooming in to a readable scale when far out). */
  function centerOn(id, readable = true) {
    const b = layout?.boxes.get(id);
    if (!b) return;
    const { width: W, height: H } = size();
    if (readable && view.k < 0.8) view.k = 1;
    view.tx = W / 2 - b.x * view.k;
    view.ty = H / 2 - b.y * view.k;
    schedule();
  }

  function isVisible(id) {
    const b = layout?.boxes.get(id);
    if (!b) return false;
    const { width: W, height: H } = size();
    const x = b.x * view.k + view.tx;
    const y = b.y * view.k + view.ty;
    return x > 0 && x < W && y > 0 && y < H;
  }

  // ---- pointer: drag pans, a click without a drag selects --------------------------------------
  let drag = null;
  let dragged = false;
  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, tx: view.tx, ty: view.ty, id: ev.pointerId };
    dragged = false;
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < 4) return;
    if (!dragged) svg.setPointerCapture?.(ev.pointerId);
    dragged = true;
    svg.classList.add('panning');
    view.tx = drag.tx + dx;
    view.ty = drag.ty + dy;
    schedule();
  });
  const endDrag = () => {
    drag = null;
    svg.classList.remove('panning');
  };
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1;
    zoomAt(Math.exp(-ev.deltaY * unit * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
  }, { passive: false });
  const activate = (target) => {
    const g = target.closest?.('g.node');
    if (!g) return;
    if (g.dataset.group !== undefined) onSelectGroup?.(g.dataset.group);
    else onSelect?.(g.dataset.node);
  };
  svg.addEventListener('click', (ev) => {
    if (dragged) {
      dragged = false;
      return;
    }
    activate(ev.target);
  });
  svg.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') activate(ev.target);
  });

  // ---- minimap: click or drag on it moves the view there -----------------------------------------
  let miniDrag = false;
  const miniMove = (ev) => {
    if (!layout) return;
    const r = minimap.getBoundingClientRect();
    const s = Math.max(layout.width / r.width, layout.height / r.height);
    // the minimap keeps the drawing's aspect ratio, centered (preserveAspectRatio xMidYMid)
    const gx = (ev.clientX - r.left - (r.width - layout.width / s) / 2) * s;
    const gy = (ev.clientY - r.top - (r.height - layout.height / s) / 2) * s;
    const { width: W, height: H } = size();
    view.tx = W / 2 - gx * view.k;
    view.ty = H / 2 - gy * view.k;
    schedule();
  };
  minimap?.addEventListener('pointerdown', (ev) => {
    miniDrag = true;
    minimap.setPointerCapture?.(ev.pointerId);
    miniMove(ev);
  });
  minimap?.addEventListener('pointermove', (ev) => miniDrag && miniMove(ev));
  minimap?.addEventListener('pointerup', () => { miniDrag = false; });

  function drawMinimap() {
    if (!minimap) return;
    minimap.replaceChildren();
    miniView = null;
    // Only worth it when the fitted drawing is too small to read.
    const { width: W, height: H } = size();
    const big = layout && Math.min(W / layout.width, H / layout.height) < 0.7;
    // an <svg> has no `hidden` property: the attribute (and the CSS rule for it) hides it
    minimap.toggleAttribute('hidden', !big);
    if (!big) return;
    minimap.setAttribute('viewBox', `0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}`);
    const frag = document.createDocumentFragment();
    for (const [id, b] of layout.boxes) {
      frag.append(el('rect', { x: b.x - b.w / 2, y: b.y - b.h / 2, width: b.w, height: b.h,
        class: `mini-box ${b.box.kind === 'group' ? 'group' : `op-${b.box.item.op}`}`, 'data-id': id }));
    }
    miniView = el('rect', { class: 'mini-view', 'vector-effect': 'non-scaling-stroke' });
    frag.append(miniView);
    minimap.append(frag);
  }

  return {
    /**
     * Lays out and draws `model` (graph-model.js) with the scopes in `folded` collapsed; `marks`
     * ({added: Set, changed: Set} of node names) highlights what a pass changed. Keeps the view's zoom
     * when `keepView`, else fits.
     */
    async render(model, { folded = new Set(), marks = null, keepView = false } = {}) {
      const dagre = await loadDagre();
      const fv = foldedView(model, folded);
      boxOf = fv.boxOf;
      const g = new dagre.graphlib.Graph();
      g.setGraph({ rankdir: 'TB', nodesep: 18, ranksep: 26, marginx: 12, marginy: 12 });
      g.setDefaultEdgeLabel(() => ({}));
      for (const b of fv.boxes) {
        const lines = boxLines(b).map(([t, c]) => [clip(t), c]);
        const width = Math.max(80, CHAR_W * Math.max(...lines.map(([t]) => t.length)) + 16);
        g.setNode(b.id, { width, height: 8 + LINE_H * lines.length, box: b, lines });
      }
      for (const [from, to] of fv.edges) g.setEdge(from, to);
      dagre.layout(g);

      const { width = 0, height = 0 } = g.graph();
      layout = { width, height, boxes: new Map() };
      svg.replaceChildren();
      svg.removeAttribute('viewBox');
      svg.dataset.nodes = String(fv.boxes.filter((b) => b.kind === 'node').length);
      svg.dataset.boxes = String(fv.boxes.length);

      const defs = el('defs');
      const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
      marker.append(el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }));
      defs.append(marker);
      svg.append(defs);
      viewport = el('g', { class: 'viewport' });

      const edges = el('g', { class: 'edges' });
      for (const e of g.edges()) {
        const pts = g.edge(e).points ?? [];
        if (!pts.length) continue;
        const d = pts.map((p, i) => `${i ? 'L' : 'M'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
        edges.append(el('path', { d, class: 'edge', 'data-from': e.v, 'data-to': e.w, 'marker-end': 'url(#arrow)' }));
      }
      const nodes = el('g', { class: 'nodes' });
      const marked = (b, set) => set && (b.kind === 'node' ? set.has(b.id) : b.members.some((m) => set.has(m.name)));
      for (const id of g.nodes()) {
        const { x, y, width: w, height: h, box: b, lines } = g.node(id);
        layout.boxes.set(id, { x, y, w, h, box: b });
        const cls = ['node', b.kind === 'group' ? 'group' : `op-${b.item.op}`];
        if (marked(b, marks?.added)) cls.push('pass-added');
        else if (marked(b, marks?.changed)) cls.push('pass-changed');
        const attrs = { class: cls.join(' '), 'data-node': id, transform: `translate(${x - w / 2},${y - h / 2})`, tabindex: 0 };
        if (b.kind === 'group') attrs['data-group'] = b.scope;
        const node = el('g', attrs);
        const title = b.kind === 'group' ? `module ${b.scope} (${b.type}): ${b.summary}`
          : `${b.item.op} ${b.item.name}\n${b.item.target}${b.weights.map((wt) => `\n${wt.name} ${wt.shape}`).join('')}`;
        node.append(el('title', {}, title));
        node.append(el('rect', { width: w, height: h, rx: 5 }));
        lines.forEach(([text, c], i) => node.append(el('text', { x: w / 2, y: 16 + i * LINE_H, class: c }, text)));
        nodes.append(node);
      }
      viewport.append(edges, nodes);
      svg.append(viewport);
      drawMinimap();
      if (!keepView) fit();
      else schedule();
    },

    fit,
    zoomBy(factor) {
      const { width: W, height: H } = size();
      zoomAt(factor, W / 2, H / 2);
    },
    /** The current view, for tests and the status line: {k, tx, ty}. */
    get view() {
      return { ...view };
    },

    /** Marks the box holding `name` (a node, or a folded module holding it) and its edges. */
    select(name, { center = true } = {}) {
      for (const e of svg.querySelectorAll('.selected')) e.classList.remove('selected');
      if (!name) return;
      const id = name.startsWith('module:') ? name : boxOf.get(name);
      const node = id && svg.querySelector(`g.node[data-node="${CSS.escape(id)}"]`);
      if (!node) return;
      node.classList.add('selected');
      for (const e of svg.querySelectorAll(`path.edge[data-from="${CSS.escape(id)}"], path.edge[data-to="${CSS.escape(id)}"]`)) {
        e.classList.add('selected');
      }
      if (center && !isVisible(id)) centerOn(id, false);
    },

    /**
     * Highlights the boxes of `names` (search matches) and centers on the `index`-th; returns the box
     * id centered on.
     */
    showMatches(names, index = 0) {
      for (const e of svg.querySelectorAll('g.node.match, g.node.current')) e.classList.remove('match', 'current');
      matches = [...new Set(names.map((n) => boxOf.get(n)).filter(Boolean))];
      matchIndex = matches.length ? ((index % matches.length) + matches.length) % matches.length : -1;
      for (const id of matches) svg.querySelector(`g.node[data-node="${CSS.escape(id)}"]`)?.classList.add('match');
      if (matchIndex < 0) return null;
      const id = matches[matchIndex];
      svg.querySelector(`g.node[data-node="${CSS.escape(id)}"]`)?.classList.add('current');
      centerOn(id);
      return id;
    },

    clear() {
      layout = null;
      viewport = null;
      boxOf = new Map();
      svg.replaceChildren();
      svg.removeAttribute('viewBox');
      delete svg.dataset.nodes;
      delete svg.dataset.boxes;
      if (minimap) {
        minimap.replaceChildren();
        minimap.setAttribute('hidden', '');
      }
    },
  };
}
