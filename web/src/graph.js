// FX's Graph and Node in JavaScript (torch/fx/graph.py, node.py), named as JS users expect.
// The WebAssembly core owns the graph: a Node here is a handle (its name, unique for the graph's life),
// every read comes from the core's current description of the graph and every edit is a call into the
// core, so node objects stay valid and consistent after any edit — including edits made by passes.
// Values are the file's dialect (web/src/value.js): Node ↔ {$node}, Array ↔ $tuple, FxList ↔ list, plain
// object ↔ $dict; other tags ($dtype, $size, $slice, $device…) stay as their one-key objects, e.g.
// {$dtype: 'float32'}. A number is an int when integral (use fxwasm.float(2) for the float 2.0).
import { FxError } from './errors.js';
import { FxList, encodeValue, decodeValue } from './value.js';

// A graph value for JS: node references become this graph's Nodes, lists FxLists.
function decode(value, graph) {
  return decodeValue(value, { node: (name) => graph._node(name), List: FxList });
}

// kwargs and meta: a JSON object of values.
function decodeEntries(obj, graph) {
  return Object.fromEntries(Object.entries(obj ?? {}).map(([k, v]) => [k, decode(v, graph)]));
}

function encodeArgs(args) {
  return args.map((a, i) => encodeValue(a, { where: `args[${i}]` }));
}

function encodeKwargs(kwargs) {
  return Object.fromEntries(Object.entries(kwargs ?? {}).map(([k, v]) => [k, encodeValue(v, { where: `kwargs.${k}` })]));
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
    this.#graph._edit({ cmd: 'set_args', node: this.#name, args: encodeArgs(args) });
  }
  get kwargs() { return decodeEntries(this.#raw().kwargs, this.#graph); }
  set kwargs(kwargs) {
    if (kwargs === null || typeof kwargs !== 'object' || Array.isArray(kwargs)) {
      throw new FxError('node.kwargs must be an object', { node: this.#name });
    }
    this.#graph._edit({ cmd: 'set_kwargs', node: this.#name, kwargs: encodeKwargs(kwargs) });
  }
  /** shape ({$size}), dtype ({$dtype}), stack_trace, … when known. */
  get meta() { return decodeEntries(this.#raw().meta, this.#graph); }
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
    this.#graph._edit({ cmd: 'update_arg', node: this.#name, index, value: encodeValue(value, { where: `args[${index}]` }) });
  }

  /** Sets kwargs[key] (FX's update_kwarg). */
  updateKwarg(key, value) {
    this.#graph._edit({ cmd: 'update_kwarg', node: this.#name, key, value: encodeValue(value, { where: `kwargs.${key}` }) });
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
      args: encodeArgs(args),
      kwargs: encodeKwargs(kwargs),
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
