// One meaning of "random" (issue #20 item 7): fxwasm.randomTensor draws torch.randn's distribution for
// floats (integers 0..9, bools coin flips) from fxwasm.seededRandom, and the CLI's `run --random --seed N`,
// the API and the playground's inputs (web/playground/lib/inputs.js, which takes both from the package)
// give the same tensors for the same seed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { inputSpecs, makeInputs } from '../../web/playground/lib/inputs.js';
import { float16ToNumber } from '../../web/playground/lib/half.js';
import { CLI, makeFxw } from './helpers.js';

// x, n, m, h → (x, n, m, h): the outputs are the inputs, so `run --out` writes what the CLI drew.
function identityFxw() {
  const placeholder = (name, shape, dtype) => ({ op: 'placeholder', name, target: name, args: [], kwargs: {},
    meta: { shape: { $size: shape }, dtype: { $dtype: dtype } } });
  return makeFxw({
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      placeholder('x', [3, 5], 'float32'), placeholder('n', [4], 'int64'), placeholder('m', [6], 'bool'),
      placeholder('h', [7], 'float16'),
      { op: 'output', name: 'output', target: 'output',
        args: [{ $tuple: [{ $node: 'x' }, { $node: 'n' }, { $node: 'm' }, { $node: 'h' }] }], kwargs: {} },
    ],
    modules: { '': { type: 'torch.nn.modules.module.Module', hparams: {} } },
  });
}

const plain = (t) => ({ dtype: t.dtype, shape: t.shape, data: Array.from(t.data, String) });

test('randomTensor draws floats as torch.randn does: mean 0, standard deviation 1, unbounded', () => {
  const x = fxwasm.randomTensor([40000], 'float32', fxwasm.seededRandom(1));
  const v = Array.from(x.data);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const std = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length);
  expect(Math.abs(mean)).toBeLessThan(0.02);
  expect(Math.abs(std - 1)).toBeLessThan(0.02);
  // about 31.7% of a standard normal lies outside [-1, 1], 4.6% outside [-2, 2]
  expect(v.filter((a) => Math.abs(a) > 1).length / v.length).toBeCloseTo(0.317, 1);
  expect(v.filter((a) => Math.abs(a) > 2).length / v.length).toBeCloseTo(0.046, 1);
  const h = fxwasm.randomTensor([1000], 'float16', fxwasm.seededRandom(1));
  expect(h.data).toBeInstanceOf(Uint16Array);
  // float16 is the float32 draw rounded: the same seed gives the same numbers to float16 precision
  Array.from(h.data, float16ToNumber).forEach((a, i) => expect(Math.abs(a - v[i])).toBeLessThanOrEqual(Math.abs(v[i]) * 2 ** -11));
  const n = fxwasm.randomTensor([1000], 'int64', fxwasm.seededRandom(1));
  expect(new Set(Array.from(n.data, Number))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  const m = fxwasm.randomTensor([1000], 'bool', fxwasm.seededRandom(1));
  expect(new Set(m.data)).toEqual(new Set([0, 1]));
  expect(() => fxwasm.randomTensor([2], 'complex32')).toThrow(/unknown dtype 'complex32'/);
});

test('the same seed gives the same inputs in the CLI, the API and the playground', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-random-'));
  const file = path.join(dir, 'identity.fxw');
  fs.writeFileSync(file, identityFxw());
  try {
    const seed = 42;
    // the API: one generator, drawn in placeholder order
    const gm = await fxwasm.load(file);
    const rng = fxwasm.seededRandom(seed);
    const api = gm.info().inputs.map((p) => fxwasm.randomTensor(p.shape, p.dtype, rng));
    // the playground's Run button
    const specs = inputSpecs(gm, Array.from(gm.graph.nodes), gm.info());
    const { inputs: playground, note } = makeInputs(fxwasm, specs, { seed });
    expect(note).toBe('Inputs: x: randn [3, 5] float32, seed 42; n: random ints 0..9 [4] int64, seed 42; ' +
      'm: random bools [6] bool, seed 42; h: randn [7] float16, seed 42');
    expect(playground.map(plain)).toEqual(api.map(plain));
    // the CLI: the model returns its inputs, written to a .npz
    const out = path.join(dir, 'out.npz');
    const r = spawnSync(process.execPath, [CLI, 'run', file, '--random', '--seed', String(seed), '--out', out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^inputs: x, n, m, h random \(randn for floats, ints 0\.\.9, bools; seed 42\)$/m);
    const cli = Object.values(fxwasm.readNpz(fs.readFileSync(out)));
    expect(cli.map(plain)).toEqual(api.map(plain));
    // and another seed, other inputs
    const other = makeInputs(fxwasm, specs, { seed: seed + 1 }).inputs;
    expect(plain(other[0])).not.toEqual(plain(api[0]));
    gm.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
