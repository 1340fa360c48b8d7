// run(inputs, {resident: true}): outputs kept in the runtime as ResidentTensors, given back without a copy.
// A decoding step's KV cache (torch.cat of the past, returned) grows in place; every value equals a plain
// run's, bit for bit, whichever cache comes back — the latest, or an older one continued a second time.
import * as fxwasm from '../../web/src/index.js';
import { getRuntime } from '../../web/src/runtime.js';

const HEADS = 2, DIM = 4;

function randn(shape, seed) {
  return fxwasm.randomTensor(shape, 'float32', fxwasm.seededRandom(seed));
}

// step(past, x, q) = (sdpa(q, cat, cat), cat) with cat = torch.cat([past, x], dim=2): one attention step
// over a growing cache, as a decoder's step graph has it.
async function stepGraph() {
  const gm = await fxwasm.create();
  const g = gm.graph;
  const past = g.placeholder('past');
  const x = g.placeholder('x');
  const q = g.placeholder('q');
  const cat = g.callFunction('torch.cat', [[past, x], 2]);
  const att = g.callFunction('torch.nn.functional.scaled_dot_product_attention', [q, cat, cat]);
  g.output([att, cat]);
  return gm;
}

const residentCount = async () => (await getRuntime()).module.fx_resident_count();

function expectSame(resident, plain) {
  const t = resident instanceof fxwasm.ResidentTensor ? resident.toTensor() : resident;
  expect(t.shape).toEqual(plain.shape);
  expect(t.dtype).toBe(plain.dtype);
  expect(Array.from(t.data)).toEqual(Array.from(plain.data));
}

test('a growing cache kept resident gives a plain run\'s values, step after step', async () => {
  const gm = await stepGraph();
  const before = await residentCount();
  let cache = randn([1, HEADS, 3, DIM], 1);
  let plainCache = cache;
  for (let step = 0; step < 40; step++) {
    const x = randn([1, HEADS, 1, DIM], 100 + step), q = randn([1, HEADS, 1, DIM], 200 + step);
    const [att, grown] = await gm.run([cache, x, q], { resident: true });
    const [plainAtt, plainGrown] = await gm.run([plainCache, x, q]);
    expect(att).toBeInstanceOf(fxwasm.ResidentTensor);
    expect(grown.shape).toEqual([1, HEADS, 4 + step, DIM]);
    expectSame(att, plainAtt);
    expectSame(grown, plainGrown);
    att.dispose();
    if (cache instanceof fxwasm.ResidentTensor) cache.dispose();  // the grown one shares its block: still valid
    cache = grown;
    plainCache = plainGrown;
  }
  expectSame(cache, plainCache);
  cache.dispose();
  expect(await residentCount()).toBe(before);
  gm.dispose();
});

test('an older cache continued again is copied: no tensor held changes', async () => {
  const gm = await stepGraph();
  const q = randn([1, HEADS, 1, DIM], 7);
  let cache = randn([1, HEADS, 2, DIM], 2);
  const kept = [];
  for (let step = 0; step < 6; step++) {
    const [att, grown] = await gm.run([cache, randn([1, HEADS, 1, DIM], 10 + step), q], { resident: true });
    att.dispose();
    kept.push(grown);
    cache = grown;
  }
  const snapshot = kept.map((t) => t.toTensor());
  // Branch from step 3's cache twice more, as a beam search would.
  const other = randn([1, HEADS, 1, DIM], 99);
  const [a1, b1] = await gm.run([kept[3], other, q], { resident: true });
  const [a2, b2] = await gm.run([kept[3], other, q], { resident: true });
  const [plainAtt, plainGrown] = await gm.run([snapshot[3], other, q]);
  for (const r of [b1, b2]) expectSame(r, plainGrown);
  for (const r of [a1, a2]) expectSame(r, plainAtt);
  kept.forEach((t, i) => expectSame(t, snapshot[i]));
  for (const t of [a1, b1, a2, b2, ...kept]) t.dispose();
  gm.dispose();
});

test('resident tensors: reading, disposing, and clear errors', async () => {
  const gm = await stepGraph();
  const past = randn([1, HEADS, 2, DIM], 3), x = randn([1, HEADS, 1, DIM], 4), q = randn([1, HEADS, 1, DIM], 5);
  const [att, grown] = gm.runSync([past, x, q], { resident: true });
  expect(grown.size).toBe(HEADS * 3 * DIM);
  expect(grown.data).toBeInstanceOf(Float32Array);
  expect(grown.disposed).toBe(false);
  grown.dispose();
  grown.dispose();  // twice is harmless
  expect(grown.disposed).toBe(true);
  expect(() => grown.toTensor()).toThrow(fxwasm.FxError);
  expect(() => grown.toTensor()).toThrow(/disposed/);
  expect(() => gm.runSync([grown, x, q])).toThrow(/input #0: the resident tensor was disposed/);
  // A resident input where a run takes the JSON form (a profile): a copy, same values.
  const profiled = gm.runSync([att, x, q], { profile: true });
  expectSame(profiled.outputs[1], gm.runSync([att.toTensor(), x, q])[1]);
  expect(profiled.profile.find((p) => p.name === 'cat').target).toBe('torch.cat');  // the user's name
  // A wrongly shaped resident input fails as any input does.
  expect(() => gm.runSync([att, att, att, att])).toThrow(fxwasm.FxError);
  att.dispose();
  gm.dispose();
});

test('a graph that writes in place gets copies of resident inputs', async () => {
  const gm = await fxwasm.create();
  const g = gm.graph;
  const a = g.placeholder('a');
  const added = g.callMethod('add_', [a, 1]);
  g.output(added);
  const t = fxwasm.tensor(new Float32Array([1, 2, 3]), [3]);
  const r = gm.runSync([t], { resident: true });
  const again = gm.runSync([r], { resident: true });
  expect(Array.from(again.toTensor().data)).toEqual([3, 4, 5]);
  expect(Array.from(r.toTensor().data)).toEqual([2, 3, 4]);  // unchanged: the run wrote into a copy
  r.dispose();
  again.dispose();
  gm.dispose();
});

test('worker mode refuses resident runs with a clear error', async () => {
  const gm = await stepGraph();
  const [, grown] = gm.runSync([randn([1, HEADS, 2, DIM], 3), randn([1, HEADS, 1, DIM], 4), randn([1, HEADS, 1, DIM], 5)],
    { resident: true });
  const { packValue } = await import('../../web/src/worker_wire.js');
  expect(() => packValue([grown], null)).toThrow(/ResidentTensor lives in an in-thread runtime/);
  grown.dispose();
  gm.dispose();
});
