// Shared by the JS tests: paths, the seed example, and a tiny .fxw writer (docs/format.md) for crafting
// files the exporter would never write — no reference, a wrong reference, an unknown op.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TOY = path.join(ROOT, 'examples', 'seed', 'toy_example.fxw');
export const CLI = path.join(ROOT, 'web', 'bin', 'fxwasm.js');

export const TOY_TABLE = `opcode         name    target            args         kwargs
-------------  ------  ----------------  -----------  --------
placeholder    l_a_    L_a_              ()           {}
placeholder    l_b_    L_b_              ()           {}
call_function  abs_1   torch.abs         (l_a_,)      {}
call_function  add     operator.add      (abs_1, 1)   {}
call_function  x       operator.truediv  (l_a_, add)  {}
call_method    sum_1   sum               (l_b_,)      {}
call_function  lt      operator.lt       (sum_1, 0)   {}
output         output  output            ((lt, x),)   {}
`;

export function toyBytes() {
  return new Uint8Array(fs.readFileSync(TOY));
}

/**
 * A .fxw file from a program object and {name: {dtype ('F32'…), shape, data: TypedArray, kind}}.
 * Tensors are packed without padding (readers accept any alignment).
 */
export function makeFxw(program, tensors = {}) {
  const header = {};
  const chunks = [];
  let offset = 0;
  program = { ...program, tensors: { ...(program.tensors ?? {}) } };
  for (const [name, t] of Object.entries(tensors)) {
    const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + bytes.length] };
    program.tensors[name] = t.kind;
    chunks.push(bytes);
    offset += bytes.length;
  }
  header.__metadata__ = { format: 'fxwasm', format_version: '1', program: JSON.stringify(program) };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + text.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  let at = 8 + text.length;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** x → relu(x) (or `target`), with a reference x=[-1, 2] → `expected` unless expected is null. */
export function reluFxw({ target = 'torch.relu', expected = [0, 2] } = {}) {
  const program = {
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {},
        meta: { shape: { $size: [2] }, dtype: { $dtype: 'float32' } } },
      { op: 'call_function', name: 'relu', target, args: [{ $node: 'x' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'relu' }], kwargs: {} },
    ],
    modules: { '': { type: 'torch.nn.modules.module.Module', hparams: {} } },
    tensors: {},
  };
  const tensors = {};
  if (expected) {
    program.reference = { inputs: [{ $tensor: '__ref__.in.0' }], outputs: { $tensor: '__ref__.out' } };
    tensors['__ref__.in.0'] = { dtype: 'F32', shape: [2], data: new Float32Array([-1, 2]), kind: 'reference' };
    tensors['__ref__.out'] = { dtype: 'F32', shape: [2], data: new Float32Array(expected), kind: 'reference' };
  }
  return makeFxw(program, tensors);
}

/**
 * x → x + w with a parameter w of shape [3]: an input of another length cannot broadcast. With meta (x's
 * shape and dtype), run() rejects such an input at the placeholder; without, the add fails.
 */
export function addWeightFxw({ meta = true } = {}) {
  const program = {
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {},
        meta: meta ? { shape: { $size: [3] }, dtype: { $dtype: 'float32' } } : {} },
      { op: 'get_attr', name: 'w', target: 'w', args: [], kwargs: {} },
      { op: 'call_function', name: 'add', target: 'operator.add', args: [{ $node: 'x' }, { $node: 'w' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'add' }], kwargs: {} },
    ],
    modules: { '': { type: 'torch.nn.modules.module.Module', hparams: {} } },
  };
  return makeFxw(program, { w: { dtype: 'F32', shape: [3], data: new Float32Array([1, 2, 3]), kind: 'parameter' } });
}
