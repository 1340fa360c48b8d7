// Moves run inputs and outputs across the wasm boundary. Structure travels as JSON (cpp/api/object_json.h);
// tensor bytes travel through the heap: inputs are malloc'ed and copied in (freed after the call), outputs
// are described by (dtype, shape, ptr, nbytes) and copied out before the core releases them.
import { FxError } from './errors.js';
import { Tensor, DTYPE_ARRAYS } from './tensor.js';

/** Encodes one input value, copying tensor bytes into the heap; every block is pushed on `blocks`. */
export function encodeValue(rt, value, blocks, where) {
  if (value instanceof Tensor) {
    const bytes = value.bytes();
    const ptr = rt.copyIn(bytes);
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
  if (Array.isArray(value)) return value.map((x, i) => encodeValue(rt, x, blocks, `${where}[${i}]`));
  if (ArrayBuffer.isView(value)) {
    throw new FxError(`input ${where}: a bare ${value.constructor.name} has no shape; wrap it with fxwasm.tensor(data, shape)`);
  }
  if (typeof value === 'object') {
    return { $t: 'dict', items: Object.entries(value).map(([k, v]) => [k, encodeValue(rt, v, blocks, `${where}.${k}`)]) };
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
