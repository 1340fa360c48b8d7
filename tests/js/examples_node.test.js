// Every script in examples/node runs, as users run them (`node examples/node/X.mjs`, importing 'fxwasm'
// by name through the package's self-reference), and prints what it promises.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { ROOT, TOY, TOY_TABLE } from './helpers.js';

const DIR = path.join(ROOT, 'examples', 'node');
let tmp;
beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-examples-')); });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function run(script, ...args) {
  const r = spawnSync(process.execPath, [path.join(DIR, script), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('every example script is covered here', () => {
  expect(fs.readdirSync(DIR).filter((f) => f.endsWith('.mjs')).sort())
    .toEqual(['build_graph.mjs', 'graph_pass.mjs', 'inspect_profile.mjs', 'run_npy.mjs']);
});

test('run_npy: the demo round trip, and a model run on .npy files given by name', async () => {
  let r = run('run_npy.mjs');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/output_1: float32 \[10\] -0\.8182 -0\.7778/);

  const a = path.join(tmp, 'a.npy');
  const b = path.join(tmp, 'b.npy');
  fs.writeFileSync(a, fxwasm.writeNpy(fxwasm.tensor(new Float32Array(10).fill(3), [10])));
  fs.writeFileSync(b, fxwasm.writeNpy(fxwasm.tensor(new Float32Array(10).fill(1), [10])));
  const out = path.join(tmp, 'out.npz');
  r = run('run_npy.mjs', TOY, `l_a_=${a}`, `L_b_=${b}`, '--out', out);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/output_0: bool \[\] false/);
  const saved = fxwasm.readNpz(new Uint8Array(fs.readFileSync(out)));
  expect(Array.from(saved.output_1.data)).toEqual(new Array(10).fill(0.75));  // 3 / (|3| + 1)

  r = run('run_npy.mjs', TOY, `l_a_=${a}`);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/missing input 'l_b_'/);
});

test('graph_pass: rewrites the division, keeps the results, saves a loadable model', async () => {
  const saved = path.join(tmp, 'edited.fxw');
  const r = run('graph_pass.mjs', TOY, '--save', saved);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/after: 1 division\(s\) rewritten/);
  expect(r.stdout).toMatch(/truediv = 1\.0 \/ add/);
  expect(r.stdout).toMatch(/mul = l_a_ \* truediv/);
  expect(r.stdout).toMatch(/max \|before - after\| = 0\.00e\+0/);
  const gm = await fxwasm.load(saved);
  expect(gm.graph.nodes.map((n) => n.target)).toContain('operator.mul');
  expect(gm.graph.find('x')).toBeUndefined();
  gm.dispose();
});

test('build_graph: a perceptron built from nothing matches plain JS and survives save/load', async () => {
  const out = path.join(tmp, 'built.fxw');
  const r = run('build_graph.mjs', out);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/linear_1 = torch\.nn\.functional\.linear\(relu, w2, b2\)/);
  expect(r.stdout).toMatch(/output float32 \[2,3\], max \|fxwasm - plain JS\| = /);
  expect(r.stdout).toMatch(/reloaded: 67 parameters, same output: true/);
  const gm = await fxwasm.load(out);
  expect(gm.info().inputs.map((i) => i.name)).toEqual(['x']);
  gm.dispose();
});

test('inspect_profile: info, table, code, users and a per-node profile', () => {
  const r = run('inspect_profile.mjs', TOY, '--runs', '2');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(TOY_TABLE);
  expect(r.stdout).toMatch(/8 nodes: placeholder 2, call_function 4, call_method 1, output 1/);
  expect(r.stdout).toMatch(/abs_1 +→ add/);
  expect(r.stdout).toMatch(/best of 2 runs: [\d.]+ ms/);
  expect(r.stdout).toMatch(/\n {2}torch\.abs +[\d.]+ ms/);
});

test('inspect_profile on a model this build cannot run yet still inspects it', () => {
  const model = path.join(ROOT, 'examples', 'digits_cnn', 'digits_cnn.fxw');
  const r = run('inspect_profile.mjs', model, '--runs', '1');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/== table\n/);
  expect(r.stdout).toMatch(/best of 1 runs|cannot run yet: /);
});
