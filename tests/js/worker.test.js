// Worker mode: fxwasm.load(source, {worker: true}) runs the model in a worker_threads Worker. Same
// answers as in-thread (seed and corpus MLP), errors as FxError naming the node, dispose stops the worker.
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { ROOT, TOY, TOY_TABLE, toyBytes, reluFxw } from './helpers.js';

const MLP = path.join(ROOT, '.cache', 'corpus', 'mlp.fxw');

function expectSameTensors(actual, expected) {
  if (expected instanceof fxwasm.Tensor) {
    expect(actual).toBeInstanceOf(fxwasm.Tensor);
    expect(actual.dtype).toBe(expected.dtype);
    expect(actual.shape).toEqual(expected.shape);
    expect(Array.from(actual.data)).toEqual(Array.from(expected.data));  // bit for bit: same core, same build
    return;
  }
  if (Array.isArray(expected)) {
    expect(actual).toHaveLength(expected.length);
    expected.forEach((x, i) => expectSameTensors(actual[i], x));
    return;
  }
  expect(actual).toEqual(expected);
}

test('the seed runs in a worker: same table, code, info and outputs as in-thread', async () => {
  const here = await fxwasm.load(TOY);
  const gm = await fxwasm.load(TOY, { worker: true });
  try {
    expect(gm).toBeInstanceOf(fxwasm.WorkerGraphModule);
    expect(gm.source).toBe(here.source);
    expect(await gm.printTabular()).toBe(TOY_TABLE);
    expect(await gm.code).toBe(here.code);
    expect(await gm.info()).toEqual(here.info());
    expect(await gm.inputNames).toEqual(here.inputNames);
    const a = fxwasm.tensor(new Float32Array([-3, -1, 0, 1, 3, 7, -7, 0.5, 2, -2]), [10]);
    const b = fxwasm.tensor(new Float32Array([1, -5, 2, 0, 0, 1, 1, 1, 1, 1]), [10]);
    expectSameTensors(await gm.run([a, b]), await here.run([a, b]));
    expectSameTensors(await gm.run({ l_a_: a, l_b_: b }), await here.run([a, b]));
    // The inputs were copied to the worker, not moved: still usable here.
    expect(a.data.length).toBe(10);
    const { outputs, profile } = await gm.run([a, b], { profile: true });
    expectSameTensors(outputs, await here.run([a, b]));
    expect(profile.map((p) => p.name)).toEqual(expect.arrayContaining(['abs_1', 'add', 'x', 'sum_1', 'lt']));
    expect(await gm.check()).toEqual(await here.check());
    expectSameTensors((await gm.reference()).outputs, here.reference().outputs);
    const saved = await fxwasm.save(gm);
    expect(saved).toBeInstanceOf(Uint8Array);
    expect(Array.from(saved)).toEqual(Array.from(here.save()));
  } finally {
    here.dispose();
    await gm.dispose();
  }
});

test('the corpus MLP (npm test builds the corpus first): outputs equal the in-thread run', async () => {
  expect(fs.existsSync(MLP)).toBe(true);
  const here = await fxwasm.load(MLP);
  const gm = await fxwasm.load(MLP, { worker: true });
  try {
    const { inputs } = here.reference();
    expectSameTensors(await gm.run(inputs), await here.run(inputs));
    expect((await gm.check()).status).toBe('pass');
    // {transfer: true} moves the input buffers to the worker: same answer, the caller's copies detached.
    const moved = inputs.map((t) => fxwasm.tensor(t.data.slice(), t.shape, t.dtype));
    expectSameTensors(await gm.run(moved, { transfer: true }), await here.run(inputs));
    expect(moved[0].data.length).toBe(0);
  } finally {
    here.dispose();
    await gm.dispose();
  }
});

test('every source kind loads in a worker, with progress', async () => {
  const progress = [];
  const sources = [toyBytes(), toyBytes().buffer, new Blob([toyBytes()]), new URL(`file://${TOY}`), TOY,
    new Response(toyBytes(), { headers: { 'content-length': String(toyBytes().length) } })];
  for (const source of sources) {
    const gm = await fxwasm.load(source, { worker: true, onProgress: (p) => progress.push(p) });
    try {
      expect(await gm.printTabular()).toBe(TOY_TABLE);
    } finally {
      await gm.dispose();
    }
  }
  const size = toyBytes().length;
  expect(progress.filter((p) => p.loaded === size && p.total === size).length).toBe(sources.length);
});

test('errors arrive as FxError with the node; the worker stays usable', async () => {
  const gm = await fxwasm.load(TOY, { worker: true });
  try {
    const wrong = fxwasm.tensor(new Int32Array([1, 2]), [2]);
    const e = await gm.run([wrong, wrong]).catch((x) => x);
    expect(e).toBeInstanceOf(fxwasm.FxError);
    expect(e.node).toBe('l_a_');
    await expect(gm.run({ nope: wrong })).rejects.toThrow(/unknown input 'nope'/);
    await expect(gm.run([() => 1])).rejects.toBeInstanceOf(fxwasm.FxError);  // cannot be sent
    expect(() => gm.graph).toThrow(fxwasm.FxError);
    expect(() => gm.runSync([])).toThrow(fxwasm.FxError);
    expect(await gm.printTabular()).toBe(TOY_TABLE);
  } finally {
    await gm.dispose();
  }
});

test('a bad file or source fails the load with FxError (and its worker stops)', async () => {
  const bad = reluFxw({ target: 'torch.no_such_op' });
  const e = await fxwasm.load(bad, { worker: true }).catch((x) => x);
  expect(e).toBeInstanceOf(fxwasm.FxError);
  expect(e.message).toMatch(/torch\.no_such_op/);
  await expect(fxwasm.load(new Uint8Array(3), { worker: true })).rejects.toThrow(/too short/);
  await expect(fxwasm.load('/no/such/file.fxw', { worker: true })).rejects.toThrow(/no such file/);
  await expect(fxwasm.load(42, { worker: true })).rejects.toBeInstanceOf(fxwasm.FxError);
  const loose = await fxwasm.load(bad, { worker: true, allowUnsupported: true });
  try {
    expect((await loose.info()).unsupported.length).toBeGreaterThan(0);
    await expect(loose.run([fxwasm.tensor(new Float32Array(2), [2])])).rejects.toThrow(/torch\.no_such_op/);
  } finally {
    await loose.dispose();
  }
  const failing = await fxwasm.load(TOY, { worker: true, onProgress: () => { throw new Error('stop'); } }).catch((x) => x);
  expect(failing).toBeInstanceOf(fxwasm.FxError);
});

test('dispose stops the worker: pending and later calls reject with FxError', async () => {
  const gm = await fxwasm.load(MLP, { worker: true });
  const here = await fxwasm.load(MLP);
  const { inputs } = here.reference();
  here.dispose();
  const pending = gm.run(inputs);
  const stopped = gm.dispose();
  expect(gm.disposed).toBe(true);
  await expect(pending).rejects.toThrow(/disposed/);
  await stopped;
  await expect(gm.printTabular()).rejects.toBeInstanceOf(fxwasm.FxError);
  await expect(gm.run(inputs)).rejects.toThrow(/disposed/);
  await gm.dispose();  // twice is harmless
});
