// The command line, spawned as users run it: output text, exit codes, and `fxwasm: error:` on bad input.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, TOY, TOY_TABLE, addWeightFxw, reluFxw } from './helpers.js';

let tmp;
beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-cli-')); });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FXWASM_DEBUG: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(name, bytes) {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, bytes);
  return p;
}

function expectCleanError(r, pattern) {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^fxwasm: error: /);
  for (const line of r.stderr.trimEnd().split('\n')) expect(line).toMatch(/^fxwasm: error: /);
  if (pattern) expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at |Aborted|RuntimeError|wasm-function/);
}

test('table prints exactly what torch prints', () => {
  const r = cli('table', TOY);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(TOY_TABLE);
});

test('code', () => {
  const r = cli('code', TOY);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('def forward(self, L_a_');
});

test('info (text and JSON)', () => {
  const r = cli('info', TOY);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/format: +fxwasm 1/);
  expect(r.stdout).toMatch(/producer: +torch 2\.15\.0/);
  expect(r.stdout).toMatch(/nodes: +8 \(placeholder 2, call_function 4, call_method 1, output 1\)/);
  expect(r.stdout).toMatch(/inputs: +l_a_: float32 \[10\], l_b_: float32 \[10\]/);
  expect(r.stdout).toMatch(/parameters: +0 elements/);
  const j = JSON.parse(cli('info', TOY, '--json').stdout);
  expect(j.nodes).toBe(8);
});

test('run: reference inputs by default, --random, --json, --profile, --out', () => {
  let r = cli('run', TOY);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/\[0\] +bool +\[\] +(true|false)/);
  expect(r.stdout).toMatch(/\[1\] +float32 +\[10\] +\[/);

  r = cli('run', TOY, '--random', '--json');
  expect(r.code).toBe(0);
  const j = JSON.parse(r.stdout);
  expect(j.outputs.map((o) => [o.path, o.dtype, o.shape])).toEqual([['[0]', 'bool', []], ['[1]', 'float32', [10]]]);
  expect(j.outputs[1].data).toHaveLength(10);

  r = cli('run', TOY, '--profile');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/opcode +name +target +shape +dtype +median ms +min +max/);
  expect(r.stdout).toMatch(/per-node medians of 5 timed runs after 1 warm-up/);
  expect(r.stdout).toMatch(/op +count +total ms +mean ms +share/);
  expect(r.stdout).toMatch(/call_function +abs_1 +torch\.abs +\[10\] +float32/);

  const outPath = path.join(tmp, 'out.npz');
  r = cli('run', TOY, '--out', outPath);
  expect(r.code).toBe(0);
  const saved = fxwasm.readNpz(new Uint8Array(fs.readFileSync(outPath)));
  expect(Object.keys(saved)).toEqual(['output_0', 'output_1']);
  expect(saved.output_1.shape).toEqual([10]);
});

test('run --input NAME=x.npy', () => {
  const a = write('a.npy', fxwasm.writeNpy(fxwasm.tensor(new Float32Array(10).fill(1), [10])));
  const b = write('b.npy', fxwasm.writeNpy(fxwasm.tensor(new Float32Array(10).fill(-1), [10])));
  const r = cli('run', TOY, '--input', `l_a_=${a}`, '--input', `L_b_=${b}`, '--json');
  expect(r.code).toBe(0);
  const j = JSON.parse(r.stdout);
  expect(j.outputs[0].data).toEqual([true]);
  expect(j.outputs[1].data.every((v) => Math.abs(v - 0.5) < 1e-6)).toBe(true);
  expectCleanError(cli('run', TOY, '--input', `zz=${a}`), /no input 'zz'/);
  expectCleanError(cli('run', TOY, '--input', `l_a_=${path.join(tmp, 'missing.npy')}`), /missing\.npy.*no such file/);
  expectCleanError(cli('run', TOY, '--input', 'l_a_'), /NAME=FILE/);
});

test('check: exit 0 within tolerance, 1 on mismatch, 3 without reference', () => {
  let r = cli('check', TOY);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/check: pass \(rtol 0\.0001, atol 0\.00001\)|check: pass \(rtol 0\.0001, atol 1e-5\)/);
  expect(r.stdout).toMatch(/max abs err/);

  r = cli('check', write('bad.fxw', reluFxw({ expected: [0, 2.5] })));
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/FAIL/);
  expect(cli('check', write('bad2.fxw', reluFxw({ expected: [0, 2.5] })), '--atol', '1').code).toBe(0);

  r = cli('check', write('none.fxw', reluFxw({ expected: null })));
  expect(r.code).toBe(3);
  expect(r.stderr).toMatch(/no reference/);

  expectCleanError(cli('check', TOY, '--rtol', 'abc'), /--rtol/);
});

test('bench prints min/median/max and JSON', () => {
  let r = cli('bench', TOY, '--runs', '3', '--warmup', '1');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/min [\d.]+ ms +median [\d.]+ ms +max [\d.]+ ms/);
  expect(r.stdout).toMatch(/tensor memory: peak [\d.]+ MB in a run, arena [\d.]+ MB/);
  r = cli('bench', TOY, '--runs', '4', '--warmup', '0', '--json');
  const j = JSON.parse(r.stdout);
  expect(j.times_ms).toHaveLength(4);
  expect(j.peak_bytes).toBeGreaterThan(0);
  expect(j.arena_bytes).toBeGreaterThanOrEqual(j.peak_bytes);
  expect(j.min_ms).toBeLessThanOrEqual(j.median_ms);
  expect(j.median_ms).toBeLessThanOrEqual(j.max_ms);
});

test('bad files: one clean error line, exit 2', () => {
  const toy = fs.readFileSync(TOY);
  expectCleanError(cli('table', path.join(tmp, 'nope.fxw')), /nope\.fxw.*no such file/);
  expectCleanError(cli('table', write('garbage.fxw', 'hello, this is not a model')), /garbage\.fxw/);
  expectCleanError(cli('info', write('trunc.fxw', toy.subarray(0, toy.length - 7))), /trunc\.fxw/);
  expectCleanError(cli('table', write('empty.fxw', '')), /empty\.fxw/);
  expectCleanError(cli('table', tmp), /is a directory/);
});

test('unknown op and wrong input shape name the node', () => {
  const unknown = write('unknown.fxw', reluFxw({ target: 'torch.no_such_op' }));
  expect(cli('table', unknown).code).toBe(0);
  expectCleanError(cli('run', unknown), /unknown\.fxw: .*no_such_op.*relu/);
  expectCleanError(cli('check', unknown), /no_such_op/);
  const wrong = write('wrong.npy', fxwasm.writeNpy(fxwasm.tensor(new Float32Array(2), [2])));
  const model = write('addw.fxw', addWeightFxw());
  // A hand-built graph records example sizes only: the rank and dtype are checked up front, the sizes by the ops.
  expectCleanError(cli('run', model, '--input', `x=${wrong}`), /addw\.fxw: node 'add': .*size/);
  const wrongRank = write('wrong_rank.npy', fxwasm.writeNpy(fxwasm.tensor(new Float32Array(3), [1, 3])));
  expectCleanError(cli('run', model, '--input', `x=${wrongRank}`),
    /addw\.fxw: node 'x': input 'x' expects float32 \[3\] \(any sizes of rank 1\), got float32 \[1, 3\]/);
  const noMeta = write('addw_nometa.fxw', addWeightFxw({ meta: false }));
  expectCleanError(cli('run', noMeta, '--input', `x=${wrong}`), /addw_nometa\.fxw: node 'add': .*size/);
  expectCleanError(cli('run', model), /input 'x' not given/);
  expect(cli('run', model, '--random').code).toBe(0);
});

test('usage errors exit 2 with fxwasm: error:', () => {
  expectCleanError(cli('frobnicate', TOY), /unknown command/);
  expectCleanError(cli('table'), /missing required argument/);
  expectCleanError(cli('run', TOY, '--bogus'), /unknown option/);
  expectCleanError(cli('bench', TOY, '--runs', '0'), /--runs/);
});
