// The run boundary's two forms (web/src/marshal.js, cpp/api/wire.h): inputs that are all tensors and
// outputs that are a tensor or a flat tuple/list of them take the compact form, anything else (here: a
// profiled run) the JSON one. Both must answer the same outputs and the same errors, and the input blocks
// the core takes over must be freed whether the run succeeds or fails.
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { TOY } from './helpers.js';

async function inUse() {
  return (await getRuntime()).call('fx_memory').in_use_bytes;
}

function errorOf(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

test('compact and JSON forms answer the same outputs', async () => {
  const gm = await fxwasm.load(TOY);
  const a = fxwasm.tensor(new Float32Array(10).map((_, i) => i - 5), [10]);
  const b = fxwasm.tensor(new Float32Array(10).fill(0.5), [10]);
  const fast = gm.runSync([a, b]);
  const { outputs: slow } = gm.runSync([a, b], { profile: true });
  expect(fast.length).toBe(2);
  for (let i = 0; i < 2; i++) {
    expect(fast[i].dtype).toBe(slow[i].dtype);
    expect(fast[i].shape).toEqual(slow[i].shape);
    expect(Array.from(fast[i].data)).toEqual(Array.from(slow[i].data));
  }
  gm.dispose();
});

test('a failing run gives the same error in both forms and leaks no input block', async () => {
  const gm = await fxwasm.load(TOY);
  const a = fxwasm.tensor(new Float32Array(1 << 18), [1 << 18]);
  const b = fxwasm.tensor(new Float32Array(10), [10]);
  const fast = errorOf(() => gm.runSync([a, b]));
  const slow = errorOf(() => gm.runSync([a, b], { profile: true }));
  expect(fast).toBeInstanceOf(fxwasm.FxError);
  expect(fast.message).toBe(slow.message);
  expect(fast.node).toBe(slow.node);
  const before = await inUse();
  for (let i = 0; i < 50; i++) {
    errorOf(() => gm.runSync([a, b]));
    errorOf(() => gm.runSync([a, b], { profile: true }));
  }
  expect(Math.abs((await inUse()) - before)).toBeLessThan(64 * 1024);
  gm.dispose();
});
