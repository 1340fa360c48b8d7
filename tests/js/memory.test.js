// Memory stays flat: thousands of runs of one model keep the wasm heap and the JS heap where they were;
// a disposed GraphModule gives its memory back; loading and disposing many models in a row needs no more
// heap than the first round did. (wasm memory never shrinks, so "gives back" is measured as "is reused":
// the heap does not grow when the same work is done again.)
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

async function heapBytes() {
  return (await getRuntime()).heap.byteLength;
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
      if (lt.data[0] !== 0 || x.data.length !== 10) throw new Error(`unexpected output at run ${i}`);
    }
  };
  await runs(200);  // warm-up: the allocator's pools and V8's code reach their steady state
  const wasm0 = await heapBytes();
  const js0 = jsHeapUsed();
  await runs(3000);
  expect(await heapBytes()).toBe(wasm0);
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
  const wasm0 = await heapBytes();
  const js0 = jsHeapUsed();
  await fail(1000);
  expect(await heapBytes()).toBe(wasm0);
  expect(jsHeapUsed() - js0).toBeLessThan(2 * 1024 * 1024);
  gm.dispose();
});

test('loading, checking and disposing the corpus again and again needs no more heap than one round', async () => {
  const files = CORPUS.map((p) => new Uint8Array(fs.readFileSync(p)));
  const round = async () => {
    for (const bytes of files) {
      const gm = await fxwasm.load(bytes);
      const report = await gm.check();
      expect(['pass', 'no_reference']).toContain(report.status);
      gm.dispose();
      expect(() => gm.printTabular()).toThrow(/disposed/);
    }
  };
  await round();
  await round();
  const after2 = await heapBytes();
  for (let i = 0; i < 10; i++) await round();
  expect(await heapBytes()).toBe(after2);
});

test('a disposed model gives its memory back: the largest one, loaded 30 times, fits where one did', async () => {
  const largest = CORPUS.map((p) => [p, fs.statSync(p).size]).sort((x, y) => y[1] - x[1])[0][0];
  const bytes = new Uint8Array(fs.readFileSync(largest));
  const cycle = async () => {
    const gm = await fxwasm.load(bytes);
    await gm.check();
    gm.dispose();
  };
  await cycle();
  await cycle();
  const one = await heapBytes();
  for (let i = 0; i < 30; i++) await cycle();
  expect(await heapBytes()).toBe(one);
  // Without dispose, the same 30 loads hold 30 models at once: the heap must grow (the test measures something).
  const kept = [];
  for (let i = 0; i < 30; i++) kept.push(await fxwasm.load(bytes));
  expect(await heapBytes()).toBeGreaterThan(one);
  for (const gm of kept) gm.dispose();
});
