// The pthreads build (web/dist/fxwasm-threads.wasm) in Node: load/create with `threads` starts it, the
// kernels split GEMM panels, convolution pixel panels and depthwise planes over the threads with a fixed
// split — so every output is bit-identical to the single-threaded build's, whatever the thread count.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { getRuntime, getRuntimeForLoad, threadsStartError } from '../../web/src/runtime.js';
import { CLI, ROOT, TOY, addWeightFxw, reluFxw } from './helpers.js';

const RESNET18 = path.join(ROOT, '.cache', 'corpus', 'resnet18.fxw');

function randomTensor(shape, seed, scale = 1) {
  let s = seed >>> 0;
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s / 2 ** 32 - 0.5) * 2 * scale;
  }
  return fxwasm.tensor(data, shape);
}

// MLP 784-1024-1024-10 at batch 64 (linear + relu); a resnet18-sized block: 3×3 conv 64→64 on 56×56 with
// bias, residual add and relu, then a depthwise 3×3 (groups 64) and a 7×7 stride-2 stem-like conv.
async function buildModels(rt) {
  const mlp = await fxwasm.create();
  {
    const sizes = [784, 1024, 1024, 10];
    const g = mlp.graph;
    let h = g.placeholder('x');
    for (let i = 0; i + 1 < sizes.length; i++) {
      mlp.addTensor(`w${i}`, randomTensor([sizes[i + 1], sizes[i]], 10 + i, 1 / Math.sqrt(sizes[i])));
      mlp.addTensor(`b${i}`, randomTensor([sizes[i + 1]], 20 + i, 0.1));
      h = g.callFunction('torch.nn.functional.linear', [h, g.getAttr(`w${i}`), g.getAttr(`b${i}`)]);
      if (i + 2 < sizes.length) h = g.callFunction('torch.relu', [h]);
    }
    g.output(h);
  }
  const conv = await fxwasm.create();
  {
    conv.addTensor('w1', randomTensor([64, 64, 3, 3], 30, 1 / 24));
    conv.addTensor('b1', randomTensor([64], 31, 0.1));
    conv.addTensor('wd', randomTensor([64, 1, 3, 3], 32, 1 / 3));
    conv.addTensor('ws', randomTensor([16, 64, 7, 7], 33, 1 / 56));
    const g = conv.graph;
    const x = g.placeholder('x');
    const c1 = g.callFunction('torch.nn.functional.conv2d', [x, g.getAttr('w1'), g.getAttr('b1'), 1, 1]);
    const r = g.callFunction('torch.relu', [g.callFunction('operator.add', [c1, x])]);
    const d = g.callFunction('torch.nn.functional.conv2d', [r, g.getAttr('wd'), null, 1, 1, 1, 64]);
    g.output(g.callFunction('torch.nn.functional.conv2d', [d, g.getAttr('ws'), null, 2, 3]));
  }
  return { mlp, conv, rt };
}

const inputs = {
  mlp: [randomTensor([64, 784], 1)],
  conv: [randomTensor([1, 64, 56, 56], 2)],
};

function expectSame(a, b) {
  expect(a.shape).toEqual(b.shape);
  expect(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength)
    .equals(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength))).toBe(true);
}

test('threads: the MLP and a resnet18-sized conv block give the single-threaded outputs, bit for bit', async () => {
  const single = await getRuntime({ threads: 1 });
  expect(single.threads).toBe(1);
  const one = await buildModels(single);
  const expected = { mlp: await one.mlp.run(inputs.mlp), conv: await one.conv.run(inputs.conv) };

  const threaded = await getRuntime({ threads: 3 });
  expect(threadsStartError()).toBeNull();
  expect(threaded).not.toBe(single);  // the pthreads build, with 2 workers
  expect(threaded.threads).toBe(3);
  const many = await buildModels(threaded);
  try {
    for (const threads of [3, 2, 1]) {
      await getRuntime({ threads });
      expect(threaded.threads).toBe(threads);
      expectSame(await many.mlp.run(inputs.mlp), expected.mlp);
      expectSame(await many.conv.run(inputs.conv), expected.conv);
    }
    // Models loaded before keep running on their own (single-threaded) instance.
    expectSame(await one.mlp.run(inputs.mlp), expected.mlp);
  } finally {
    for (const gm of [one.mlp, one.conv, many.mlp, many.conv]) gm.dispose();
  }
});

test('threads: the corpus resnet18 loaded with {threads: 2} matches one thread and the torch reference', async () => {
  expect(fs.existsSync(RESNET18)).toBe(true);  // npm test builds the corpus first
  const gm = await fxwasm.load(RESNET18, { threads: 2 });
  try {
    expect((await getRuntime()).threads).toBe(2);
    const ref = gm.reference();
    const two = await gm.run(ref.inputs);
    await getRuntime({ threads: 1 });
    expectSame(await gm.run(ref.inputs), two);
    expect((await gm.check({ rtol: 1e-3, atol: 1e-4 })).status).toBe('pass');
  } finally {
    gm.dispose();
  }
});

test('threads: a model loaded with {threads: 1} beside a live pthreads instance runs in the single-threaded build', async () => {
  const threaded = await getRuntime({ threads: 2 });
  expect(threaded.maxThreads).toBeGreaterThanOrEqual(2);
  const single = await getRuntimeForLoad({ threads: 1 });
  expect(single).not.toBe(threaded);
  expect(single.maxThreads).toBe(1);
  expect(await getRuntimeForLoad({ threads: 1 })).toBe(single);  // kept for later loads
  expect(await getRuntime()).toBe(threaded);  // the live instance stays, set to one thread
  expect(threaded.threads).toBe(1);
  const gm = await fxwasm.load(TOY, { threads: 1 });
  try {
    expect((await gm.check()).status).toBe('pass');
  } finally {
    gm.dispose();
  }
});

test('threads: a bad count is an FxError (the live runtime stays); no SharedArrayBuffer means one thread', async () => {
  const rt = await getRuntime();
  await expect(getRuntime({ threads: 0 })).rejects.toThrow(fxwasm.FxError);
  await expect(getRuntime({ threads: 'many' })).rejects.toThrow(/positive integer or 'auto'/);
  expect(await getRuntime()).toBe(rt);
  const { resolveThreads } = await import('../../web/src/threads.js');
  expect(await resolveThreads(3)).toBe(3);
  const sab = globalThis.SharedArrayBuffer;
  try {
    globalThis.SharedArrayBuffer = undefined;  // as in a page without cross-origin isolation
    expect(await resolveThreads(4)).toBe(1);
    expect(await resolveThreads('auto')).toBe(1);
  } finally {
    globalThis.SharedArrayBuffer = sab;
  }
});

test('threads: `fxwasm bench --threads 2` runs on 2 threads and the process exits (workers do not hold it)', () => {
  const r = spawnSync(process.execPath, [CLI, 'bench', TOY, '--runs', '3', '--warmup', '1', '--threads', '2', '--json'],
    { encoding: 'utf8', timeout: 60000 });
  expect(r.status).toBe(0);
  const j = JSON.parse(r.stdout);
  expect(j.threads).toBe(2);
  expect(j.times_ms).toHaveLength(3);
});

// Every error used to read "internal error: unknown exception" in the pthreads build: typed catch clauses
// never matched there (cpp/bindings/wasm_eh_threads.cpp says why). The same calls, the same messages.
test('threads: errors carry the same message (and node) in the pthreads build as in one thread', async () => {
  const cases = [
    [addWeightFxw({ meta: false }), [fxwasm.tensor(new Float32Array(4), [4])]],  // the op's broadcast error
    [addWeightFxw({ meta: true }), [fxwasm.tensor(new Float32Array(4), [4])]],   // the placeholder check
    [reluFxw(), [fxwasm.tensor(new Int32Array(2), [2], 'int32')]],
    [reluFxw(), []],
  ];
  for (const [file, inputs] of cases) {
    const errors = [];
    for (const threads of [1, 2]) {
      const gm = await fxwasm.load(file, { threads });
      try {
        await gm.run(inputs);
        errors.push(null);
      } catch (e) {
        expect(e).toBeInstanceOf(fxwasm.FxError);
        errors.push({ message: e.message, node: e.node });
      } finally {
        gm.dispose();
      }
    }
    expect(errors[0]).not.toBeNull();
    expect(errors[0].message).not.toMatch(/internal error/);
    expect(errors[1]).toEqual(errors[0]);
  }
  // A load error too (unsupported op), and the core's own typed catch (constant folding skips what fails).
  const loadErrors = [];
  for (const threads of [1, 2]) {
    loadErrors.push(await fxwasm.load(reluFxw({ target: 'torch.no_such_op' }), { threads }).then(() => null, (e) => e.message));
  }
  expect(loadErrors[0]).toMatch(/torch\.no_such_op/);
  expect(loadErrors[1]).toBe(loadErrors[0]);
});
