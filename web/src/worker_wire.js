// What crosses between the page and a model's Worker (worker_client.js ⇄ worker.js): run values with
// Tensors flattened to plain records (structured clone drops classes), and errors as {message, node}.
// Tensor buffers are moved (transferred), not copied, whenever the sender gives them up.
import { FxError } from './errors.js';
import { Tensor } from './tensor.js';
import { ResidentTensor } from './resident.js';
import { checkNesting } from './value.js';

const TENSOR = '__fxwasmTensor__';

/**
 * A run value ready for postMessage. With `transfer` (a Set), each tensor's ArrayBuffer is added to it
 * so it moves instead of being copied (the sender's tensor is then detached).
 */
export function packValue(value, transfer = null, where = '#0', ancestors = []) {
  if (value instanceof ResidentTensor) {
    throw new FxError(`input ${where}: a ResidentTensor lives in an in-thread runtime; a worker's model takes toTensor()`);
  }
  if (value instanceof Tensor) {
    transfer?.add(value.data.buffer);
    return { [TENSOR]: true, data: value.data, shape: value.shape, dtype: value.dtype };
  }
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) {
    return value;  // numbers (NaN, ±Infinity included), bigints, booleans, strings, null; views fail later as in-thread
  }
  checkNesting(value, ancestors, `input ${where}`);  // as in-thread: a cycle or 64+ levels is an FxError, not a stack overflow
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return value.map((x, i) => packValue(x, transfer, `${where}[${i}]`, ancestors));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, packValue(v, transfer, `${where}.${k}`, ancestors)]));
  } finally {
    ancestors.pop();
  }
}

/** The inverse of packValue. */
export function unpackValue(value) {
  if (Array.isArray(value)) return value.map(unpackValue);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    if (value[TENSOR] === true) return new Tensor(value.data, value.shape, value.dtype);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unpackValue(v)]));
  }
  return value;
}

export function packError(e) {
  if (e instanceof FxError) return { message: e.message, node: e.node };
  return { message: `internal error in the fxwasm worker: ${e && e.message ? e.message : String(e)}`, node: null };
}

export function unpackError(e) {
  return new FxError(e.message, { node: e.node ?? null });
}
