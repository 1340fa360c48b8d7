// NumPy .npy and .npz files ↔ Tensors, for the CLI's --input and --out (and for anyone holding numpy
// data). .npy: magic, version, a Python-dict header (descr, fortran_order, shape), raw data.
// .npz: a zip of .npy files; written uncompressed ("stored"), read when stored (np.savez, not savez_compressed).
import { FxError } from './errors.js';
import { Tensor, DTYPE_ARRAYS } from './tensor.js';

const DESCR_TO_DTYPE = {
  '<f4': 'float32', '<f8': 'float64', '<f2': 'float16', '<i8': 'int64', '<i4': 'int32', '<i2': 'int16',
  '|i1': 'int8', '<i1': 'int8', '|u1': 'uint8', '<u1': 'uint8', '|b1': 'bool', '<b1': 'bool',
  '<c8': 'complex64', '<c16': 'complex128',
};
const DTYPE_TO_DESCR = {
  float32: '<f4', float64: '<f8', float16: '<f2', int64: '<i8', int32: '<i4', int16: '<i2',
  int8: '|i1', uint8: '|u1', bool: '|b1', complex64: '<c8', complex128: '<c16',
};
const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];  // \x93NUMPY

/** Reads a .npy file; `name` labels errors. */
export function readNpy(bytes, name = '.npy') {
  const fail = (why) => { throw new FxError(`${name}: not a readable .npy file: ${why}`); };
  if (bytes.byteLength < 10 || MAGIC.some((b, i) => bytes[i] !== b)) fail('bad magic');
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen, start;
  if (major === 1) { headerLen = view.getUint16(8, true); start = 10; }
  else if (major === 2 || major === 3) {
    if (bytes.byteLength < 12) fail('truncated');
    headerLen = view.getUint32(8, true); start = 12;
  } else fail(`unknown version ${major}`);
  if (start + headerLen > bytes.byteLength) fail('truncated header');
  const header = new TextDecoder().decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) fail('bad header');
  const dtype = DESCR_TO_DTYPE[descr];
  if (!dtype) fail(`unsupported dtype '${descr}' (little-endian float16/32/64, complex64/128, int8/16/32/64, uint8 and bool are)`);
  if (fortran === 'True') fail('Fortran-ordered arrays are not supported (save with np.ascontiguousarray)');
  const shape = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  if (!shape.every((d) => Number.isSafeInteger(d) && d >= 0)) fail(`bad shape (${shapeText})`);
  const numel = shape.reduce((a, b) => a * b, 1);
  const itemsize = Number(descr.slice(2));
  const dataStart = start + headerLen;
  if (dataStart + numel * itemsize > bytes.byteLength) fail(`truncated data: ${numel} × ${itemsize} bytes expected`);
  // An aligned copy of its own (not bytes.slice: a Node Buffer's slice is a view into a shared pool).
  const copy = new Uint8Array(numel * itemsize);
  copy.set(bytes.subarray(dataStart, dataStart + numel * itemsize));
  const Ctor = DTYPE_ARRAYS[dtype];
  return new Tensor(new Ctor(copy.buffer, 0, (numel * itemsize) / Ctor.BYTES_PER_ELEMENT), shape, dtype);
}

/** Writes a Tensor as a version 1.0 .npy file. */
export function writeNpy(t) {
  const descr = DTYPE_TO_DESCR[t.dtype];
  if (!descr) throw new FxError(`cannot write a ${t.dtype} tensor as .npy (numpy has no such dtype)`);
  const shape = t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';  // data starts 64-byte aligned, as numpy does
  const head = new TextEncoder().encode(header);
  const data = t.bytes();
  const out = new Uint8Array(10 + head.length + data.byteLength);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, head.length, true);
  out.set(head, 10);
  out.set(data, 10 + head.length);
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Writes {name: Tensor} as an uncompressed .npz (a zip of name.npy files), as np.savez does. */
export function writeNpz(tensors) {
  const enc = new TextEncoder();
  const files = Object.entries(tensors).map(([name, t]) => ({ name: enc.encode(`${name}.npy`), data: writeNpy(t) }));
  const local = [];
  const central = [];
  let offset = 0;
  for (const f of files) {
    const crc = crc32(f.data);
    const lh = new Uint8Array(30 + f.name.length);
    const lv = new DataView(lh.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, f.data.length, true);
    lv.setUint32(22, f.data.length, true);
    lv.setUint16(26, f.name.length, true);
    lh.set(f.name, 30);
    const ch = new Uint8Array(46 + f.name.length);
    const cv = new DataView(ch.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, f.data.length, true);
    cv.setUint32(24, f.data.length, true);
    cv.setUint16(28, f.name.length, true);
    cv.setUint32(42, offset, true);
    ch.set(f.name, 46);
    local.push(lh, f.data);
    central.push(ch);
    offset += lh.length + f.data.length;
  }
  const centralSize = central.reduce((a, c) => a + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, files.length, true);
  ev.setUint16(10, files.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const parts = [...local, ...central, end];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

// The entries of a zip file: {entry, method, data (the stored or deflated bytes), size (uncompressed)}.
function zipEntries(bytes, name) {
  const fail = (why) => { throw new FxError(`${name}: not a readable .npz file: ${why}`); };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) fail('no zip directory');
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const entries = [];
  const dec = new TextDecoder();
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== 0x02014b50) fail('bad zip directory');
    const method = view.getUint16(at + 10, true);
    const stored = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    const localAt = view.getUint32(at + 42, true);
    const entry = dec.decode(bytes.subarray(at + 46, at + 46 + nameLen));
    if (stored === 0xffffffff || localAt === 0xffffffff) fail(`'${entry}' needs zip64 (over 4 GiB), which is not supported`);
    if (method !== 0 && method !== 8) fail(`'${entry}' uses zip compression method ${method} (stored and deflate are supported)`);
    if (localAt + 30 > bytes.byteLength) fail('truncated');
    const dataAt = localAt + 30 + view.getUint16(localAt + 26, true) + view.getUint16(localAt + 28, true);
    if (dataAt + stored > bytes.byteLength) fail('truncated');
    entries.push({ entry, method, data: bytes.subarray(dataAt, dataAt + stored), size });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Reads an uncompressed .npz (np.savez) into {name: Tensor} (names without ".npy"). For np.savez_compressed
 * files use readNpzAsync (decompression is asynchronous in browsers).
 */
export function readNpz(bytes, name = '.npz') {
  const out = {};
  for (const { entry, method, data } of zipEntries(bytes, name)) {
    if (method !== 0) {
      throw new FxError(`${name}: '${entry}' is compressed (np.savez_compressed): read it with await fxwasm.readNpzAsync(bytes)`);
    }
    out[entry.replace(/\.npy$/, '')] = readNpy(data, `${name}:${entry}`);
  }
  return out;
}

async function inflateRaw(data, size, label) {
  if (typeof DecompressionStream !== 'function') {
    throw new FxError(`${label}: this JavaScript engine has no DecompressionStream to inflate it`);
  }
  try {
    const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    const out = new Uint8Array(await new Response(stream).arrayBuffer());
    if (out.byteLength !== size) throw new Error(`inflated to ${out.byteLength} bytes, the zip says ${size}`);
    return out;
  } catch (e) {
    throw new FxError(`${label}: cannot decompress: ${e.message}`, { cause: e });
  }
}

/** Reads any .npz — np.savez or np.savez_compressed — into {name: Tensor}, in Node and browsers. */
export async function readNpzAsync(bytes, name = '.npz') {
  const out = {};
  for (const { entry, method, data, size } of zipEntries(bytes, name)) {
    const label = `${name}:${entry}`;
    out[entry.replace(/\.npy$/, '')] = readNpy(method === 8 ? await inflateRaw(data, size, label) : data, label);
  }
  return out;
}
