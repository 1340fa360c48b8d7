// The JS API against hostile input (issue #21): run inputs and node arguments that nest too deep or
// contain themselves, sources that never end or block, bad `threads` values, misuse of replacePattern —
// each a clean FxError, with the runtime (and the models loaded before) still working afterwards.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { TOY, reluFxw } from './helpers.js';

let tmp;
beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-api-hostile-')); });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function nested(depth) {
  let v = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('run inputs', () => {
  test.each([[65], [1200], [100000]])('a list nested %i deep is an FxError; the runtime and earlier models live on', async (depth) => {
    const earlier = await fxwasm.load(TOY);
    const gm = await fxwasm.load(reluFxw());
    await expect(gm.run([nested(depth)])).rejects.toThrow(fxwasm.FxError);
    await expect(gm.run([nested(depth)])).rejects.toThrow(/nests deeper than 64 levels/);
    expect((await getRuntime()).broken).toBeNull();
    expect((await earlier.check()).status).toBe('pass');  // the model loaded before is intact
    const later = await fxwasm.load(TOY);  // and a valid file still loads
    expect((await later.check()).status).toBe('pass');
    for (const m of [earlier, gm, later]) m.dispose();
  });

  test('cyclic values (arrays and objects) are an FxError naming where', async () => {
    const gm = await fxwasm.load(reluFxw());
    const a = [1];
    a.push(a);
    await expect(gm.run([a])).rejects.toThrow(/input #0\[1\]: the value contains itself \(a cycle\)/);
    const o = { k: 1 };
    o.self = o;
    await expect(gm.run([o])).rejects.toThrow(/input #0\.self: the value contains itself/);
    // Shared (not cyclic) values are fine as far as nesting goes: the same array twice.
    const shared = [1, 2];
    await expect(gm.run([[shared, shared]])).rejects.toThrow(fxwasm.FxError);  // relu of a list: the op's error
    await expect(gm.run([[shared, shared]])).rejects.not.toThrow(/cycle/);
    expect((await gm.check()).status).toBe('pass');
    gm.dispose();
  });

  test('in worker mode too', async () => {
    const gm = await fxwasm.load(reluFxw(), { worker: true });
    try {
      const a = [1];
      a.push(a);
      await expect(gm.run([a])).rejects.toThrow(fxwasm.FxError);
      await expect(gm.run([nested(100000)])).rejects.toThrow(fxwasm.FxError);
      expect((await gm.check()).status).toBe('pass');
    } finally {
      await gm.dispose();
    }
  });
});

describe('graph building', () => {
  test('cyclic and too-deep node arguments are an FxError', async () => {
    const gm = await fxwasm.create();
    const g = gm.graph;
    const x = g.placeholder('x');
    const a = [x];
    a.push(a);
    expect(() => g.callFunction('torch.relu', [a])).toThrow(fxwasm.FxError);
    expect(() => g.callFunction('torch.relu', [a])).toThrow(/contains itself/);
    expect(() => g.callFunction('torch.relu', [nested(100000)])).toThrow(/nests deeper than 64 levels/);
    const ok = g.callFunction('torch.relu', [x]);
    g.output(ok);
    expect(gm.code).toContain('torch.relu(x)');
    gm.dispose();
  });

  test('replacePattern(gm, gm) is an FxError or a result, never another error', async () => {
    const gm = await fxwasm.load(TOY);
    let outcome;
    try {
      outcome = gm.replacePattern(gm, gm);
    } catch (e) {
      outcome = e;
    }
    if (outcome instanceof Error) expect(outcome).toBeInstanceOf(fxwasm.FxError);
    else expect(Array.isArray(outcome)).toBe(true);
    expect((await getRuntime()).broken).toBeNull();
    gm.dispose();
  });
});

describe('sources', () => {
  test('load() of a device, a FIFO, a growing file or a directory is an FxError, at once', async () => {
    const fifo = path.join(tmp, 'm.fifo');
    execFileSync('mkfifo', [fifo]);
    const t0 = Date.now();
    await expect(fxwasm.load('/dev/zero')).rejects.toThrow(/\/dev\/zero: cannot read: is a device, not a file/);
    await expect(fxwasm.load(fifo)).rejects.toThrow(/m\.fifo: cannot read: is a FIFO \(named pipe\), not a file/);
    await expect(fxwasm.load('/proc/self/maps')).rejects.toThrow(/grew while it was read/);
    await expect(fxwasm.load(tmp)).rejects.toThrow(/is a directory/);
    expect(Date.now() - t0).toBeLessThan(10000);
    const gm = await fxwasm.load(TOY);
    expect((await gm.check()).status).toBe('pass');
    gm.dispose();
  });
});

describe('threads values', () => {
  test.each([[0], [-1], [1.5], ['2'], ['many'], [NaN], [null], [{}]])('threads: %p is an FxError in every mode', async (threads) => {
    await expect(fxwasm.load(TOY, { threads })).rejects.toThrow(fxwasm.FxError);
    await expect(fxwasm.load(TOY, { threads })).rejects.toThrow(/threads must be a positive integer or 'auto'/);
    await expect(fxwasm.load(TOY, { threads, worker: true })).rejects.toThrow(fxwasm.FxError);
  });
});

describe('tensors', () => {
  test('randomTensor with a shape no heap holds is an FxError', () => {
    expect(() => fxwasm.randomTensor([2 ** 40])).toThrow(/too large/);
    expect(() => fxwasm.randomTensor([2 ** 31, 2 ** 31])).toThrow(/too large/);
    expect(() => fxwasm.randomTensor([2 ** 40])).toThrow(fxwasm.FxError);
  });
});
