// Run values across the wasm boundary (web/src/marshal.js, cpp/api/wire.h): one dialect for every run —
// inputs with tensors as heap blocks, the reply always {ok, outputs[, profile]} — spelled as JSON text or,
// for tensors in tuples and lists, in the packed form (doubles in the heap), which reads as the JSON does.
// The input blocks the core takes over must be freed whether the run succeeds or fails.
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';
import { fromPacked, toPacked } from '../../web/src/marshal.js';
import { stringify } from '../../web/src/json.js';
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

/** Calls `f` with every fx_run call seen as {args, text, outputs (the packed value read at once, or JSON)}. */
function spyRuns(rt, f, rewrite = null) {
  const seen = [];
  const callRaw = rt.callRaw;
  rt.callRaw = function spy(name, ...args) {
    if (name !== 'fx_run') return callRaw.call(this, name, ...args);
    if (rewrite) args = rewrite(args);
    const text = callRaw.call(this, name, ...args);
    const reply = JSON.parse(text);
    const address = reply.outputs?.$packed;
    const outputs = address !== undefined ? fromPacked(rt.heapF64, address, rt.wireDtypes.names) : reply.outputs;
    seen.push({ args, text, reply, outputs });
    return text;
  };
  try {
    return [f(), seen];
  } finally {
    rt.callRaw = callRaw;
  }
}

const same = (x, y) => {
  expect(x.length).toBe(y.length);
  for (let i = 0; i < x.length; i++) {
    expect(x[i].dtype).toBe(y[i].dtype);
    expect(x[i].shape).toEqual(y[i].shape);
    expect(Array.from(x[i].data)).toEqual(Array.from(y[i].data));
  }
};

const a = fxwasm.tensor(new Float32Array(10).map((_, i) => i - 5), [10]);
const b = fxwasm.tensor(new Float32Array(10).fill(0.5), [10]);

test('the run reply is one JSON shape; tensors in tuples come packed, and read as their JSON', async () => {
  const gm = await fxwasm.load(TOY);
  const rt = await getRuntime();
  const [[plain, profiled], seen] = spyRuns(rt, () => [gm.runSync([a, b]), gm.runSync([a, b], { profile: true })]);
  expect(seen.length).toBe(2);
  expect(Object.keys(seen[0].reply)).toEqual(['ok', 'outputs']);
  expect(Object.keys(seen[0].reply.outputs)).toEqual(['$packed']);
  expect(seen[0].args[3]).toBeGreaterThan(0);  // the inputs went packed too, with no JSON text
  expect(seen[0].args[1]).toBe('');
  expect(Object.keys(seen[0].outputs)).toEqual(['$tuple']);
  const keys = ['dtype', 'shape', 'ptr', 'nbytes'];
  expect(seen[0].outputs.$tuple.map((t) => Object.keys(t.$tensor))).toEqual([keys, keys]);
  expect(seen[0].outputs.$tuple.map((t) => [t.$tensor.dtype, t.$tensor.shape])).toEqual([['bool', []], ['float32', [10]]]);
  expect(Object.keys(seen[1].reply)).toEqual(['ok', 'outputs', 'profile']);
  same(plain, profiled.outputs);
  gm.dispose();
});

test('packed and JSON inputs give the same outputs', async () => {
  const gm = await fxwasm.load(TOY);
  const rt = await getRuntime();
  // The packed inputs the run was given, re-sent as JSON text (the same blocks).
  const asJson = ([handle, , nblocks, , ...flags]) => {
    const inputs = fromPacked(rt.heapF64, rt.scratchPtr + 8 * nblocks, rt.wireDtypes.names);
    return [handle, stringify(inputs.$tuple), nblocks, 0, ...flags];
  };
  const [viaJson, seen] = spyRuns(rt, () => gm.runSync([a, b]), asJson);
  expect(seen[0].args[3]).toBe(0);
  expect(seen[0].args[1]).toMatch(/^\[\{"\$tensor":\{"dtype":"float32","shape":\[10\],"ptr":\d+,"nbytes":40\}\}/);
  same(viaJson, gm.runSync([a, b]));
  gm.dispose();
});

test('a resident tensor goes by id (ptr = -id) in either spelling, nested or not', async () => {
  const gm = await fxwasm.create();
  const g = gm.graph;
  const pair = g.placeholder('pair');
  const first = g.callFunction('operator.getitem', [pair, 0]);
  g.output([g.callFunction('torch.add', [first, 1]), pair]);
  const rt = await getRuntime();
  const [r] = gm.runSync([[a, b]], { resident: true });
  expect(r).toBeInstanceOf(fxwasm.ResidentTensor);
  const [viaPacked, seen] = spyRuns(rt, () => gm.runSync([[r, b]]));
  expect(seen[0].args[3]).toBeGreaterThan(0);
  const inputs = fromPacked(rt.heapF64, rt.scratchPtr + 8 * seen[0].args[2], rt.wireDtypes.names);
  const ptrs = inputs.$tuple[0].$tuple.map((t) => t.$tensor.ptr);
  expect(ptrs[0]).toBeLessThan(0);
  const asJson = ([handle, , nblocks, , ...flags]) => {
    const inputs = fromPacked(rt.heapF64, rt.scratchPtr + 8 * nblocks, rt.wireDtypes.names);
    return [handle, stringify(inputs.$tuple), nblocks, 0, ...flags];
  };
  const [viaJson, seenJson] = spyRuns(rt, () => gm.runSync([[r, b]]), asJson);
  expect(seenJson[0].args[1]).toMatch(/"ptr":-\d+,"nbytes":0/);
  const plus1 = a.data.map((x) => x + 2);
  for (const out of [viaPacked, viaJson]) {
    expect(Array.from(out[0].data)).toEqual(Array.from(plus1));
    same([out[1][1]], [b]);
  }
  r.dispose();
  gm.dispose();
});

test('the packed form holds tensors in tuples and lists, and None; anything else goes as JSON', async () => {
  const rt = await getRuntime();
  const { codes, names } = rt.wireDtypes;
  const t = (dtype, shape) => ({ $tensor: { dtype, shape, ptr: 64, nbytes: 4 * shape.reduce((x, y) => x * y, 1) } });
  const values = [t('float32', [2, 3]), null, [t('int64', []), { $tuple: [] }], { $tuple: [t('bool', [1, 0, 2]), []] }];
  const packed = toPacked(values, codes);
  expect(packed.slice(0, 7)).toEqual([1, 4, 0, codes.get('float32'), 2, 64, 24]);
  expect(fromPacked(Float64Array.from(packed), 0, names)).toEqual({ $tuple: values });
  for (const other of [1, 'x', true, { $float: 'nan' }, { $dict: {} }, { $dtype: 'float32' }, [t('complex32', [1])]]) {
    expect(toPacked([t('float32', [1]), other], codes)).toBeNull();
  }
  // A run whose output holds an int or a dict answers JSON.
  const gm = await fxwasm.create();
  const g = gm.graph;
  const x = g.placeholder('x');
  g.output([x, 2, { k: x }]);
  const [out, seen] = spyRuns(rt, () => gm.runSync([a]));
  expect(Object.keys(seen[0].reply.outputs)).toEqual(['$tuple']);
  expect(seen[0].reply.outputs.$tuple[1]).toBe(2);
  expect(out[1]).toBe(2);
  same([out[0], out[2].k], [a, a]);
  gm.dispose();
});

test('a failing run names the input or node and leaks no input block', async () => {
  const gm = await fxwasm.load(TOY);
  const a = fxwasm.tensor(new Float32Array(1 << 18), [1 << 18]);
  const b = fxwasm.tensor(new Float32Array(10), [10]);
  const plain = errorOf(() => gm.runSync([a, b]));
  const profiled = errorOf(() => gm.runSync([a, b], { profile: true }));
  expect(plain).toBeInstanceOf(fxwasm.FxError);
  expect(plain.message).toBe(profiled.message);
  expect(plain.node).toBe(profiled.node);
  const before = await inUse();
  for (let i = 0; i < 50; i++) {
    errorOf(() => gm.runSync([a, b]));
    errorOf(() => gm.runSync([a, { k: b }]));
    errorOf(() => gm.runSync([a, [b, () => 1]]));  // fails in JS, after a block was copied
  }
  expect(Math.abs((await inUse()) - before)).toBeLessThan(64 * 1024);
  gm.dispose();
});
