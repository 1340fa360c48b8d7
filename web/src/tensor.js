// Tensor: a dense row-major array with a torch dtype name. Data is a TypedArray (BigInt64Array for int64,
// Uint8Array for bool and uint8, Uint16Array holding the raw bits of float16/bfloat16, and for complex64 /
// complex128 a Float32Array / Float64Array of interleaved (real, imaginary) pairs: twice numel values).
import { FxError } from './errors.js';
import { numberToBfloat16, numberToFloat16 } from './half.js';

export const DTYPE_ARRAYS = Object.freeze({
  float32: Float32Array,
  float64: Float64Array,
  float16: Uint16Array,
  bfloat16: Uint16Array,
  int64: BigInt64Array,
  int32: Int32Array,
  int16: Int16Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
  complex64: Float32Array,
  complex128: Float64Array,
});

/** How many TypedArray values hold one element: 2 for the complex dtypes (real, imaginary), else 1. */
export function valuesPerElement(dtype) {
  return dtype === 'complex64' || dtype === 'complex128' ? 2 : 1;
}

const DEFAULT_DTYPE = new Map([
  [Float32Array, 'float32'], [Float64Array, 'float64'], [BigInt64Array, 'int64'], [Int32Array, 'int32'],
  [Int16Array, 'int16'], [Int8Array, 'int8'], [Uint8Array, 'uint8'], [Uint8ClampedArray, 'uint8'],
]);

function checkShape(shape) {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new FxError(`tensor shape must be an array of non-negative integers, got ${JSON.stringify(shape)}`);
  }
  const numel = shape.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(numel)) throw new FxError(`tensor of shape [${shape.join(', ')}] is too large`);
  return numel;
}

// The most bytes one tensor can have: the wasm heap's whole address space (-sMAXIMUM_MEMORY=4GB).
const MAX_TENSOR_BYTES = 2 ** 32;

export class Tensor {
  /**
   * @param {ArrayLike<number|bigint|boolean>} data
   * @param {number[]} shape
   * @param {string} dtype
   */
  constructor(data, shape, dtype) {
    const Ctor = DTYPE_ARRAYS[dtype];
    if (!Ctor) throw new FxError(`unknown dtype '${dtype}' (known: ${Object.keys(DTYPE_ARRAYS).join(', ')})`);
    const numel = checkShape(shape) * valuesPerElement(dtype);
    if (!(data instanceof Ctor)) data = toTypedArray(data, Ctor, dtype);
    if (data.length !== numel) {
      const what = valuesPerElement(dtype) === 2 ? 'values (real, imaginary pairs)' : 'elements';
      throw new FxError(`tensor data has ${data.length} ${what} but shape [${shape.join(', ')}] needs ${numel}`);
    }
    this.data = data;
    this.shape = shape.slice();
    this.dtype = dtype;
  }

  /** The number of elements (numel; a complex element is one pair of values). */
  get size() {
    return this.data.length / valuesPerElement(this.dtype);
  }

  /** The raw little-endian bytes (a view, not a copy). */
  bytes() {
    return new Uint8Array(this.data.buffer, this.data.byteOffset, this.data.byteLength);
  }

  toString() {
    return `Tensor(${this.dtype}, [${this.shape.join(', ')}])`;
  }
}

function toTypedArray(data, Ctor, dtype) {
  if (data == null || typeof data.length !== 'number') throw new FxError('tensor data must be an array or TypedArray');
  const out = new Ctor(data.length);
  for (let i = 0; i < data.length; i++) {
    const x = data[i];
    if (Ctor === BigInt64Array) out[i] = typeof x === 'bigint' ? x : BigInt(Math.trunc(Number(x)));
    else if (dtype === 'bool') out[i] = x ? 1 : 0;
    else out[i] = typeof x === 'bigint' ? Number(x) : Number(x);
  }
  return out;
}

/** Flattens nested arrays, checking they are rectangular; returns [flat, shape]. */
function flatten(nested) {
  const shape = [];
  for (let x = nested; Array.isArray(x); x = x[0]) shape.push(x.length);
  const flat = [];
  const walk = (x, depth) => {
    if (depth === shape.length) {
      if (Array.isArray(x)) throw new FxError('tensor data is not rectangular');
      flat.push(x);
      return;
    }
    if (!Array.isArray(x) || x.length !== shape[depth]) throw new FxError('tensor data is not rectangular');
    for (const y of x) walk(y, depth + 1);
  };
  walk(nested, 0);
  return [flat, shape];
}

/**
 * Makes a Tensor. `data` is a TypedArray or (nested) array; `shape` defaults to the data's own
 * ([length], or the nesting of arrays); `dtype` defaults from the data (Float32Array → float32,
 * BigInt64Array → int64, …, numbers → float32, booleans → bool, bigints → int64).
 */
export function tensor(data, shape, dtype) {
  if (data instanceof Tensor) return new Tensor(data.data, shape ?? data.shape, dtype ?? data.dtype);
  let flat = data;
  let inferred = shape;
  if (Array.isArray(data)) {
    const [f, s] = flatten(data);
    flat = f;
    inferred = shape ?? s;
  } else if (typeof data === 'number' || typeof data === 'boolean' || typeof data === 'bigint') {
    flat = [data];
    inferred = shape ?? [];
  } else if (!ArrayBuffer.isView(data)) {
    throw new FxError('tensor data must be a TypedArray, an array or a scalar');
  }
  inferred = inferred ?? [flat.length];
  if (!dtype) {
    if (ArrayBuffer.isView(flat)) dtype = DEFAULT_DTYPE.get(flat.constructor);
    else if (flat.length && typeof flat[0] === 'boolean') dtype = 'bool';
    else if (flat.length && typeof flat[0] === 'bigint') dtype = 'int64';
    else dtype = 'float32';
    if (!dtype) throw new FxError(`cannot tell the dtype of a ${flat.constructor.name}; pass it explicitly`);
  }
  return new Tensor(flat, inferred, dtype);
}

/**
 * A seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same sequence in every
 * environment (the CLI's --seed, the playground's seed field), where Math.random cannot be seeded.
 */
export function seededRandom(seed) {
  let a = (Number(seed) >>> 0) || 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Standard normal numbers into `out` (Box–Muller on pairs of draws), as torch.randn's distribution.
function fillRandn(out, random, encode = (x) => x) {
  for (let i = 0; i < out.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random()));  // 1 − u is in (0, 1]: log never sees 0
    const angle = 2 * Math.PI * random();
    out[i] = encode(r * Math.cos(angle));
    if (i + 1 < out.length) out[i + 1] = encode(r * Math.sin(angle));
  }
}

/**
 * A random tensor, as PyTorch users expect one: standard normal floats (torch.randn's distribution; float16
 * and bfloat16 rounded from it; complex with real and imaginary parts of variance 1/2), integers 0..9, coin
 * flips for bool. `random` gives numbers in [0, 1):
 * seededRandom(seed) for the same tensor everywhere — the CLI's `run --random --seed N` and the playground
 * draw their inputs this way, one generator for all inputs in placeholder order.
 */
export function randomTensor(shape, dtype = 'float32', random = Math.random) {
  const Ctor = DTYPE_ARRAYS[dtype];
  if (!Ctor) throw new FxError(`unknown dtype '${dtype}' (known: ${Object.keys(DTYPE_ARRAYS).join(', ')})`);
  const n = checkShape(shape) * valuesPerElement(dtype);
  const nbytes = n * Ctor.BYTES_PER_ELEMENT;
  const what = `a ${dtype} tensor of shape [${shape.join(', ')}] (${nbytes} bytes)`;
  if (nbytes > MAX_TENSOR_BYTES) throw new FxError(`${what} is too large: the WebAssembly heap holds at most 4 GiB`);
  let data;
  try {
    data = new Ctor(n);
  } catch (e) {
    throw new FxError(`out of memory: ${what} cannot be allocated in JavaScript`, { cause: e });
  }
  if (dtype === 'float32' || dtype === 'float64') fillRandn(data, random);
  else if (valuesPerElement(dtype) === 2) fillRandn(data, random, (x) => x * Math.SQRT1_2);  // torch: E|z|² = 1
  else if (dtype === 'float16') fillRandn(data, random, numberToFloat16);
  else if (dtype === 'bfloat16') fillRandn(data, random, numberToBfloat16);
  else if (dtype === 'bool') for (let i = 0; i < n; i++) data[i] = random() < 0.5 ? 1 : 0;
  else if (Ctor === BigInt64Array) for (let i = 0; i < n; i++) data[i] = BigInt(Math.floor(random() * 10));
  else for (let i = 0; i < n; i++) data[i] = Math.floor(random() * 10);
  return new Tensor(data, shape, dtype);
}
