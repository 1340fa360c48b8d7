// Random run inputs and node arguments through the JS marshalling layer (a seeded, bounded fuzz of
// web/src/value.js, marshal.js, graph.js and worker_wire.js with the core behind them): every value either runs or
// fails with FxError — never another error, never a trap — and the runtime keeps working throughout.
// Leaves that survive the trip (finite numbers, strings, booleans) come back as they went.
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { TOY, makeFxw } from './helpers.js';

const CASES = Number(process.env.FXWASM_MARSHAL_FUZZ_CASES || 1500);

// mulberry32: the same cases on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 1e308, 5e-324,
  Number.MAX_SAFE_INTEGER, 2 ** 31, -(2 ** 31) - 1];
const BIGINTS = [0n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n, 2n ** 64n, -(2n ** 63n) - 1n, 10n ** 30n];
const STRINGS = ['', 'x', '\u0000', '\u001b[2J', 'é', '\ud800', '\udfff\ud800', '"\\', '$t', '$node', 'a'.repeat(70000)];
const KEYS = ['a', '', '$t', '$node', 'items', '__proto__', 'constructor', '0', 'x.y', '\u0000'];
const DTYPES = ['float32', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool', 'float16', 'bfloat16'];

function randomTensor(r) {
  const dtype = DTYPES[Math.floor(r() * DTYPES.length)];
  const rank = Math.floor(r() * 4);
  const shape = Array.from({ length: rank }, () => (r() < 0.2 ? 0 : 1 + Math.floor(r() * 3)));
  return fxwasm.randomTensor(shape, dtype, r);
}

function randomValue(r, depth, ancestors) {
  const k = r();
  if (depth > 70 || k < 0.35) {
    const leaf = Math.floor(r() * 9);
    switch (leaf) {
      case 0: return NUMBERS[Math.floor(r() * NUMBERS.length)];
      case 1: return BIGINTS[Math.floor(r() * BIGINTS.length)];
      case 2: return STRINGS[Math.floor(r() * STRINGS.length)];
      case 3: return r() < 0.5;
      case 4: return r() < 0.5 ? null : undefined;
      case 5: return randomTensor(r);
      case 6: return new Float32Array(2);  // a bare TypedArray
      case 7: return r() < 0.5 ? () => 1 : Symbol('s');
      default: return Math.floor(r() * 1000) - 500;
    }
  }
  if (ancestors.length && r() < 0.03) return ancestors[Math.floor(r() * ancestors.length)];  // a cycle
  const n = Math.floor(r() * 4);
  // Mostly deep and narrow (as an attacker nests), sometimes wide.
  const deep = r() < 0.5;
  if (r() < 0.6) {
    const a = [];
    ancestors.push(a);
    for (let i = 0; i < (deep ? 1 : n); i++) a.push(randomValue(r, depth + 1, ancestors));
    ancestors.pop();
    return a;
  }
  const o = {};
  ancestors.push(o);
  for (let i = 0; i < (deep ? 1 : n); i++) {
    Object.defineProperty(o, KEYS[Math.floor(r() * KEYS.length)], {
      value: randomValue(r, depth + 1, ancestors), enumerable: true, configurable: true, writable: true,
    });
  }
  ancestors.pop();
  return o;
}

const MODULE = { '': { type: 'torch.nn.modules.module.Module', hparams: {} } };
// x → output x: whatever the core accepts as an input comes back.
const IDENTITY = makeFxw({
  producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
  nodes: [
    { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {} },
    { op: 'output', name: 'output', target: 'output', args: [{ $node: 'x' }], kwargs: {} },
  ],
  modules: MODULE,
});

function expectOnlyFxError(e) {
  if (!(e instanceof fxwasm.FxError)) throw new Error(`not an FxError: ${e && e.name}: ${e && e.message}`);
  expect(e.message).not.toMatch(/internal error|crashed/);
}

const simpleLeaf = (v) => typeof v === 'boolean' || (typeof v === 'string' && !/[\ud800-\udfff]/.test(v))
  || (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0) && Math.abs(v) < 2 ** 53);

test(`${CASES} random run inputs: a result or an FxError, and the runtime lives on`, async () => {
  const r = rng(21);
  const gm = await fxwasm.load(IDENTITY);
  const toy = await fxwasm.load(TOY);
  const rt = await getRuntime();
  let ran = 0;
  for (let i = 0; i < CASES; i++) {
    const value = randomValue(r, 0, []);
    try {
      const out = await gm.run([value]);
      ran++;
      if (simpleLeaf(value)) expect(out).toEqual(value);
    } catch (e) {
      expectOnlyFxError(e);
    }
    expect(rt.broken).toBeNull();
  }
  expect(ran).toBeGreaterThan(CASES / 20);  // the generator reaches values that do run
  expect((await toy.check()).status).toBe('pass');
  gm.dispose();
  toy.dispose();
}, 300000);

test('random node arguments: a node or an FxError', async () => {
  const r = rng(7);
  const gm = await fxwasm.create();
  const g = gm.graph;
  const x = g.placeholder('x');
  for (let i = 0; i < 300; i++) {
    try {
      const node = g.callFunction('torch.relu', [x, randomValue(r, 0, [])]);
      g.eraseNode(node);
    } catch (e) {
      expectOnlyFxError(e);
    }
  }
  g.output(g.callFunction('torch.relu', [x]));
  expect(gm.code).toContain('torch.relu(x)');
  expect((await getRuntime()).broken).toBeNull();
  gm.dispose();
}, 120000);

test('random run inputs in worker mode', async () => {
  const r = rng(99);
  const gm = await fxwasm.load(IDENTITY, { worker: true });
  try {
    for (let i = 0; i < 150; i++) {
      const value = randomValue(r, 0, []);
      try {
        await gm.run([value]);
      } catch (e) {
        // A function or symbol cannot be posted to a worker (DataCloneError): also refused as FxError.
        expectOnlyFxError(e);
      }
    }
    const t = fxwasm.tensor(new Float32Array([1, 2]), [2]);
    expect(Array.from((await gm.run([t])).data)).toEqual([1, 2]);
  } finally {
    await gm.dispose();
  }
}, 120000);
