// Run values across the wasm boundary: the dialect of value.js, each Tensor as
// {$tensor: {dtype, shape, ptr, nbytes}} (cpp/api/wire.h). Input bytes are copied into 64-byte aligned heap
// blocks (fx_run takes them over and views them; other calls copy them and the caller frees them); output
// bytes are copied out before the core releases them (fx_release, fx_release_outputs).
// The usual run — tensors in tuples and lists — crosses in the dialect's packed form (doubles in the heap,
// docs/format.md §3) instead of JSON text: toPacked and fromPacked turn dialect values into it and back,
// as JSON.stringify and JSON.parse do for the text; value.js encodes and decodes either.
import { FxError } from './errors.js';
import { Tensor, DTYPE_ARRAYS } from './tensor.js';
import { ResidentTensor } from './resident.js';
import { encodeValue, decodeValue } from './value.js';

/**
 * Encodes a run value, copying each tensor's bytes into a heap block pushed on `blocks`; a ResidentTensor
 * goes by its id (ptr = -id, no copy).
 */
export function encodeRunValue(rt, value, blocks, where) {
  const tensor = (t, at) => {
    if (t instanceof ResidentTensor) return { dtype: t.dtype, shape: t.shape, ptr: -t.wireId(rt, at), nbytes: 0 };
    const bytes = t.bytes();
    const ptr = rt.copyInput(bytes);
    blocks.push(ptr);
    return { dtype: t.dtype, shape: t.shape, ptr, nbytes: bytes.byteLength };
  };
  return encodeValue(value, { where, tensor });
}

/** Rebuilds a value the core answered (JSON, or {$packed: address}), copying tensor bytes out of the heap. */
export function decodeRunValue(rt, json) {
  return decodeValue(json, {
    tensor: (body) => tensorFromHeap(rt, body),
    packed: (address) => fromPacked(rt.heapF64, address, rt.wireDtypes.names),
  });
}

function tensorFromHeap(rt, { dtype, shape, ptr, nbytes }) {
  if (ptr < 0) return new ResidentTensor(rt, -ptr, shape, dtype);  // kept in the runtime ({resident: true})
  const Ctor = DTYPE_ARRAYS[dtype];
  if (!Ctor) throw new FxError(`output has dtype '${dtype}', which JavaScript cannot hold`);
  const bytes = nbytes ? rt.copyOut(ptr, nbytes) : new Uint8Array(0);
  return new Tensor(new Ctor(bytes.buffer, 0, nbytes / Ctor.BYTES_PER_ELEMENT), shape, dtype);
}

// Packed kinds (cpp/api/wire.h): a tensor is [TENSOR, dtype code, ndim, ptr, nbytes, ...dims], a tuple or
// list [TUPLE|LIST, count, ...items], None [NONE].
const TENSOR = 0, TUPLE = 1, LIST = 2, NONE = 3;

/**
 * The packed form of encoded values (encodeRunValue's) as one tuple: an array of numbers, or null when a
 * value holds anything but tensors, tuples, lists and None (it then goes as JSON). `codes`: dtype name → code.
 */
export function toPacked(values, codes) {
  const out = [TUPLE, values.length];
  const put = (v) => {
    if (v === null) return out.push(NONE) > 0;
    if (Array.isArray(v)) {
      out.push(LIST, v.length);
      return v.every(put);
    }
    if (typeof v !== 'object') return false;
    const body = v.$tensor;
    if (body !== undefined) {
      const code = codes.get(body.dtype);
      if (code === undefined) return false;
      out.push(TENSOR, code, body.shape.length, body.ptr, body.nbytes, ...body.shape);
      return true;
    }
    if (Array.isArray(v.$tuple)) {
      out.push(TUPLE, v.$tuple.length);
      return v.$tuple.every(put);
    }
    return false;
  };
  return values.every(put) ? out : null;
}

/**
 * The dialect value (as JSON.parse gives it) packed at `address` (8-byte aligned) in `heap` (the heap as
 * doubles); `names`: code → dtype name.
 */
export function fromPacked(heap, address, names) {
  const d = heap;
  let at = address / 8;
  const read = () => {
    const kind = d[at++];
    if (kind === TENSOR) {
      const shape = new Array(d[at + 1]);
      for (let k = 0; k < shape.length; k++) shape[k] = d[at + 4 + k];
      const body = { dtype: names[d[at]], shape, ptr: d[at + 2], nbytes: d[at + 3] };
      at += 4 + shape.length;
      return { $tensor: body };
    }
    if (kind === NONE) return null;
    const items = new Array(d[at++]);
    for (let i = 0; i < items.length; i++) items[i] = read();
    return kind === TUPLE ? { $tuple: items } : items;
  };
  return read();
}
