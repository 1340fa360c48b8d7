// Run inputs nested past the format's 64 levels are a clean FxError (the core once overflowed the wasm stack
// decoding one 1,200 deep, and lost every model); integers outside int64 are errors, not floats; and
// `check` compares as torch.allclose does — infinities equal only in sign, NaN unequal unless equalNan.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { CLI, makeFxw, reluFxw } from './helpers.js';

/** `depth` arrays around a tensor: [[[...[t]...]]]. */
function nested(depth, leaf) {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

test('a run input nested 1,200 or 100,000 deep is an FxError and every model keeps working', async () => {
  const before = await fxwasm.load(reluFxw());
  const gm = await fxwasm.load(reluFxw());
  const x = fxwasm.tensor(new Float32Array([-1, 2]), [2]);
  await expect(gm.run([nested(1200, x)])).rejects.toThrow(fxwasm.FxError);
  await expect(gm.run([nested(1200, x)])).rejects.toThrow(/nests deeper than 64 levels/);
  await expect(gm.run([nested(100000, x)])).rejects.toThrow(fxwasm.FxError);
  await expect(gm.run({ x: nested(100000, 1) })).rejects.toThrow(/nests deeper than 64 levels/);
  await expect(gm.run([nested(65, 1)])).rejects.toThrow(/nests deeper than 64/);
  expect(Array.from((await gm.run([x])).data)).toEqual([0, 2]);
  expect(Array.from((await before.run([x])).data)).toEqual([0, 2]);
  const later = await fxwasm.load(reluFxw());
  expect(Array.from((await later.run([x])).data)).toEqual([0, 2]);
});

test('the core refuses a run message nested 100,000 deep without recursing into it', async () => {
  const before = await fxwasm.load(reluFxw());
  const rt = await getRuntime();
  const { handle } = rt.call('fx_new');
  rt.call('fx_edit', handle, JSON.stringify({ cmd: 'create_node', op: 'placeholder', target: 'x' }));
  rt.call('fx_edit', handle, JSON.stringify({ cmd: 'create_node', op: 'output', args: [{ $node: 'x' }] }));
  const deep = `[${'['.repeat(100000)}1${']'.repeat(100000)}]`;
  rt.scratch(1);
  expect(() => rt.call('fx_run', handle, deep, 0, 0, false, false)).toThrow(/input 'x': value nests deeper than 64 levels/);
  const edit = `{"cmd":"create_node","op":"call_function","target":"torch.relu","args":${deep}}`;
  expect(() => rt.call('fx_edit', handle, edit)).toThrow(/nests deeper than the format's limit of 64/);
  expect(rt.call('fx_run', handle, '[5]', 0, 0, false, false).outputs).toBe(5);
  rt.call('fx_dispose', handle);
  const x = fxwasm.tensor(new Float32Array([3, -4]), [2]);
  expect(Array.from((await before.run([x])).data)).toEqual([3, 0]);
});

test('integers outside int64 are errors naming the input, not floats', async () => {
  const rt = await getRuntime();
  const { handle } = rt.call('fx_new');
  rt.call('fx_edit', handle, JSON.stringify({ cmd: 'create_node', op: 'placeholder', target: 'n' }));
  rt.call('fx_edit', handle, JSON.stringify({ cmd: 'create_node', op: 'output', args: [{ $node: 'n' }] }));
  rt.scratch(1);
  expect(() => rt.call('fx_run', handle, '[18446744073709551616]', 0, 0, false, false))
    .toThrow(/input 'n': integer 18446744073709551616 does not fit in 64-bit signed/);
  expect(() => rt.call('fx_run', handle, '[-9223372036854775809]', 0, 0, false, false)).toThrow(/does not fit in 64-bit signed/);
  expect(rt.call('fx_run', handle, '[-9223372036854775808]', 0, 0, false, false).outputs).toBe(-9223372036854775808);
  rt.call('fx_dispose', handle);
});

/** x → relu(x) with the reference input `input` and the stored output `stored` (float32, two values). */
function referenceFile(input, stored) {
  return makeFxw({
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {} },
      { op: 'call_function', name: 'relu', target: 'torch.relu', args: [{ $node: 'x' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'relu' }], kwargs: {} },
    ],
    modules: { '': { type: 'torch.nn.modules.module.Module', hparams: {} } },
    reference: { inputs: [{ $tensor: '__ref__.in.0' }], outputs: { $tensor: '__ref__.out' } },
  }, {
    '__ref__.in.0': { dtype: 'F32', shape: [2], data: new Float32Array(input), kind: 'reference' },
    '__ref__.out': { dtype: 'F32', shape: [2], data: new Float32Array(stored), kind: 'reference' },
  });
}

describe('check compares as torch.allclose', () => {
  test('a stored +inf fails against -inf or a finite result', async () => {
    // relu(-inf) = 0, relu(2) = 2: stored +inf against 0 must fail.
    let gm = await fxwasm.load(referenceFile([-Infinity, 2], [Infinity, 2]));
    let report = await gm.check();
    expect(report.status).toBe('fail');
    expect(report.outputs[0].mismatched).toBe(1);
    // relu(+inf) = +inf against a stored -inf.
    gm = await fxwasm.load(referenceFile([Infinity, 2], [-Infinity, 2]));
    expect((await gm.check({ rtol: 1, atol: 1 })).status).toBe('fail');
    // The same infinity passes.
    gm = await fxwasm.load(referenceFile([Infinity, 2], [Infinity, 2]));
    expect((await gm.check()).status).toBe('pass');
  });

  test('NaN against NaN fails unless equalNan', async () => {
    const gm = await fxwasm.load(referenceFile([NaN, 2], [NaN, 2]));
    const strict = await gm.check();
    expect(strict.status).toBe('fail');
    expect(strict.equal_nan).toBe(false);
    const lenient = await gm.check({ equalNan: true });
    expect(lenient.status).toBe('pass');
    expect(lenient.equal_nan).toBe(true);
    const other = await fxwasm.load(referenceFile([1, 2], [NaN, 2]));
    expect((await other.check({ equalNan: true })).status).toBe('fail');
  });

  test('the CLI: exit 1 on NaN by default, 0 with --equal-nan, 1 on a wrong infinity', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-check-'));
    const nan = path.join(dir, 'nan.fxw');
    fs.writeFileSync(nan, referenceFile([NaN, 2], [NaN, 2]));
    const inf = path.join(dir, 'inf.fxw');
    fs.writeFileSync(inf, referenceFile([-Infinity, 2], [Infinity, 2]));
    const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    let r = cli('check', nan);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/check: FAIL/);
    r = cli('check', nan, '--equal-nan');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/check: pass .*NaN equal to NaN/);
    r = cli('check', inf, '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).status).toBe('fail');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

test('replacePattern(gm, gm): the graph as its own pattern and replacement computes the same', async () => {
  const gm = await fxwasm.load(reluFxw());
  const x = fxwasm.tensor(new Float32Array([-1, 2]), [2]);
  const matches = gm.replacePattern(gm, gm);
  expect(matches).toHaveLength(1);
  expect(Array.from((await gm.run([x])).data)).toEqual([0, 2]);
  const neg = await fxwasm.create();
  const p = neg.graph.placeholder('p');
  neg.graph.output(neg.graph.callFunction('torch.neg', [p]));
  expect(gm.replacePattern(gm, neg)).toHaveLength(1);
  expect(Array.from((await gm.run([x])).data)).toEqual([1, -2]);
});
