// A minimal .npy reader for the files bench/export_onnx.py writes (little-endian f4/i8, C order). The
// benchmark keeps its own so that it still runs, and reports fxwasm's failure in a table cell, while
// web/src is broken or half-edited.
import fs from 'node:fs';

const TYPES = { '<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array],
  '<f8': ['float64', Float64Array], '|b1': ['bool', Uint8Array] };

/** { data, shape, dtype } of a .npy file. */
export function readNpyFile(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = bytes[6];
  const headerLen = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLen);
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const shape = (/'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1] ?? '').split(',').map((s) => s.trim())
    .filter(Boolean).map(Number);
  if (!TYPES[descr] || /'fortran_order'\s*:\s*True/.test(header)) throw new Error(`${file}: unsupported ${header}`);
  const [dtype, Ctor] = TYPES[descr];
  const numel = shape.reduce((a, b) => a * b, 1);
  const offset = start + headerLen;
  const data = new Ctor(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + numel * Ctor.BYTES_PER_ELEMENT));
  return { data, shape, dtype };
}
