// A read-only JavaScript view of a GraphModule's graph, built from the core's graph JSON: nodes in order
// with op, name, target, args, kwargs (node references resolved to Node objects), users and meta.
// Values follow docs/format.md §3 and are decoded for JS: $node → Node, $tuple/list → Array,
// $dict → plain object, $float → ±Infinity/NaN; other tags ($dtype, $size, $slice, $device, …) stay as
// their one-key objects, e.g. {$dtype: 'float32'}.

export class Node {
  /** @internal */
  constructor(raw) {
    this.op = raw.op;
    this.name = raw.name;
    this.target = raw.target;
    this.type = raw.type ?? null;
    this.args = [];
    this.kwargs = {};
    this.users = [];
    this.meta = {};
    this.raw = raw;  // the node as the core encoded it (format.md §3), for tools that want it exact
  }

  /** Distinct nodes used by this one, in order of first appearance. */
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

  toString() {
    return `%${this.name} : ${this.op}[target=${this.target}]`;
  }
}

function decode(value, byName) {
  if (Array.isArray(value)) return value.map((v) => decode(v, byName));
  if (value === null || typeof value !== 'object') return value;
  if ('$node' in value) return byName.get(value.$node);
  if ('$tuple' in value) return value.$tuple.map((v) => decode(v, byName));
  if ('$dict' in value) return decodeDict(value.$dict, byName);
  if ('$float' in value) return value.$float === 'nan' ? NaN : value.$float === 'inf' ? Infinity : -Infinity;
  if ('$size' in value) return { $size: value.$size.map((v) => decode(v, byName)) };
  if ('$slice' in value) return { $slice: value.$slice.map((v) => decode(v, byName)) };
  return value;
}

function decodeDict(obj, byName) {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, decode(v, byName)]));
}

export class Graph {
  /** @internal built by GraphModule.graph from the core's graph JSON */
  constructor(json) {
    this.nodes = json.nodes.map((raw) => new Node(raw));
    const byName = new Map(this.nodes.map((n) => [n.name, n]));
    this._byName = byName;
    for (const n of this.nodes) {
      n.args = decode(n.raw.args, byName);
      n.kwargs = decodeDict(n.raw.kwargs ?? {}, byName);
      n.meta = decodeDict(n.raw.meta ?? {}, byName);
      n.users = (n.raw.users ?? []).map((u) => byName.get(u));
    }
    Object.freeze(this.nodes);
  }

  /** The node called `name`, or undefined. */
  find(name) {
    return this._byName.get(name);
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
}
