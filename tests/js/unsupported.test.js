// Ops the runtime cannot run are reported at load time (issue #4 item 7): load() fails with one FxError
// naming every unsupported target and the nodes using it, unless the caller loads for inspection only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI } from './helpers.js';

// x → torch.no_such_op (twice) → method frobnicate → relu: two unsupported targets, one used by two nodes.
async function twoUnsupportedBytes() {
  const gm = await fxwasm.create();
  try {
    const g = gm.graph;
    const x = g.placeholder('x');
    const a = g.callFunction('torch.no_such_op', [x]);
    const b = g.callFunction('torch.no_such_op', [a]);
    const c = g.callMethod('frobnicate', [b]);
    g.output(g.callFunction('torch.relu', [c]));
    return fxwasm.save(gm);
  } finally {
    gm.dispose();
  }
}

const EXPECTED = 'unsupported ops: torch.no_such_op (nodes: no_such_op, no_such_op_1); method frobnicate (nodes: frobnicate)';

let bytes;
let tmp;
beforeAll(async () => {
  bytes = await twoUnsupportedBytes();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-unsupported-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('load() fails naming every unsupported target and its nodes', async () => {
  const err = await fxwasm.load(bytes).catch((e) => e);
  expect(err).toBeInstanceOf(fxwasm.FxError);
  expect(err.message).toContain(EXPECTED);
});

test('allowUnsupported loads for inspection: views and info work, run and check throw the same error', async () => {
  const gm = await fxwasm.load(bytes, { allowUnsupported: true });
  try {
    expect(gm.graph.nodes.map((n) => n.name)).toEqual(['x', 'no_such_op', 'no_such_op_1', 'frobnicate', 'relu', 'output']);
    expect(gm.printTabular()).toMatch(/torch\.no_such_op/);
    expect(gm.code).toMatch(/frobnicate/);
    expect(gm.info().unsupported).toEqual([
      { kind: 'function', target: 'torch.no_such_op', nodes: ['no_such_op', 'no_such_op_1'] },
      { kind: 'method', target: 'frobnicate', nodes: ['frobnicate'] },
    ]);
    const x = fxwasm.tensor(new Float32Array(2), [2]);
    await expect(gm.run([x])).rejects.toThrow(EXPECTED);
    expect(() => gm.runSync([x])).toThrow(EXPECTED);
  } finally {
    gm.dispose();
  }
});

test('a supported graph loads with or without the flag and runs', async () => {
  const gm = await fxwasm.create();
  const x = gm.graph.placeholder('x');
  gm.graph.output(gm.graph.callFunction('torch.relu', [x]));
  const saved = fxwasm.save(gm);
  gm.dispose();
  for (const options of [{}, { allowUnsupported: true }]) {
    const m = await fxwasm.load(saved, options);
    const out = await m.run([fxwasm.tensor(new Float32Array([-1, 2]), [2])]);
    expect(Array.from(out.data)).toEqual([0, 2]);
    m.dispose();
  }
});

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FXWASM_DEBUG: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('CLI: table, code and info show the file (exit 0); run, check and bench fail at load (exit 2)', () => {
  const file = path.join(tmp, 'two_unsupported.fxw');
  fs.writeFileSync(file, bytes);
  for (const cmd of ['table', 'code', 'info']) {
    const r = cli(cmd, file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }
  const info = cli('info', file);
  expect(info.stdout).toMatch(/unsupported:\s+torch\.no_such_op \(no_such_op, no_such_op_1\); frobnicate \(frobnicate\)/);
  for (const cmd of ['run', 'check', 'bench']) {
    const args = cmd === 'check' ? [cmd, file] : [cmd, file, '--random'];
    const r = cli(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`fxwasm: error: ${file}: ${EXPECTED}`);
  }
});
