// The one value dialect between JS and the core (docs/format.md §3) — the file's: node args, module
// hyperparameters, run inputs and outputs, reference values. One encoder, one decoder.
// JS → dialect: null/undefined → null; Array → $tuple; FxList → list (a JSON array); a plain object → $dict,
// unless it is one tag ({$dtype: 'float32'}, {$size: [...]}, …), which passes as it is; a non-finite
// number → {$float: 'inf'}; Node → {$node}; Tensor or ResidentTensor → {$tensor: body} (the caller says
// how: a run copies the bytes into the heap, a graph argument cannot hold one).
// Dialect → JS: $tuple → Array, list → Array (or FxList for graph values), $dict → plain object,
// $float → number, $node and $tensor → what the caller makes of them; other tags ($dtype, $size, $slice,
// $device…) stay one-key objects, their items decoded.
import { FxError } from './errors.js';
import { Tensor } from './tensor.js';
import { ResidentTensor } from './resident.js';
import { Node } from './graph.js';  // a cycle (graph.js uses this module), read only inside calls

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
  return Number.isFinite(x) ? { $float: x } : encodeNumber(x);
}

// How deep values may nest: the core's limit for any value (program/object.h kMaxObjectDepth), checked
// here first so that a deep or cyclic JS value fails as FxError, not as a JS stack overflow.
export const MAX_VALUE_DEPTH = 64;

/**
 * Throws FxError when `value` (an array or object met inside `ancestors`) would nest too deep or contains
 * itself. `where` names it in the message ("input #0[1]", "args").
 */
export function checkNesting(value, ancestors, where) {
  if (ancestors.includes(value)) throw new FxError(`${where}: the value contains itself (a cycle)`);
  if (ancestors.length >= MAX_VALUE_DEPTH) throw new FxError(`${where}: value nests deeper than ${MAX_VALUE_DEPTH} levels`);
}

// Tags a plain JS object may be written as (the one-key objects the decoder leaves as they are).
const TAGS = new Set(['$dtype', '$device', '$memory_format', '$layout', '$size', '$slice', '$ellipsis', '$float', '$tuple', '$dict', '$node']);

function encodeNumber(x) {
  if (Number.isNaN(x)) return { $float: 'nan' };
  if (!Number.isFinite(x)) return { $float: x > 0 ? 'inf' : '-inf' };
  return x;  // JSON writes a non-integral number with '.' or an exponent: the core reads a float
}

/**
 * Encodes a JS value in the dialect. `where` names it in messages (a path is appended as it descends:
 * "input #0[1].k"); `tensor(t, where)` makes the body of a Tensor's (or ResidentTensor's) {$tensor: body} —
 * without it a Tensor is an error.
 */
export function encodeValue(value, { where = 'value', tensor = null } = {}, ancestors = []) {
  if (value instanceof Tensor || value instanceof ResidentTensor) {
    if (!tensor) throw new FxError(`${where}: a Tensor cannot be a graph value; add it with gm.addTensor(name, t) and read it with graph.getAttr(name)`);
    return { $tensor: tensor(value, where) };
  }
  if (value instanceof Node) return { $node: value.name };
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return value;  // exact: json.js writes it digit for digit
  if (typeof value === 'number') return encodeNumber(value);
  if (ArrayBuffer.isView(value)) {
    throw new FxError(`${where}: a bare ${value.constructor.name} has no shape; wrap it with fxwasm.tensor(data, shape)`);
  }
  if (typeof value !== 'object') throw new FxError(`${where}: cannot pass a ${typeof value}`);
  checkNesting(value, ancestors, where);
  ancestors.push(value);
  try {
    const enc = (x, path) => encodeValue(x, { where: where + path, tensor }, ancestors);
    if (value instanceof FxList) return Array.from(value, (x, i) => enc(x, `[${i}]`));
    if (Array.isArray(value)) return { $tuple: value.map((x, i) => enc(x, `[${i}]`)) };
    const keys = Object.keys(value);
    if (keys.length === 1 && TAGS.has(keys[0])) {
      const k = keys[0];
      const payload = value[k];
      if ((k === '$size' || k === '$slice' || k === '$tuple') && Array.isArray(payload)) {
        return { [k]: payload.map((x, i) => enc(x, `[${i}]`)) };
      }
      if (k === '$dict' && payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
        return { $dict: Object.fromEntries(Object.keys(payload).map((key) => [key, enc(payload[key], `.${key}`)])) };
      }
      // The other tags hold one scalar ({$dtype: 'float32'}, {$node: 'x'}, {$float: 'inf'}).
      if (payload === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof payload)) return value;
      throw new FxError(`${where}: {${k}: …} holds a ${Array.isArray(payload) ? 'list' : typeof payload}, not a name or number`);
    }
    return { $dict: Object.fromEntries(keys.map((k) => [k, enc(value[k], `.${k}`)])) };
  } finally {
    ancestors.pop();
  }
}

/**
 * Decodes a value of the dialect. `node(name)` makes a {$node} (graph values), `tensor(body)` a
 * {$tensor} (run values), `packed(address)` reads a run reply's {$packed} as JSON.parse would its text;
 * `List` is what a JSON array (a Python list) becomes: Array, or FxList for graph values so that writing
 * them back keeps lists lists.
 */
export function decodeValue(json, { node = null, tensor = null, packed = null, List = Array } = {}) {
  const dec = (v) => {
    if (Array.isArray(v)) return List.from(v, dec);
    if (v === null || typeof v !== 'object') return v;
    let key;
    for (key in v) break;  // a tag: one key (Object.keys would allocate, on every run's reply)
    const body = v[key];
    switch (key) {
      case '$tuple': return body.map(dec);
      case '$dict': return Object.fromEntries(Object.entries(body ?? {}).map(([k, x]) => [k, dec(x)]));
      case '$float':
        if (typeof body === 'number') return body;
        return body === 'nan' ? NaN : body === 'inf' ? Infinity : -Infinity;
      case '$node':
        if (!node) throw new FxError(`unexpected node reference '${body}' in a value`);
        return node(body);
      case '$tensor':
        if (!tensor) throw new FxError('unexpected tensor in a value');
        return tensor(body);
      case '$packed':  // a run reply's value in the packed form (marshal.js)
        if (!packed) throw new FxError('unexpected packed value');
        return dec(packed(body));
      case '$size':
      case '$slice':
        return { [key]: body.map(dec) };
      default:
        return v;
    }
  };
  return dec(json);
}
