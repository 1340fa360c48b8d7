// A wasm heap past 2 GiB (the build allows 4 GiB): every JS view of it uses unsigned offsets. Once a run
// had grown the heap that far, `(heap.byteLength - address) >> 3` went negative and every later run that
// returned tensors threw `RangeError: Invalid typed array length`, as did fresh loads.
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { TOY, makeFxw } from './helpers.js';

const MODULE = { '': { type: 'torch.nn.modules.module.Module', hparams: {} } };

// () → sum(torch.ones(n)): an activation of 4n bytes, a 0-d output.
function bigActivationFxw(n) {
  return makeFxw({
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'call_function', name: 'big', target: 'torch.ones', args: [[n]], kwargs: {} },
      { op: 'call_function', name: 'total', target: 'torch.sum', args: [{ $node: 'big' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'total' }], kwargs: {} },
    ],
    modules: MODULE,
  });
}

// () → sum(a) + sum(b) with a, b = torch.ones(n) both alive at once (a is used after b is made): 8n bytes.
// (One block cannot reach 2 GiB: dlmalloc asks sbrk, whose step is signed, for under half the address space.)
function twoActivationsFxw(n) {
  return makeFxw({
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'call_function', name: 'a', target: 'torch.ones', args: [[n]], kwargs: {} },
      { op: 'call_function', name: 'b', target: 'torch.ones', args: [[n]], kwargs: {} },
      { op: 'call_function', name: 'sa', target: 'torch.sum', args: [{ $node: 'a' }], kwargs: {} },
      { op: 'call_function', name: 'sb', target: 'torch.sum', args: [{ $node: 'b' }], kwargs: {} },
      { op: 'call_function', name: 'total', target: 'operator.add', args: [{ $node: 'sa' }, { $node: 'sb' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'total' }], kwargs: {} },
    ],
    modules: MODULE,
  });
}

test('after a run grows the heap past 2 GiB, runs returning tensors and new loads still work', async () => {
  const toy = await fxwasm.load(TOY);
  const ref = toy.reference();
  const before = await toy.run(ref.inputs);
  const big = await fxwasm.load(twoActivationsFxw(290 * 1024 * 1024));  // 2 × 1.13 GiB of float32
  const total = await big.run([]);
  expect(total.shape).toEqual([]);
  expect(total.data[0]).toBeGreaterThan(1e8);  // float32 sums of ones stop growing exactly; the run happened
  const rt = await getRuntime();
  const { heap_bytes } = rt.call('fx_memory');
  expect(heap_bytes).toBeGreaterThan(2 ** 31);
  expect(rt.heap.byteLength).toBe(heap_bytes);
  // Runs returning tensors (the fast path's descriptor view) and the JSON path (profile) both still work.
  expect(await toy.run(ref.inputs)).toEqual(before);
  expect((await toy.run(ref.inputs, { profile: true })).outputs).toEqual(before);
  expect((await toy.check()).status).toBe('pass');
  const fresh = await fxwasm.load(TOY);
  expect((await fresh.check()).status).toBe('pass');
  expect(fxwasm.save(fresh).byteLength).toBeGreaterThan(0);
  for (const m of [toy, big, fresh]) m.dispose();
  expect(rt.broken).toBeNull();
}, 120000);

test('an activation larger than the heap can hold is an FxError naming the node and the bytes', async () => {
  const gm = await fxwasm.load(bigActivationFxw(2 ** 31));  // 8 GiB of float32
  let error;
  try {
    await gm.run([]);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(fxwasm.FxError);
  expect(error.node).toBe('big');
  expect(error.message).toMatch(/8589934592 bytes|\[2147483648\]/);
  expect((await getRuntime()).broken).toBeNull();
  gm.dispose();
  const toy = await fxwasm.load(TOY);
  expect((await toy.check()).status).toBe('pass');
  toy.dispose();
}, 60000);
