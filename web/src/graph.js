// FX's Graph and Node in JavaScript (torch/fx/graph.py, node.py), named as JS users expect.
// The WebAssembly core owns the graph: a Node here is a handle (its name, unique for the graph's life),
// every read comes from the core's current description of the graph and every edit is a call into the
// core, so node objects stay valid and consistent after any edit — including edits made by passes.
// Values follow docs/format.md §3, decoded for JS: {$node} → Node, $tuple → Array, list → FxList (an
// Array), $dict → plain object, {$float: 'inf'} → Infinity; other tags ($dtype, $size, $slice, $device…)
// stay as their one-key objects, e.g. {$dtype: 'float32'}. Encoding back: Array → tuple, FxList → list,
// a non-integral number → float, an integral number → int (use fxwasm.float(2) for the float 2.0).
import { FxError } from './errors.js';
import { checkNesting } from './marshal.js';

/** A Python list among node arguments (a plain Array stands for a tuple, as FX args mostly are). */
export class FxList extends Array {
  static get [Symbol.species]() {
    return Array;  // map/filter give plain arrays
  }
}

/** Marks `items` as a Python list (not a tuple) in node arguments. */
export function list(items) {
  return FxList.from(items);
}

/** A float argument whose value is integral (2 → 2.0 in the graph), which a JS number cannot say. */
export function float(x) {
  if (typeof x !== 'number') throw new FxError(`float(): expected a number, got ${typeof x}`);
  return Number.isFinite(x) ? { $float: x } : encodeValue(x);
}

const TAGS = new Set(['$dtype', '$device', '$memory_format', '$layout', '$size', '$slice', '$ellipsis', '$float', '$tuple', '$dict', '$node']);

/** Encodes a JS argument value for the core (format.md §3). */
export function encodeValue(value, where = 'argument', ancestors = []) {
  if (value instanceof Node) return { $node: value.name };
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return value;  // exact: json.js writes it digit for digit
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { $float: 'nan' };
    if (!Number.isFinite(value)) return { $float: value > 0 ? 'inf' : '-inf' };
    return Number.isInteger(value) ? value : { $float: value };
  }
  if (typeof value !== 'object') throw new FxError(`${where}: cannot use a ${typeof value} as a graph value`);
  // A cyclic or very deep value would otherwise overflow the JS stack (the format nests at most 64 deep).
  checkNesting(value, ancestors, where, '');
  ancestors.push(value);
  try {
    const enc = (x) => encodeValue(x, where, ancestors);
    if (value instanceof FxList) return Array.from(value, enc);
    if (Array.isArray(value)) return { $tuple: value.map(enc) };
    const keys = Object.keys(value);
    if (keys.length === 1 && TAGS.has(keys[0])) {
      const k = keys[0];
      const payload = value[k];
      if ((k === '$size' || k === '$slice' || k === '$tuple') && Array.isArray(payload)) return { [k]: payload.map(enc) };
      if (k === '$dict' && payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
        return { $dict: Object.fromEntries(Object.keys(payload).map((key) => [key, enc(payload[key])])) };
      }
      // The other tags hold one scalar ({$dtype: 'float32'}, {$node: 'x'}, {$float: 'inf'}).
      if (payload === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof payload)) return value;
      throw new FxError(`${where}: {${k}: …} holds a ${Array.isArray(payload) ? 'list' : typeof payload}, not a name or number`);
    }
    return { $dict: Object.fromEntries(keys.map((k) => [k, enc(value[k])])) };
  } finally {
    ancestors.pop();
  }
}

function decode(value, graph) {
  if (Array.isArray(value)) return FxList.from(value, (v) => decode(v, graph));
  if (value === null || typeof value !== 'object') return value;
  if ('$node' in value) return graph._node(value.$node);
  if ('$tuple' in value) return value.$tuple.map((v) => decode(v, graph));
  if ('$dict' in value) return decodeDict(value.$dict, graph);
  if ('$float' in value) return value.$float === 'nan' ? NaN : value.$float === 'inf' ? Infinity : -Infinity;
  if ('$size' in value) return { $size: value.$size.map((v) => decode(v, graph)) };
  if ('$slice' in value) return { $slice: value.$slice.map((v) => decode(v, graph)) };
  return value;
}

function decodeDict(obj, graph) {
  return Object.fromEntries(Object.entries(obj ?? {}).map(([k, v]) => [k, decode(v, graph)]));
}

/** @internal A value of the format with no node references (a module's hyperparameters), as node args read. */
export function decodeLiteral(value) {
  return decode(value, null);
}

export class Node {
  #graph;
  #name;

  /** @internal nodes are made by their Graph */
  constructor(graph, name) {
    this.#graph = graph;
    this.#name = name;
  }

  #raw() {
    const raw = this.#graph._raw(this.#name);
    if (!raw) throw new FxError(`node '${this.#name}' was erased from the graph`, { node: this.#name });
    return raw;
  }

  get graph() { return this.#graph; }
  get name() { return this.#name; }
  /** Whether the node is no longer in its graph (reading its op, args… then throws FxError). */
  get erased() { return !this.#graph._raw(this.#name); }
  get op() { return this.#raw().op; }
  /** call_function: canonical qualified name ("torch.abs"); call_method: method name; others: a path. */
  get target() { return this.#raw().target; }
  set target(target) { this.#graph._edit({ cmd: 'set_target', node: this.#name, target }); }
  /** Type annotation as FX code prints it, or null. */
  get type() { return this.#raw().type ?? null; }
  /** The node as the core encodes it (format.md §3). */
  get raw() { return structuredClone(this.#raw()); }

  get args() { return decode(this.#raw().args, this.#graph).map((x) => x); }
  /** Replaces all args; users of old and new inputs stay in sync (FX's node.args = ...). */
  set args(args) {
    if (!Array.isArray(args)) throw new FxError('node.args must be an array', { node: this.#name });
    this.#graph._edit({ cmd: 'set_args', node: this.#name, args: args.map((a) => encodeValue(a, 'args')) });
  }
  get kwargs() { return decodeDict(this.#raw().kwargs, this.#graph); }
  set kwargs(kwargs) {
    if (kwargs === null || typeof kwargs !== 'object' || Array.isArray(kwargs)) {
      throw new FxError('node.kwargs must be an object', { node: this.#name });
    }
    const encoded = Object.fromEntries(Object.entries(kwargs).map(([k, v]) => [k, encodeValue(v, 'kwargs')]));
    this.#graph._edit({ cmd: 'set_kwargs', node: this.#name, kwargs: encoded });
  }
  /** shape ({$size}), dtype ({$dtype}), stack_trace, … when known. */
  get meta() { return decodeDict(this.#raw().meta, this.#graph); }
  /** Nodes that use this one, in the order they started using it. */
  get users() { return (this.#raw().users ?? []).map((u) => this.#graph._node(u)); }

  /** Distinct nodes used by this one (args, then kwargs), in order of first appearance. */
  get allInputNodes() {
    const seen = new Set();
    const walk = (v) => {
      if (v instanceof Node) seen.add(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(this.args);
    walk(this.kwargs);
    return [...seen];
  }

  /** The next node in the graph, or null after the last one. */
  get next() { return this.#graph._neighbour(this.#name, 1); }
  /** The previous node, or null before the first one. */
  get prev() { return this.#graph._neighbour(this.#name, -1); }

  /** Sets args[index] (FX's update_arg). */
  updateArg(index, value) {
    this.#graph._edit({ cmd: 'update_arg', node: this.#name, index, value: encodeValue(value, 'args') });
  }

  /** Sets kwargs[key] (FX's update_kwarg). */
  updateKwarg(key, value) {
    this.#graph._edit({ cmd: 'update_kwarg', node: this.#name, key, value: encodeValue(value, 'kwargs') });
  }

  /**
   * Makes every user of this node use `replacement` instead (only the users for which `filter(user)` is
   * true, if given); returns the users that changed.
   */
  replaceAllUsesWith(replacement, { filter } = {}) {
    this.#graph._own(replacement, 'replaceAllUsesWith');
    const only = filter ? this.users.filter((u) => filter(u)).map((u) => u.name) : null;
    const { changed } = this.#graph._edit({ cmd: 'replace_all_uses_with', node: this.#name, replacement: replacement.name, only });
    return changed.map((n) => this.#graph._node(n));
  }

  /** Uses `newInput` wherever this node used `oldInput`. */
  replaceInputWith(oldInput, newInput) {
    this.#graph._own(oldInput, 'replaceInputWith');
    this.#graph._own(newInput, 'replaceInputWith');
    this.#graph._edit({ cmd: 'replace_input_with', node: this.#name, old: oldInput.name, new: newInput.name });
  }

  /** Moves `x` (a node of this graph) to just before this node. */
  prepend(x) {
    this.#graph._own(x, 'prepend');
    this.#graph._edit({ cmd: 'move', node: x.name, anchor: this.#name, where: 'before' });
  }

  /** Moves `x` (a node of this graph) to just after this node. */
  append(x) {
    this.#graph._own(x, 'append');
    this.#graph._edit({ cmd: 'move', node: x.name, anchor: this.#name, where: 'after' });
  }

  toString() {
    return this.#name;
  }
}

export class Graph {
  #core;
  #nodes = new Map();  // name → Node: one object per node for the graph's life
  #snapshot = null;    // {version, list: raw nodes, byName: Map name → {raw, index}}
  #insert = [];        // insertion points: {before|after: name}

  /** @internal made by GraphModule.graph; `core` reads the graph JSON and applies edits */
  constructor(core) {
    this.#core = core;
  }

  #current() {
    const version = this.#core.version();
    if (!this.#snapshot || this.#snapshot.version !== version) {
      const list = this.#core.graphJson().nodes;
      const byName = new Map(list.map((raw, index) => [raw.name, { raw, index }]));
      this.#snapshot = { version, list, byName };
    }
    return this.#snapshot;
  }

  /** @internal */
  _raw(name) {
    return this.#current().byName.get(name)?.raw ?? null;
  }

  /** @internal the one Node object for `name` */
  _node(name) {
    let n = this.#nodes.get(name);
    if (!n) {
      n = new Node(this, name);
      this.#nodes.set(name, n);
    }
    return n;
  }

  /** @internal */
  _neighbour(name, step) {
    const s = this.#current();
    const at = s.byName.get(name);
    if (!at) throw new FxError(`node '${name}' was erased from the graph`, { node: name });
    const raw = s.list[at.index + step];
    return raw ? this._node(raw.name) : null;
  }

  /** @internal */
  _edit(command) {
    return this.#core.edit(command);
  }

  /** @internal checks that `node` is a live Node of this graph */
  _own(node, what) {
    if (!(node instanceof Node)) throw new FxError(`${what}: expected a Node, got ${typeof node}`);
    if (node.graph !== this) throw new FxError(`${what}: node '${node.name}' belongs to another graph`, { node: node.name });
    if (node.erased) throw new FxError(`${what}: node '${node.name}' was erased`, { node: node.name });
  }

  /** The nodes in order (a fresh array; editing while walking it is safe). */
  get nodes() {
    return this.#current().list.map((raw) => this._node(raw.name));
  }

  /** The node called `name`, or undefined. */
  find(name) {
    return this.#current().byName.has(name) ? this._node(name) : undefined;
  }

  get placeholders() {
    return this.nodes.filter((n) => n.op === 'placeholder');
  }

  get outputNode() {
    return this.nodes.find((n) => n.op === 'output');
  }

  [Symbol.iterator]() {
    return this.nodes[Symbol.iterator]();
  }

  /**
   * Creates a node at the insertion point (the end, unless inside insertingBefore/insertingAfter).
   * `name` is a wish: FX's naming rules make it unique (and derive one from the target when absent).
   */
  createNode(op, target, args = [], kwargs = {}, name = null, typeExpr = null) {
    if (!Array.isArray(args)) throw new FxError('createNode: args must be an array');
    const command = {
      cmd: 'create_node', op, target, name, type: typeExpr,
      args: args.map((a) => encodeValue(a, 'args')),
      kwargs: Object.fromEntries(Object.entries(kwargs ?? {}).map(([k, v]) => [k, encodeValue(v, 'kwargs')])),
    };
    const point = this.#insert[this.#insert.length - 1];
    if (point) Object.assign(command, point);
    const { node } = this._edit(command);
    return this._node(node);
  }

  /** An input of forward; `name` is the argument name (the node's name is derived from it, as FX does). */
  placeholder(name, { typeExpr = null } = {}) {
    return this.createNode('placeholder', name, [], {}, null, typeExpr);
  }

  /** Reads a tensor (or module attribute) by qualified name; add tensors with gm.addTensor. */
  getAttr(qualifiedName) {
    return this.createNode('get_attr', qualifiedName);
  }

  callFunction(target, args = [], kwargs = {}) {
    return this.createNode('call_function', target, args, kwargs);
  }

  callMethod(method, args = [], kwargs = {}) {
    return this.createNode('call_method', method, args, kwargs);
  }

  callModule(modulePath, args = [], kwargs = {}) {
    return this.createNode('call_module', modulePath, args, kwargs);
  }

  /** The output node: what forward returns (an Array is a tuple). */
  output(result, { typeExpr = null } = {}) {
    return this.createNode('output', 'output', [result], {}, null, typeExpr);
  }

  #inserting(point, fn) {
    this.#insert.push(point);
    try {
      return fn(this);
    } finally {
      this.#insert.pop();
    }
  }

  /** Runs fn(graph) with new nodes going just before `node` (null: at the start); returns fn's result. */
  insertingBefore(node, fn) {
    if (node === null || node === undefined) {
      const first = this.nodes[0];
      return first ? this.insertingBefore(first, fn) : this.#inserting(null, fn);
    }
    this._own(node, 'insertingBefore');
    return this.#inserting({ before: node.name }, fn);
  }

  /**
   * Runs fn(graph) with new nodes going just after `node` (null: at the end); as in FX, each new node
   * goes right after `node`, so several come out in reverse order of creation.
   */
  insertingAfter(node, fn) {
    if (node === null || node === undefined) return this.#inserting(null, fn);
    this._own(node, 'insertingAfter');
    return this.#inserting({ after: node.name }, fn);
  }

  /** Removes a node nobody uses; FxError naming it when it still has users. */
  eraseNode(node) {
    this._own(node, 'eraseNode');
    this._edit({ cmd: 'erase', node: node.name });
  }

  /** Checks the graph's invariants (topological order, users in sync, one output last…); FxError otherwise. */
  lint() {
    this._edit({ cmd: 'lint' });
  }

  /** Removes pure nodes nobody uses; returns whether anything changed. */
  eliminateDeadCode() {
    return this._edit({ cmd: 'eliminate_dead_code' }).changed;
  }

  /** The graph as torch.fx.Graph.print_tabular prints it. */
  printTabular() {
    return this.#core.tabular();
  }

  toString() {
    return this.#core.tabular();
  }
}
