// A loaded GraphModule: text views, graph walk, info, runs (positional, named, profiled), self-check,
// save round trip, dispose, and errors that leave the runtime usable.
import * as fxwasm from '../../web/src/index.js';
import { TOY, TOY_TABLE, addWeightFxw, reluFxw } from './helpers.js';

let gm;
beforeAll(async () => { gm = await fxwasm.load(TOY); });
afterAll(() => gm.dispose());

const f32 = (values) => fxwasm.tensor(new Float32Array(values), [values.length]);

test('printTabular matches torch exactly', () => {
  expect(gm.printTabular()).toBe(TOY_TABLE);
});

test('code is the forward source', () => {
  expect(gm.code).toContain('def forward(self, L_a_');
  expect(gm.code).toContain('abs_1 = torch.abs(l_a_)');
  expect(gm.code).toContain('return (lt, x)');
});

test('graph: nodes with op, name, target, args, kwargs, users', () => {
  const g = gm.graph;
  expect(g.nodes.map((n) => n.name)).toEqual(['l_a_', 'l_b_', 'abs_1', 'add', 'x', 'sum_1', 'lt', 'output']);
  const add = g.find('add');
  expect(add.op).toBe('call_function');
  expect(add.target).toBe('operator.add');
  expect(add.args[0]).toBe(g.find('abs_1'));
  expect(add.args[1]).toBe(1);
  expect(add.kwargs).toEqual({});
  expect(add.users).toEqual([g.find('x')]);
  expect(g.find('l_a_').users.map((n) => n.name)).toEqual(['abs_1', 'x']);
  expect(g.outputNode.args[0]).toEqual([g.find('lt'), g.find('x')]);
  expect(g.find('l_a_').meta.dtype).toEqual({ $dtype: 'float32' });
  expect(g.placeholders.map((n) => n.target)).toEqual(['L_a_', 'L_b_']);
});

test('info', () => {
  const info = gm.info();
  expect(info.format_version).toBe('1');
  expect(info.nodes).toBe(8);
  expect(info.ops).toEqual({ placeholder: 2, call_function: 4, call_method: 1, output: 1 });
  expect(info.inputs.map((i) => [i.name, i.shape, i.dtype])).toEqual([['l_a_', [10], 'float32'], ['l_b_', [10], 'float32']]);
  expect(info.outputs.map((o) => o.dtype)).toEqual(['bool', 'float32']);
  expect(info.parameters.count).toBe(0);
  expect(info.has_reference).toBe(true);
  expect(info.unsupported).toEqual([]);
  expect(gm.inputNames).toEqual(['l_a_', 'l_b_']);
});

test('run on the stored reference inputs gives the stored outputs', async () => {
  const ref = gm.reference();
  expect(ref.inputs).toHaveLength(2);
  const out = await gm.run(ref.inputs);
  expect(Array.isArray(out)).toBe(true);
  const [lt, x] = out;
  expect(lt).toBeInstanceOf(fxwasm.Tensor);
  expect(lt.dtype).toBe('bool');
  expect(lt.shape).toEqual([]);
  expect(lt.data).toBeInstanceOf(Uint8Array);
  expect(Array.from(lt.data)).toEqual(Array.from(ref.outputs[0].data));
  expect(x.dtype).toBe('float32');
  expect(x.shape).toEqual([10]);
  const a = ref.inputs[0].data;
  for (let i = 0; i < 10; i++) {
    expect(x.data[i]).toBeCloseTo(ref.outputs[1].data[i], 6);
    expect(x.data[i]).toBeCloseTo(a[i] / (Math.abs(a[i]) + 1), 6);
  }
});

test('named inputs by node name or placeholder target', async () => {
  const a = f32([1, -2, 3, -4, 5, -6, 7, -8, 9, -10]);
  const b = f32([-1, -1, -1, -1, -1, -1, -1, -1, -1, -1]);
  const [lt1, x1] = await gm.run({ l_a_: a, l_b_: b });
  const [lt2, x2] = await gm.run({ L_b_: b, L_a_: a });
  expect(lt1.data[0]).toBe(1);
  expect(Array.from(x1.data)).toEqual(Array.from(x2.data));
  expect(lt2.data[0]).toBe(1);
  expect(x1.data[1]).toBeCloseTo(-2 / 3, 6);
  await expect(gm.run({ l_a_: a })).rejects.toThrow(/missing input 'l_b_'/);
  await expect(gm.run({ l_a_: a, l_b_: b, nope: a })).rejects.toThrow(/unknown input 'nope'/);
});

test('profile lists every node with a time', async () => {
  const { outputs, profile } = await gm.run(gm.reference().inputs, { profile: true });
  expect(outputs).toHaveLength(2);
  expect(profile.length).toBeGreaterThan(0);
  const names = profile.map((p) => p.name);
  expect(names).toEqual(expect.arrayContaining(['abs_1', 'add', 'x', 'sum_1', 'lt']));
  for (const p of profile) expect(typeof p.ms).toBe('number');
});

test('check passes against the stored reference', async () => {
  const report = await gm.check();
  expect(report.status).toBe('pass');
  expect(report.outputs.map((o) => o.path)).toEqual(['[0]', '[1]']);
  expect(report.outputs.every((o) => o.pass)).toBe(true);
});

test('check: mismatch and missing reference have distinct statuses', async () => {
  const bad = await fxwasm.load(reluFxw({ expected: [0, 3] }));
  const none = await fxwasm.load(reluFxw({ expected: null }));
  const good = await fxwasm.load(reluFxw());
  try {
    expect((await good.check()).status).toBe('pass');
    const report = await bad.check();
    expect(report.status).toBe('fail');
    expect(report.outputs[0].max_abs).toBeCloseTo(1);
    expect((await none.check()).status).toBe('no_reference');
    expect(none.reference()).toBeNull();
  } finally {
    bad.dispose();
    none.dispose();
    good.dispose();
  }
});

test('save round trip', async () => {
  const bytes = fxwasm.save(gm);
  expect(bytes).toBeInstanceOf(Uint8Array);
  const again = await fxwasm.load(bytes);
  try {
    expect(again.printTabular()).toBe(TOY_TABLE);
    expect(again.code).toBe(gm.code);
    expect((await again.check()).status).toBe('pass');
  } finally {
    again.dispose();
  }
});

test('garbage, truncated files and bad inputs throw FxError; the runtime stays usable', async () => {
  await expect(fxwasm.load(new TextEncoder().encode('definitely not a model'))).rejects.toThrow(fxwasm.FxError);
  const toy = fxwasm.save(gm);
  for (const cut of [3, 8, 100, toy.length >> 1, toy.length - 1]) {
    await expect(fxwasm.load(toy.subarray(0, cut))).rejects.toThrow(fxwasm.FxError);
  }
  await expect(gm.run([f32([1, 2])])).rejects.toThrow(fxwasm.FxError);
  await expect(gm.run(['not a tensor', f32([1, 2])])).rejects.toThrow(fxwasm.FxError);
  await expect(gm.run([new Float32Array(10), new Float32Array(10)])).rejects.toThrow(/fxwasm.tensor/);
  // still fine
  expect((await gm.check()).status).toBe('pass');
  const fresh = await fxwasm.load(TOY);
  expect(fresh.printTabular()).toBe(TOY_TABLE);
  fresh.dispose();
});

test('unknown op: load fails naming it; loaded for inspection, info reports it and run throws', async () => {
  const err0 = await fxwasm.load(reluFxw({ target: 'torch.no_such_op' })).catch((e) => e);
  expect(err0).toBeInstanceOf(fxwasm.FxError);
  expect(err0.message).toMatch(/unsupported ops: torch\.no_such_op \(nodes: relu\)/);
  const m = await fxwasm.load(reluFxw({ target: 'torch.no_such_op' }), { allowUnsupported: true });
  try {
    expect(m.info().unsupported).toEqual([expect.objectContaining({ target: 'torch.no_such_op', nodes: ['relu'] })]);
    const err = await m.run([f32([1, 2])]).catch((e) => e);
    expect(err).toBeInstanceOf(fxwasm.FxError);
    expect(err.message).toMatch(/no_such_op/);
    expect(err.message).toMatch(/relu/);
  } finally {
    m.dispose();
  }
});

test('a failing node is named in FxError.node', async () => {
  const m = await fxwasm.load(addWeightFxw({ meta: false }));  // no meta: the input reaches the add
  try {
    const err = await m.run([f32([1, 2])]).catch((e) => e);
    expect(err).toBeInstanceOf(fxwasm.FxError);
    expect(err.node).toBe('add');
    expect(err.message).toMatch(/^node 'add': /);
    const out = await m.run({ x: f32([1, 2, 3]) });
    expect(Array.from(out.data)).toEqual([2, 4, 6]);
    expect(m.info().parameters).toEqual({ count: 3, tensors: 1, bytes: 12 });
  } finally {
    m.dispose();
  }
});

test('dispose: later use throws FxError, twice is harmless', async () => {
  const m = await fxwasm.load(TOY);
  m.dispose();
  m.dispose();
  expect(m.disposed).toBe(true);
  expect(() => m.printTabular()).toThrow(fxwasm.FxError);
  expect(() => m.code).toThrow(/disposed/);
  await expect(m.run([])).rejects.toThrow(fxwasm.FxError);
  expect(() => fxwasm.save(m)).toThrow(fxwasm.FxError);
});

test('FxError is an Error with node', () => {
  const e = new fxwasm.FxError('boom', { node: 'add' });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('FxError');
  expect(e.node).toBe('add');
});
