// A wasm trap (divide by zero, unreachable, out-of-bounds memory, stack overflow, abort) takes only its
// own runtime instance down: the call throws FxError, that instance's models say it was reset, the next
// load gets a fresh instance, and other instances (another build, worker mode) keep working. The traps
// are provoked through an internal hook of the bindings (cpp/bindings/internal_traps.cpp).
import * as fxwasm from '../../web/src/index.js';
import { getRuntime, getRuntimeForLoad } from '../../web/src/runtime.js';
import { TOY } from './helpers.js';

const KINDS = ['divide', 'unreachable', 'memory', 'stack', 'abort'];
const WHY = {
  divide: /divide by zero/,
  unreachable: /unreachable/,
  memory: /out of bounds/,
  // the stack is first in memory (CMakeLists.txt): running past its end is an out-of-bounds access
  stack: /memory access out of bounds|stack overflow/,
  abort: /abort/i,
};

async function checkPasses(gm) {
  expect((await gm.check()).status).toBe('pass');
}

describe.each(KINDS)('a "%s" trap', (kind) => {
  test('throws FxError; the models of that instance say so; the next load gets a fresh instance', async () => {
    const gm = await fxwasm.load(TOY);
    const rt = await getRuntime();
    await checkPasses(gm);
    const inputs = gm.reference().inputs;
    let error;
    try {
      rt.callRaw('fx_internal_trap', kind);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(fxwasm.FxError);
    expect(error.message).toMatch(/^the WebAssembly runtime crashed during fx_internal_trap/);
    expect(error.message).toMatch(WHY[kind]);
    expect(rt.broken).toBeTruthy();
    // Every later call on that instance's models is an FxError saying what to do.
    expect(() => gm.printTabular()).toThrow(fxwasm.FxError);
    expect(() => gm.printTabular()).toThrow(/reset after a crash.*load the model again/);
    await expect(gm.run(inputs)).rejects.toThrow(fxwasm.FxError);
    gm.dispose();  // harmless
    // A fresh instance for the next load.
    const again = await fxwasm.load(TOY);
    expect((await getRuntime()) === rt).toBe(false);  // (not toBe: a failure would print the module)
    await checkPasses(again);
    again.dispose();
  });
});

test('an unknown hook kind does not trap', async () => {
  const rt = await getRuntime();
  expect(rt.callRaw('fx_internal_trap', 'none')).toBe(-1);
  expect(rt.broken).toBeNull();
});

// The pthreads build: a trap on a kernel thread ('worker') and a stack overflow on the main thread ('stack';
// its stack is first in memory, as in the single-threaded build). For 'worker' the reason varies with where
// the caller was when the thread died.
// Before, the Worker's error event was rethrown on the main thread: in Node an uncaught exception that ended
// the process.
test.each([
  ['worker', /^the WebAssembly runtime crashed during fx_internal_trap/],
  ['stack', WHY.stack],
])('a "%s" trap in the pthreads build: FxError, not a hang; a fresh instance follows', async (kind, why) => {
  const gm = await fxwasm.load(TOY, { threads: 2 });
  const rt = await getRuntime();
  expect(rt.threads).toBe(2);
  await checkPasses(gm);
  expect(() => rt.callRaw('fx_internal_trap', kind)).toThrow(why);
  expect(rt.broken).toBeTruthy();
  await expect(gm.check()).rejects.toThrow(/reset after a crash/);
  const next = await fxwasm.load(TOY, { threads: 2 });
  expect((await getRuntime()) === rt).toBe(false);
  await checkPasses(next);
  next.dispose();
  gm.dispose();
}, 60000);

test('other instances keep working: worker mode and the pthreads build', async () => {
  const inWorker = await fxwasm.load(TOY, { worker: true });
  const threaded = await fxwasm.load(TOY, { threads: 2 });
  const single = await fxwasm.load(TOY, { threads: 1 });  // a single-threaded instance beside the pthreads one
  try {
    const singleRt = await getRuntimeForLoad({ threads: 1 });
    const threadedRt = await getRuntime();
    expect(singleRt === threadedRt).toBe(false);
    expect(() => singleRt.callRaw('fx_internal_trap', 'divide')).toThrow(/crashed/);
    expect(() => single.printTabular()).toThrow(/reset after a crash/);
    await checkPasses(threaded);
    await checkPasses(inWorker);
    // The next {threads: 1} load gets a fresh single-threaded instance.
    const fresh = await fxwasm.load(TOY, { threads: 1 });
    expect((await getRuntimeForLoad({ threads: 1 })) === singleRt).toBe(false);
    await checkPasses(fresh);
    fresh.dispose();
    // A trap in the pthreads instance: its models go, the worker's model stays.
    expect(() => threadedRt.callRaw('fx_internal_trap', 'unreachable')).toThrow(/crashed/);
    await expect(threaded.check()).rejects.toThrow(/reset after a crash/);
    await checkPasses(inWorker);
    const next = await fxwasm.load(TOY, { threads: 2 });
    await checkPasses(next);
    next.dispose();
  } finally {
    inWorker.dispose();
    threaded.dispose();
    single.dispose();
  }
}, 60000);
