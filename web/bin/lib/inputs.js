// Gathers the inputs of a CLI run: --input NAME=FILE.npy first, then --random (from the shapes and dtypes
// the file records), else the reference inputs stored in the file.
import fs from 'node:fs';
import { FxError, readNpy, randomTensor } from '../../src/index.js';

function parseSpec(spec) {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new FxError(`--input '${spec}': expected NAME=FILE.npy`);
  return [spec.slice(0, eq), spec.slice(eq + 1)];
}

function readInputFile(path, name) {
  let bytes;
  try {
    bytes = fs.readFileSync(path);
  } catch (e) {
    throw new FxError(`--input ${name}=${path}: cannot read: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  return readNpy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}

/** Inputs in placeholder order for `gm`, or throws FxError saying what is missing. */
export function gatherInputs(gm, { input = [], random = false }) {
  const placeholders = gm.info().inputs;
  const given = new Map();
  for (const spec of input) {
    const [name, path] = parseSpec(spec);
    const p = placeholders.find((q) => q.name === name || q.target === name);
    if (!p) {
      throw new FxError(`--input ${name}: the model has no input '${name}' (inputs: ${placeholders.map((q) => q.name).join(', ') || 'none'})`);
    }
    given.set(p.name, readInputFile(path, name));
  }
  const reference = given.size === placeholders.length || random ? null : gm.reference();
  return placeholders.map((p, i) => {
    if (given.has(p.name)) return given.get(p.name);
    if (random) {
      if (!Array.isArray(p.shape)) {
        throw new FxError(`input '${p.name}': the file records no shape for it, so --random cannot make one; pass --input ${p.name}=FILE.npy`, { node: p.name });
      }
      return randomTensor(p.shape, typeof p.dtype === 'string' ? p.dtype : 'float32');
    }
    if (reference) return reference.inputs[i];
    throw new FxError(`input '${p.name}' not given and the file stores no reference inputs: pass --input ${p.name}=FILE.npy or --random`, { node: p.name });
  });
}
