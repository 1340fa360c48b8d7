// Gathers the inputs of a CLI run: --input NAME=FILE.npy first, then --random (from the shapes and dtypes
// the file records), else the reference inputs stored in the file.
import fs from 'node:fs';
import { FxError, readNpy, randomTensor, seededRandom } from '../../src/index.js';
import { notAFile } from '../../src/source.js';

function parseSpec(spec) {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new FxError(`--input '${spec}': expected NAME=FILE.npy`);
  return [spec.slice(0, eq), spec.slice(eq + 1)];
}

const MAX_INPUT_BYTES = 2 ** 32;  // a tensor the wasm heap (4 GiB at most) could hold

// A regular file's bytes, read up to the size it had when opened (as load() reads a model: a device such
// as /dev/zero never ends, a FIFO blocks until a writer comes, a growing file would be read forever).
function readRegularFile(path) {
  const why = notAFile(fs.statSync(path));  // before opening: opening a FIFO waits for a writer
  if (why) throw new FxError(why);
  const fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    const again = notAFile(stat);
    if (again) throw new FxError(again);
    if (stat.size > MAX_INPUT_BYTES) throw new FxError(`${stat.size} bytes is more than the WebAssembly heap can hold`);
    const bytes = new Uint8Array(stat.size + 1);  // one byte more: reading it means the file grew
    let n = 0;
    for (;;) {
      const got = fs.readSync(fd, bytes, n, bytes.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > stat.size) throw new FxError(`the file grew while it was read (its size was ${stat.size} bytes)`);
    }
    if (n !== stat.size) throw new FxError(`the file shrank while it was read (${n} of ${stat.size} bytes)`);
    return bytes.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

function readInputFile(path, name) {
  let bytes;
  try {
    bytes = readRegularFile(path);
  } catch (e) {
    const why = e instanceof FxError ? e.message : e.code === 'ENOENT' ? 'no such file' : e.message;
    throw new FxError(`--input ${name}=${path}: cannot read: ${why}`);
  }
  return readNpy(bytes, path);
}

/**
 * Inputs in placeholder order for `gm`, or throws FxError saying what is missing. `sources[i]` says where
 * input i came from: 'npy', 'random' or 'reference' (the file's stored reference inputs). --random draws
 * randomTensor's (torch.randn for floats) from one generator in placeholder order; --seed N makes it
 * seededRandom(N), the same inputs as the API's and the playground's for that seed (unseeded: Math.random).
 */
export function gatherInputs(gm, { input = [], random = false, seed }) {
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
  const rng = seed === undefined ? Math.random : seededRandom(seed);
  const sources = [];
  const inputs = placeholders.map((p, i) => {
    if (given.has(p.name)) {
      sources.push('npy');
      return given.get(p.name);
    }
    if (random) {
      if (!Array.isArray(p.shape)) {
        throw new FxError(`input '${p.name}': the file records no shape for it, so --random cannot make one; pass --input ${p.name}=FILE.npy`, { node: p.name });
      }
      sources.push('random');
      try {
        return randomTensor(p.shape, typeof p.dtype === 'string' ? p.dtype : 'float32', rng);
      } catch (e) {
        throw new FxError(`input '${p.name}': --random cannot make it: ${e.message}`, { node: p.name, cause: e });
      }
    }
    if (reference) {
      sources.push('reference');
      return reference.inputs[i];
    }
    throw new FxError(`input '${p.name}' not given and the file stores no reference inputs: pass --input ${p.name}=FILE.npy or --random`, { node: p.name });
  });
  return { inputs, sources, names: placeholders.map((p) => p.name) };
}

/** One line saying where the inputs came from: "inputs: x from the file's stored reference inputs". */
export function inputsNote({ sources, names }, seed) {
  const by = (kind) => names.filter((_, i) => sources[i] === kind);
  const parts = [];
  if (by('reference').length) parts.push(`${by('reference').join(', ')} from the file's stored reference inputs`);
  if (by('random').length) parts.push(`${by('random').join(', ')} random (randn for floats, ints 0..9, bools; ${seed === undefined ? 'unseeded: pass --seed N to repeat' : `seed ${seed}`})`);
  if (by('npy').length) parts.push(`${by('npy').join(', ')} from --input`);
  return `inputs: ${parts.join('; ') || 'none'}`;
}
