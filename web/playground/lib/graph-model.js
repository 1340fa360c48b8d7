// What the graph drawing shows, computed from the graph's nodes, the module tree (gm.modules()) and the
// named tensors (gm.tensors()) — no DOM here, so it is testable on its own:
// - one item per node, with its op/module type and output shape; get_attr nodes whose every user is a
//   call are not items of their own but weights listed inside each user (as Netron draws them);
// - each node's module scope (layer2.0 for layer2.0.conv1), from call_module / get_attr targets, from an
//   nn_module_stack meta when the tracer recorded one, else from its users' (then inputs') scopes, so
//   that the residual `add` of torchvision's resnets folds with its block;
// - folding: every node inside a folded scope becomes one box for that scope.
import { targetName } from './repr.js';

const shortType = (type) => String(type ?? '').split('.').pop();

const untag = (v, tag) => (v && typeof v === 'object' && tag in v ? v[tag] : v);

/** `[1, 64, 56, 56]` from meta ({shape}, {tensor_meta: {shape}}, {val: {shape}}); '' when unknown. */
export function metaShapeText(meta) {
  const src = meta?.shape !== undefined ? meta : meta?.tensor_meta ?? meta?.val ?? {};
  const s = untag(src.shape, '$size');
  if (!Array.isArray(s)) return '';
  if (s.some((x) => Array.isArray(untag(x, '$size')))) return ''; // several outputs: the table says it
  return `[${s.map((d) => (d && typeof d === 'object' ? '?' : d)).join(', ')}]`;
}

const parentScope = (path) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

/** Every proper prefix scope of `scope` ('' excluded): 'a.b.c' → ['a', 'a.b', 'a.b.c']. */
export function scopeChain(scope) {
  if (!scope) return [];
  const parts = scope.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

function commonScope(scopes) {
  if (!scopes.length) return null;
  let common = scopes[0].split('.');
  for (const s of scopes.slice(1)) {
    const p = s.split('.');
    let i = 0;
    while (i < common.length && i < p.length && common[i] === p[i]) i++;
    common = common.slice(0, i);
  }
  return common.join('.');
}

// The innermost module path of an nn_module_stack meta ({key: [path, type]} or {key: {$tuple: [...]}}).
function stackScope(meta) {
  const stack = meta?.nn_module_stack;
  if (!stack || typeof stack !== 'object') return null;
  const entries = Object.values(stack).map((v) => untag(v, '$tuple')).filter(Array.isArray);
  const last = entries[entries.length - 1];
  // Dynamo writes L['self'].layer2[0] style paths; normalise to layer2.0.
  return typeof last?.[0] === 'string'
    ? last[0].replace(/^L\['self'\]\.?/, '').replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '')
    : null;
}

function readMeta(n) {
  try {
    return n.meta ?? {};
  } catch {
    return {};
  }
}

/**
 * The drawable model: {items: [{name, op, target, type, shape, scope, weights, inputs}], byName, modules}.
 * `nodes`: gm.graph.nodes; `modules`: gm.modules() or {}; `tensors`: gm.tensors() or [].
 */
export function buildGraphModel(nodes, modules = {}, tensors = []) {
  const tensorByName = new Map(tensors.map((t) => [t.name, t]));
  const raw = nodes.map((n) => {
    let inputs = [];
    try {
      inputs = (n.allInputNodes ?? []).map((m) => m.name);
    } catch {
      inputs = [];
    }
    return { name: n.name, op: n.op, target: targetName(n), meta: readMeta(n), inputs };
  });
  const users = new Map(raw.map((r) => [r.name, []]));
  for (const r of raw) for (const i of new Set(r.inputs)) users.get(i)?.push(r.name);
  const byRaw = new Map(raw.map((r) => [r.name, r]));

  // get_attr nodes used only by calls are drawn inside those calls.
  const absorbed = new Set(raw.filter((r) => r.op === 'get_attr' && users.get(r.name).length > 0 &&
    users.get(r.name).every((u) => byRaw.get(u).op.startsWith('call_'))).map((r) => r.name));

  const weightOf = (r) => {
    const t = tensorByName.get(r.target);
    return { node: r.name, name: r.target, shape: t ? `[${t.shape.join(', ')}]` : metaShapeText(r.meta),
      dtype: t?.dtype ?? String(untag(r.meta.dtype, '$dtype') ?? '') };
  };
  // A call_module's own parameters and buffers (conv1.weight, conv1.bias; not those of submodules):
  // parameters first, weight before bias, as a module's repr thinks of them.
  const rank = (t) => [{ parameter: 0, buffer: 1 }[t.kind] ?? 2,
    /\.weight$/.test(t.name) ? 0 : /\.bias$/.test(t.name) ? 1 : t.shape.length === 0 ? 3 : 2]; // scalars last
  const byRank = (a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || a.name.localeCompare(b.name);
  };
  const moduleTensors = (path) => tensors.filter((t) => t.name.startsWith(`${path}.`) &&
    !t.name.slice(path.length + 1).includes('.')).sort(byRank).map((t) => ({ node: null, name: t.name,
    shape: `[${t.shape.join(', ')}]`, dtype: t.dtype }));

  const items = [];
  for (const r of raw) {
    if (absorbed.has(r.name)) continue;
    let type = r.op;
    if (r.op === 'call_module') type = shortType(modules[r.target]?.type) || r.target;
    else if (r.op === 'call_function' || r.op === 'call_method') type = r.target;
    else if (r.op === 'get_attr') type = `get_attr ${r.target}`;
    const weights = [
      ...(r.op === 'call_module' ? moduleTensors(r.target) : []),
      ...[...new Set(r.inputs)].filter((i) => absorbed.has(i)).map((i) => weightOf(byRaw.get(i))),
    ];
    let scope = null;
    if (r.op === 'call_module' || r.op === 'get_attr') scope = parentScope(r.target);
    else scope = stackScope(r.meta);
    // A call on weights (a functional conv after fold_conv_bn, a mul by a constant) sits with them.
    const own = [...new Set(r.inputs)].filter((i) => absorbed.has(i)).map((i) => parentScope(byRaw.get(i).target));
    if (scope === null && own.length) scope = commonScope(own);
    items.push({ name: r.name, op: r.op, target: r.target, type, shape: metaShapeText(r.meta), scope,
      weights, inputs: [...new Set(r.inputs)].filter((i) => !absorbed.has(i)), meta: r.meta });
  }
  const byName = new Map(items.map((it) => [it.name, it]));

  // Calls with no recorded scope take their users' common scope (visited last to first, so users are
  // settled before their inputs), else their inputs' (visited first to last). Placeholders and the
  // output stay at the root.
  for (const it of items) if (it.op === 'placeholder' || it.op === 'output') it.scope = '';
  const open = items.filter((it) => it.scope === null);
  const common = (names) => {
    const s = names.map((n) => byName.get(n)?.scope);
    return s.length && s.every((x) => typeof x === 'string') ? commonScope(s) : null;
  };
  for (const it of [...open].reverse()) {
    it.scope = common((users.get(it.name) ?? []).filter((u) => byName.has(u) && byName.get(u).op !== 'output'));
  }
  for (const it of open) it.scope ??= common(it.inputs) ?? '';
  return { items, byName, modules };
}

/** Every scope that holds at least two items (what is worth folding), outermost first. */
export function foldableScopes(model) {
  const count = new Map();
  for (const it of model.items) for (const s of scopeChain(it.scope)) count.set(s, (count.get(s) ?? 0) + 1);
  return [...count].filter(([, n]) => n >= 2).map(([s]) => s).sort((a, b) => a.split('.').length - b.split('.').length || a.localeCompare(b));
}

/** Scopes at depth `depth` (1 = layer1, 2 = layer1.0) that can fold. */
export function scopesAtDepth(model, depth) {
  return foldableScopes(model).filter((s) => s.split('.').length === depth);
}

export const groupId = (scope) => `module:${scope}`;

/**
 * The boxes and edges to draw with the scopes in `folded` collapsed:
 * {boxes: [{id, kind: 'node'|'group', item?, scope?, members?, type, shape, weights}], edges: [[from, to]],
 *  boxOf: Map(node name → box id)}.
 */
export function foldedView(model, folded = new Set()) {
  const boxOf = new Map();
  const groups = new Map();
  for (const it of model.items) {
    const outer = scopeChain(it.scope).find((s) => folded.has(s));
    if (!outer) {
      boxOf.set(it.name, it.name);
      continue;
    }
    const id = groupId(outer);
    boxOf.set(it.name, id);
    if (!groups.has(id)) groups.set(id, { id, kind: 'group', scope: outer, members: [] });
    groups.get(id).members.push(it);
  }
  const boxes = [];
  const emitted = new Set();
  for (const it of model.items) {
    const id = boxOf.get(it.name);
    if (emitted.has(id)) continue;
    emitted.add(id);
    if (id === it.name) {
      boxes.push({ id, kind: 'node', item: it, type: it.type, shape: it.shape, weights: it.weights });
    } else {
      const g = groups.get(id);
      const last = g.members[g.members.length - 1];
      const params = g.members.reduce((a, m) => a + m.weights.length, 0);
      // Tracers keep the classes of leaf modules only: containers are stored as torch.nn.Module.
      const type = shortType(model.modules[g.scope]?.type);
      boxes.push({ ...g, type: type && type !== 'Module' ? type : 'module', shape: last.shape,
        weights: [], summary: `${g.members.length} nodes${params ? `, ${params} tensors` : ''}` });
    }
  }
  const edges = new Map();
  for (const it of model.items) {
    const to = boxOf.get(it.name);
    for (const i of it.inputs) {
      const from = boxOf.get(i);
      if (from && from !== to) edges.set(`${from}\u0000${to}`, [from, to]);
    }
  }
  return { boxes, edges: [...edges.values()], boxOf };
}

/** Names of the items whose name, target or type contains `query` (case-insensitive), in graph order. */
export function searchItems(model, query) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return model.items.filter((it) => [it.name, it.target, it.type].some((s) => String(s).toLowerCase().includes(q)) ||
    it.weights.some((w) => w.name.toLowerCase().includes(q))).map((it) => it.name);
}
