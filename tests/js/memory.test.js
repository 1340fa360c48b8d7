// Memory stays flat: thousands of runs of one model keep the wasm heap and the JS heap where they were; a
// disposed GraphModule gives its memory back; loading and disposing many models in a row needs no more
// heap than the largest does. "In use" is malloc's count of bytes handed out (fx_memory, dlmalloc's
// mallinfo); the heap's size is what the page pays for, and wasm memory never shrinks, so it must not grow.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { ROOT, TOY } from './helpers.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const CORPUS = [
  'examples/seed/toy_example.fxw',
  'examples/shape_arith/shape_arith.fxw',
  'examples/digits_cnn/digits_cnn.fxw',
  'examples/decoder_block/decoder_block.fxw',
  'examples/decoder_block_aten/decoder_block_aten.fxw',
  'examples/decoder_block_export/decoder_block_export.fxw',
  'tests/golden/passes/conv_bn.fxw',
].map((p) => path.join(ROOT, p)).filter((p) => fs.existsSync(p));

const SLACK = 64 * 1024;  // allocator bookkeeping that may move between two measurements

async function memory() {
  const { heap_bytes: heap, in_use_bytes: inUse, models } = (await getRuntime()).call('fx_memory');
  return { heap, inUse, models };
}

function jsHeapUsed() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

test('3000 runs keep the wasm heap and the JS heap flat', async () => {
  const gm = await fxwasm.load(TOY);
  const a = fxwasm.tensor(new Float32Array(10).map((_, i) => i - 5), [10]);
  const b = fxwasm.tensor(new Float32Array(10).fill(0.5), [10]);
  const runs = async (n) => {
    for (let i = 0; i < n; i++) {
      const [lt, x] = await gm.run({ l_a_: a, l_b_: b });
      if (Number(lt.data[0]) !== 0 || x.data.length !== 10) throw new Error(`unexpected output at run ${i}`);
    }
  };
  await runs(200);  // warm-up: the allocator's pools and V8's code reach their steady state
  const m0 = await memory();
  const js0 = jsHeapUsed();
  await runs(3000);
  const m1 = await memory();
  expect(m1.heap).toBe(m0.heap);
  expect(Math.abs(m1.inUse - m0.inUse)).toBeLessThan(SLACK);
  expect(jsHeapUsed() - js0).toBeLessThan(2 * 1024 * 1024);
  gm.dispose();
});

test('failed runs and failed loads leak nothing either', async () => {
  const gm = await fxwasm.load(TOY);
  const short = fxwasm.tensor(new Float32Array(3), [3]);
  const broken = new Uint8Array(fs.readFileSync(TOY)).slice(0, 600);
  const fail = async (n) => {
    for (let i = 0; i < n; i++) {
      await expect(gm.run([short, short])).rejects.toThrow(fxwasm.FxError);
      await expect(fxwasm.load(broken)).rejects.toThrow(fxwasm.FxError);
    }
  };
  await fail(100);
  const m0 = await memory();
  const js0 = jsHeapUsed();
  await fail(1000);
  const m1 = await memory();
  expect(m1.heap).toBe(m0.heap);
  expect(Math.abs(m1.inUse - m0.inUse)).toBeLessThan(SLACK);
  expect(jsHeapUsed() - js0).toBeLessThan(2 * 1024 * 1024);
  gm.dispose();
});

test('a disposed model gives its memory back', async () => {
  const largest = CORPUS.map((p) => [p, fs.statSync(p).size]).sort((x, y) => y[1] - x[1])[0];
  const bytes = new Uint8Array(fs.readFileSync(largest[0]));
  const warm = await fxwasm.load(bytes);
  await warm.check();
  warm.dispose();
  const before = await memory();
  const gm = await fxwasm.load(bytes);
  await gm.check();
  const loaded = await memory();
  expect(loaded.models).toBe(before.models + 1);
  expect(loaded.inUse - before.inUse).toBeGreaterThan(largest[1] / 2);  // it holds the model's tensors
  gm.dispose();
  const after = await memory();
  expect(after.models).toBe(before.models);
  expect(Math.abs(after.inUse - before.inUse)).toBeLessThan(SLACK);
  expect(() => gm.printTabular()).toThrow(/disposed/);

  // Twenty at once hold twenty times as much, and give it all back.
  const kept = [];
  for (let i = 0; i < 20; i++) kept.push(await fxwasm.load(bytes));
  expect((await memory()).inUse - before.inUse).toBeGreaterThan(20 * (largest[1] / 2));
  for (const m of kept) m.dispose();
  expect(Math.abs((await memory()).inUse - before.inUse)).toBeLessThan(SLACK);
});

test('loading, checking and disposing the corpus again and again needs no more heap than one round', async () => {
  const files = CORPUS.map((p) => new Uint8Array(fs.readFileSync(p)));
  const round = async () => {
    let peak = 0;
    for (const bytes of files) {
      const gm = await fxwasm.load(bytes);
      const report = await gm.check();
      expect(['pass', 'no_reference']).toContain(report.status);
      peak = Math.max(peak, (await memory()).inUse);
      gm.dispose();
    }
    return peak;
  };
  await round();
  const base = await memory();
  const peak = await round();
  for (let i = 0; i < 10; i++) await round();
  const end = await memory();
  expect(Math.abs(end.inUse - base.inUse)).toBeLessThan(SLACK);
  expect(end.heap).toBe(base.heap);
  // The heap holds what the largest model needed at its peak, and no more than that plus what the
  // allocator keeps around (one round's peak, rounded up by wasm's growth steps).
  expect(end.heap).toBeLessThanOrEqual(Math.max(32 * 1024 * 1024, 2 * peak));
});
