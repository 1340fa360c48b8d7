// The details panel of the graph view: for a clicked node its op, target, args/kwargs, meta and output
// shape; for a call_module (or a folded module) the module's type and hyperparameters (gm.modules());
// the weights it uses with shape, dtype, bytes, min/max/mean/std and a histogram (gm.getTensor); its
// time in the last profile; and buttons to fold the modules it belongs to (or unfold a folded one).
// Everything from the file is set as textContent.
import { reprArg } from './repr.js';
import { scopeChain } from './graph-model.js';
import { weightStats, shortNumber } from './tensor-stats.js';
import { formatBytes } from './info.js';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_STATS_ELEMENTS = 1 << 24; // reading a bigger weight back would stall the page for a summary

function h(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  if (props.testid) e.dataset.testid = props.testid;
  e.append(...children);
  return e;
}

function defList(pairs, testid) {
  const dl = h('dl', { className: 'kv', testid });
  for (const [k, v] of pairs) {
    const dt = h('dt', { textContent: k });
    const dd = h('dd', { textContent: v });
    dd.dataset.key = k;
    dl.append(dt, dd);
  }
  return dl;
}

const section = (title, ...body) => h('section', { className: 'details-section' }, h('h4', { textContent: title }), ...body);

function histogram(stats) {
  const W = 180;
  const H = 36;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'histogram');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `histogram of ${stats.count} values from ${shortNumber(stats.lo)} to ${shortNumber(stats.hi)}`);
  svg.dataset.testid = 'weight-histogram';
  svg.dataset.bins = String(stats.bins.length);
  const top = Math.max(...stats.bins, 1);
  const bw = W / Math.max(1, stats.bins.length);
  stats.bins.forEach((c, i) => {
    const r = document.createElementNS(SVG, 'rect');
    const bh = c ? Math.max(1, (c / top) * H) : 0;
    r.setAttribute('x', (i * bw + 0.5).toFixed(1));
    r.setAttribute('y', (H - bh).toFixed(1));
    r.setAttribute('width', Math.max(0.5, bw - 1).toFixed(1));
    r.setAttribute('height', bh.toFixed(1));
    r.dataset.count = String(c);
    svg.append(r);
  });
  return svg;
}

/** One weight: shape, dtype, bytes and (read back from the runtime) its statistics and histogram. */
async function weightCard(gm, tensorsByName, w) {
  const info = tensorsByName.get(w.name);
  const card = h('div', { className: 'weight' });
  card.dataset.tensor = w.name;
  card.append(h('div', { className: 'weight-name', textContent: w.name }));
  const pairs = [['shape', w.shape], ['dtype', info?.dtype ?? w.dtype ?? '?']];
  if (info) pairs.push(['kind', info.kind], ['bytes', `${formatBytes(info.bytes)} (${info.bytes.toLocaleString('en')})`]);
  const numel = info ? info.shape.reduce((a, b) => a * b, 1) : 0;
  if (info && numel <= MAX_STATS_ELEMENTS && info.dtype !== 'bool') {
    try {
      const s = weightStats(await gm.getTensor(w.name));
      pairs.push(['min', shortNumber(s.min)], ['max', shortNumber(s.max)], ['mean', shortNumber(s.mean)], ['std', shortNumber(s.std)]);
      if (s.nan || s.inf) pairs.push(['non-finite', `${s.nan} NaN, ${s.inf} ±Inf`]);
      card.append(defList(pairs, 'weight-stats'));
      if (s.bins.length) card.append(histogram(s));
      return card;
    } catch (err) {
      pairs.push(['values', `could not be read: ${err?.message ?? err}`]);
    }
  } else if (info && numel > MAX_STATS_ELEMENTS) {
    pairs.push(['values', `${numel.toLocaleString('en')} elements: too many to summarise here`]);
  }
  card.append(defList(pairs, 'weight-stats'));
  return card;
}

function moduleSection(modules, path) {
  const m = modules[path];
  if (!m) return null;
  const hp = Object.entries(m.hparams ?? {}).filter(([k]) => k !== 'training');
  return section(`module ${path || '(root)'}`, defList([['type', m.type], ...hp.map(([k, v]) => [k, reprArg(v)])], 'module-hparams'));
}

function timeText(entries, total) {
  if (!entries.length) return 'not profiled yet: press Run';
  const fused = entries.find((p) => typeof p.fused_into === 'string');
  if (fused) return `fused into ${fused.fused_into} at load: its time is counted there`;
  const ms = entries.reduce((a, p) => a + (Number(p.ms) || 0), 0);
  return `${ms.toFixed(3)} ms${total > 0 ? ` (${((100 * ms) / total).toFixed(1)}% of the run)` : ''}`;
}

function foldButtons(scope, folded, onFold) {
  const chain = scopeChain(scope);
  if (!chain.length) return null;
  const row = h('div', { className: 'fold-row' }, h('span', { className: 'hint inline', textContent: 'fold:' }));
  for (const s of chain) {
    const b = h('button', { type: 'button', className: 'secondary small', textContent: s, testid: 'graph-fold', disabled: folded.has(s) });
    b.dataset.scope = s;
    b.addEventListener('click', () => onFold(s));
    row.append(b);
  }
  return row;
}

/**
 * Fills `container` with the details of node `name` or (when `scope` is given) of a folded module.
 * ctx: {gm, model (graph-model.js), nodes (gm.graph.nodes), modules, tensors, profile, folded: Set,
 *       onFold(scope), onUnfold(scope)}. Returns a promise that settles once the weight statistics are in.
 */
export async function renderDetails(container, { name = null, scope = null }, ctx) {
  const token = (container.dataset.token = String(Number(container.dataset.token ?? 0) + 1));
  const tensorsByName = new Map((ctx.tensors ?? []).map((t) => [t.name, t]));
  const profile = ctx.profile ?? [];
  const total = profile.reduce((a, p) => a + (Number(p.ms) || 0), 0);
  const parts = [];
  let weights = [];

  if (scope !== null) {
    const members = ctx.model.items.filter((it) => it.scope === scope || it.scope.startsWith(`${scope}.`));
    const memberNames = new Set(members.map((m) => m.name));
    const own = (ctx.tensors ?? []).filter((t) => t.name.startsWith(`${scope}.`));
    parts.push(h('h3', { textContent: `module ${scope}` }));
    parts.push(defList([
      ['nodes', String(members.length)],
      ['tensors', `${own.length} (${formatBytes(own.reduce((a, t) => a + t.bytes, 0))})`],
      ['time', timeText(profile.filter((p) => memberNames.has(p.name)), total)],
    ], 'details-summary'));
    const unfold = h('button', { type: 'button', className: 'secondary small', textContent: `unfold ${scope}`, testid: 'graph-unfold' });
    unfold.dataset.scope = scope;
    unfold.addEventListener('click', () => ctx.onUnfold(scope));
    parts.push(unfold);
    const mod = moduleSection(ctx.modules, scope);
    if (mod) parts.push(mod);
    const parent = foldButtons(scope.includes('.') ? scope.slice(0, scope.lastIndexOf('.')) : '', ctx.folded, ctx.onFold);
    if (parent) parts.push(parent);
  } else {
    const node = ctx.nodes.find((n) => n.name === name);
    const item = ctx.model.byName.get(name);
    if (!node) {
      container.replaceChildren(h('p', { className: 'hint', textContent: 'Click a box to see its details.' }));
      return;
    }
    const target = item?.target ?? String(node.target);
    parts.push(h('h3', { textContent: node.name }));
    const pairs = [['op', node.op], ['target', target]];
    if (item?.shape) pairs.push(['output', item.shape]);
    pairs.push(['args', reprArg(node.args ?? [])], ['kwargs', reprArg(node.kwargs ?? {})]);
    pairs.push(['module scope', item?.scope || '(root)']);
    pairs.push(['time', timeText(profile.filter((p) => p.name === name), total)]);
    parts.push(defList(pairs, 'details-node'));
    const fold = item && foldButtons(item.scope, ctx.folded, ctx.onFold);
    if (fold) parts.push(fold);
    if (node.op === 'call_module') {
      const mod = moduleSection(ctx.modules, target);
      if (mod) parts.push(mod);
    }
    let meta = {};
    try {
      meta = node.meta ?? {};
    } catch {
      meta = {};
    }
    const metaPairs = Object.entries(meta).map(([k, v]) => {
      const text = reprArg(v);
      return [k, text.length > 300 ? `${text.slice(0, 299)}…` : text];
    });
    if (metaPairs.length) parts.push(section('meta', defList(metaPairs, 'details-meta')));
    weights = item?.weights ?? [];
  }
  const weightBox = h('div', { className: 'weights', testid: 'details-weights' });
  if (weights.length) parts.push(section(`weights (${weights.length})`, weightBox));
  container.replaceChildren(...parts);
  container.dataset.node = name ?? '';
  container.dataset.scope = scope ?? '';
  delete container.dataset.ready;
  for (const w of weights) {
    const card = await weightCard(ctx.gm, tensorsByName, w);
    if (container.dataset.token !== token) return; // another node was clicked meanwhile
    weightBox.append(card);
  }
  container.dataset.ready = 'true';
}

export function clearDetails(container) {
  container.replaceChildren(h('p', { className: 'hint', textContent: 'Click a box to see its details.' }));
  container.dataset.node = '';
  container.dataset.scope = '';
  container.dataset.ready = 'true';
}
