// Moves run inputs and outputs across the wasm boundary. Structure travels as JSON (cpp/api/wire.h), or for
// the common case (inputs all tensors; output a tensor or flat tuple/list of them) as doubles in the heap;
// tensor bytes travel through the heap: inputs are copied into aligned blocks (fx_run takes them over and
// views them; other calls copy and the caller frees them), outputs are described by (dtype, shape, ptr,
// nbytes) and copied out before the core releases them.
import { FxError } from './errors.js';
import { Tensor, DTYPE_ARRAYS } from './tensor.js';
import { ResidentTensor } from './resident.js';

// How deep run inputs may nest: the core's limit for any value (program/object.h kMaxObjectDepth), checked
// here first so that a deep or cyclic JS value fails as FxError, not as a JS stack overflow.
export const MAX_VALUE_DEPTH = 64;

/**
 * Throws FxError when `value` (an array or object met at `depth` below the input, inside `ancestors`)
 * would nest too deep or contains itself.
 */
export function checkNesting(value, ancestors, where, what = 'input') {
  const at = what ? `${what} ${where}` : where;
  if (ancestors.includes(value)) throw new FxError(`${at}: the value contains itself (a cycle)`);
  if (ancestors.length >= MAX_VALUE_DEPTH) throw new FxError(`${at}: value nests deeper than ${MAX_VALUE_DEPTH} levels`);
}

/** Encodes one input value, copying tensor bytes into the heap; every block is pushed on `blocks`. */
export function encodeValue(rt, value, blocks, where, ancestors = []) {
  if (value instanceof ResidentTensor) value.wireId(rt, where), value = value.toTensor();  // JSON form: a copy
  if (value instanceof Tensor) {
    const bytes = value.bytes();
    const ptr = rt.copyInput(bytes);
    blocks.push(ptr);
    return { $t: 'tensor', dtype: value.dtype, shape: value.shape, ptr, nbytes: bytes.byteLength };
  }
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value;  // exact: json.js writes it digit for digit
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    return { $t: 'float', v: Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf' };
  }
  if (typeof value === 'string') return value;
  if (ArrayBuffer.isView(value)) {
    throw new FxError(`input ${where}: a bare ${value.constructor.name} has no shape; wrap it with fxwasm.tensor(data, shape)`);
  }
  if (typeof value === 'object') {
    checkNesting(value, ancestors, where);
    ancestors.push(value);
    try {
      if (Array.isArray(value)) return value.map((x, i) => encodeValue(rt, x, blocks, `${where}[${i}]`, ancestors));
      return { $t: 'dict', items: Object.entries(value).map(([k, v]) => [k, encodeValue(rt, v, blocks, `${where}.${k}`, ancestors)]) };
    } finally {
      ancestors.pop();
    }
  }
  throw new FxError(`input ${where}: cannot pass a ${typeof value}`);
}

/** Rebuilds an output value, copying tensor bytes out of the heap. */
export function decodeValue(rt, json) {
  if (Array.isArray(json)) return json.map((x) => decodeValue(rt, x));
  if (json === null || typeof json !== 'object') return json;
  switch (json.$t) {
    case 'tensor': {
      const Ctor = DTYPE_ARRAYS[json.dtype];
      if (!Ctor) throw new FxError(`output has dtype '${json.dtype}', which JavaScript cannot hold`);
      const bytes = json.nbytes ? rt.copyOut(json.ptr, json.nbytes) : new Uint8Array(0);
      return new Tensor(new Ctor(bytes.buffer, 0, json.nbytes / Ctor.BYTES_PER_ELEMENT), json.shape, json.dtype);
    }
    case 'dict':
      return Object.fromEntries(json.items.map(([k, v]) => [k, decodeValue(rt, v)]));
    case 'float':
      return json.v === 'nan' ? NaN : json.v === 'inf' ? Infinity : -Infinity;
    case 'value':
      return json.repr;
    default:
      throw new FxError(`unexpected output encoding ${JSON.stringify(json).slice(0, 80)}`);
  }
}

/**
 * Writes the fast form of `tensors` (Tensors and ResidentTensors) into the run scratch: the block pointers
 * (-id for a resident tensor: no copy), then per input [dtype code, ndim, nbytes, dims...]. Returns its
 * size in doubles, or -1 (nothing copied) when a dtype has no code. Every block is pushed on `blocks`.
 */
export function encodeTensors(rt, tensors, blocks) {
  const codes = rt.wireDtypes;
  let size = tensors.length;
  for (const t of tensors) {
    if (!codes.has(t.dtype)) return -1;
    size += 3 + t.shape.length;
  }
  const ids = tensors.map((t, i) => (t instanceof ResidentTensor ? t.wireId(rt, `#${i}`) : 0));
  const ptrs = tensors.map((t, i) => {
    if (ids[i]) return -ids[i];
    const ptr = rt.copyInput(t.bytes());
    blocks.push(ptr);
    return ptr;
  });
  const d = rt.scratch(size);  // after the copies: a growing heap would move it
  let at = tensors.length;
  tensors.forEach((t, i) => {
    d[i] = ptrs[i];
    d[at++] = codes.get(t.dtype);
    d[at++] = t.shape.length;
    d[at++] = ids[i] ? 0 : t.bytes().byteLength;
    for (const s of t.shape) d[at++] = s;
  });
  return size;
}

/** Rebuilds the outputs from a compact reply at `address` (cpp/api/wire.h), copying tensor bytes out. */
export function decodeTensors(rt, address, dtypeNames) {
  const heap = rt.heap;
  // Addresses and lengths are unsigned: past 2 GiB, `(length - address) >> 3` would go negative.
  const d = new Float64Array(heap.buffer, address, Math.floor((heap.byteLength - address) / 8));
  const count = d[1];
  let at = 2;
  const out = [];
  for (let i = 0; i < count; i++) {
    const dtype = dtypeNames[d[at]];
    const ndim = d[at + 1];
    const ptr = d[at + 2];
    const nbytes = d[at + 3];
    const shape = Array.from(d.subarray(at + 4, at + 4 + ndim));
    at += 4 + ndim;
    if (ptr < 0) {  // kept in the runtime ({resident: true})
      out.push(new ResidentTensor(rt, -ptr, shape, dtype));
      continue;
    }
    const Ctor = DTYPE_ARRAYS[dtype];
    if (!Ctor) throw new FxError(`output has dtype '${dtype}', which JavaScript cannot hold`);
    const bytes = nbytes ? rt.copyOut(ptr, nbytes) : new Uint8Array(0);
    out.push(new Tensor(new Ctor(bytes.buffer, 0, nbytes / Ctor.BYTES_PER_ELEMENT), shape, dtype));
  }
  return d[0] === 0 ? out[0] : out;
}
