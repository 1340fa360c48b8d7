// A minimal .npy parser for the files bench/export_onnx.py and bench/export_transformers.py write
// (little-endian f4/i8/i4/f8/b1, C order). The benchmark keeps its own so that it still runs, and reports
// fxwasm's failure in a table cell, while web/src is broken or half-edited. Plain JS (no node: modules):
// the transformer workloads parse their .npy files with it in the browser page too (bench/browser/).

const TYPES = { '<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array],
  '<f8': ['float64', Float64Array], '|b1': ['bool', Uint8Array] };

const latin1 = (bytes, start, end) => String.fromCharCode(...bytes.subarray(start, end));

/** { data, shape, dtype } of the bytes of a .npy file (`name`: for error messages). */
export function parseNpy(bytes, name = '.npy') {
  if (latin1(bytes, 1, 6) !== 'NUMPY') throw new Error(`${name}: not a .npy file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[6];
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = latin1(bytes, start, start + headerLen);
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const shape = (/'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1] ?? '').split(',').map((s) => s.trim())
    .filter(Boolean).map(Number);
  if (!TYPES[descr] || /'fortran_order'\s*:\s*True/.test(header)) throw new Error(`${name}: unsupported ${header}`);
  const [dtype, Ctor] = TYPES[descr];
  const numel = shape.reduce((a, b) => a * b, 1);
  const offset = start + headerLen;
  const data = new Ctor(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + numel * Ctor.BYTES_PER_ELEMENT));
  return { data, shape, dtype };
}
