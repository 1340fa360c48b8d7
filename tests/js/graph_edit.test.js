// FX's programmable side in JS: build a graph from scratch, edit it (insert, erase, replace uses, move),
// lint, DCE, passes, pattern rewriting — and see the table, the code and runs follow every edit.
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { ROOT, TOY, TOY_TABLE } from './helpers.js';

const f32 = (values, shape = [values.length]) => fxwasm.tensor(new Float32Array(values), shape);
const CONV_BN = path.join(ROOT, 'tests', 'golden', 'passes', 'conv_bn.fxw');

/** The seed example (examples/seed/toy_example.fxw), built node by node. */
function buildToy(g) {
  const a = g.placeholder('L_a_', { typeExpr: 'torch.Tensor' });
  const b = g.placeholder('L_b_', { typeExpr: 'torch.Tensor' });
  const abs = g.callFunction('torch.abs', [a]);
  const add = g.callFunction('operator.add', [abs, 1]);
  const x = g.createNode('call_function', 'operator.truediv', [a, add], {}, 'x');
  const sum = g.callMethod('sum', [b]);
  const lt = g.callFunction('operator.lt', [sum, 0]);
  g.output([lt, x]);
}

test('a graph built from scratch prints exactly as the exported seed example', async () => {
  const gm = await fxwasm.create();
  try {
    buildToy(gm.graph);
    expect(gm.printTabular()).toBe(TOY_TABLE);
    const toy = await fxwasm.load(TOY);
    expect(gm.code).toBe(toy.code);
    const ref = toy.reference();
    const [lt, x] = await gm.run(ref.inputs);
    expect(Array.from(lt.data)).toEqual(Array.from(ref.outputs[0].data));
    expect(Array.from(x.data)).toEqual(Array.from(ref.outputs[1].data));
    toy.dispose();
  } finally {
    gm.dispose();
  }
});

test('nodes: op, name, target, args, kwargs, users, next/prev, allInputNodes', async () => {
  const gm = await fxwasm.load(TOY);
  const g = gm.graph;
  const abs = g.find('abs_1');
  expect(abs).toBe(g.find('abs_1'));  // one object per node
  expect([abs.op, abs.name, abs.target]).toEqual(['call_function', 'abs_1', 'torch.abs']);
  expect(abs.args).toEqual([g.find('l_a_')]);
  expect(abs.args[0]).toBe(g.find('l_a_'));
  expect(abs.users).toEqual([g.find('add')]);
  expect(abs.next).toBe(g.find('add'));
  expect(abs.prev).toBe(g.find('l_b_'));
  expect(g.nodes[0].prev).toBeNull();
  expect(g.outputNode.next).toBeNull();
  expect(g.find('x').allInputNodes).toEqual([g.find('l_a_'), g.find('add')]);
  expect([...g].length).toBe(8);
  gm.dispose();
});

test('inserting relu after abs changes the table, the code and the run', async () => {
  const gm = await fxwasm.load(TOY);
  const g = gm.graph;
  const abs = g.find('abs_1');
  const add = g.find('add');
  const relu = g.insertingAfter(abs, () => g.callFunction('torch.relu', [abs]));
  add.replaceInputWith(abs, relu);
  expect(relu.name).toBe('relu');
  expect(abs.next).toBe(relu);
  expect(abs.users).toEqual([relu]);  // the Node objects read the core again after the edit
  expect(add.args).toEqual([relu, 1]);
  expect(gm.printTabular()).toContain('call_function  relu    torch.relu        (abs_1,)     {}');
  expect(gm.code).toContain('relu = torch.relu(abs_1)');
  const a = f32([-1, 2, -3, 4, -5, 6, -7, 8, -9, 10]);
  const b = f32(new Array(10).fill(1));
  const [, x] = await gm.run([a, b]);
  expect(x.data[0]).toBeCloseTo(-1 / 2, 6);

  // Now make add use neg(abs) instead: the run must follow.
  const neg = g.insertingBefore(add, () => g.callFunction('torch.neg', [abs]));
  add.updateArg(0, neg);
  expect(neg.next).toBe(add);
  const [, x2] = await gm.run([a, b]);
  expect(x2.data[1]).toBeCloseTo(2 / (-2 + 1), 6);  // x = a / (-|a| + 1)
  expect(relu.users).toEqual([]);
  expect(g.eliminateDeadCode()).toBe(true);
  expect(relu.erased).toBe(true);
  expect(() => relu.op).toThrow(fxwasm.FxError);
  expect(g.find('relu')).toBeUndefined();
  gm.dispose();
});

test('erasing a node with users is refused with FxError naming it', async () => {
  const gm = await fxwasm.load(TOY);
  const g = gm.graph;
  let error;
  try {
    g.eraseNode(g.find('abs_1'));
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(fxwasm.FxError);
  expect(error.node).toBe('abs_1');
  expect(error.message).toMatch(/cannot erase: it still has 1 user\(s\): add/);
  expect(gm.printTabular()).toBe(TOY_TABLE);  // nothing changed, the module still works
  gm.dispose();
});

test('replaceAllUsesWith (with a filter), args setter, move, and the runtime follows', async () => {
  const gm = await fxwasm.load(TOY);
  const g = gm.graph;
  const a = g.find('l_a_');
  const b = g.find('l_b_');
  // x = l_a_ / add → use l_b_ only in x; abs_1 keeps l_a_.
  const changed = a.replaceAllUsesWith(b, { filter: (user) => user.name === 'x' });
  expect(changed).toEqual([g.find('x')]);
  expect(g.find('x').args[0]).toBe(b);
  expect(a.users).toEqual([g.find('abs_1')]);
  const lt = g.find('lt');
  lt.args = [g.find('sum_1'), 100];
  expect(lt.args).toEqual([g.find('sum_1'), 100]);
  lt.kwargs = {};
  const ones = f32(new Array(10).fill(1));
  const [ltOut, xOut] = await gm.run([f32(new Array(10).fill(-3)), ones]);
  expect(ltOut.data[0]).toBe(1);
  expect(xOut.data[0]).toBeCloseTo(1 / 4, 6);
  // Moving sum_1 to the front keeps a valid order (it only uses l_b_)...
  g.find('abs_1').prepend(g.find('sum_1'));
  expect(g.find('sum_1').next).toBe(g.find('abs_1'));
  g.lint();
  // ... moving it before its input does not: lint says which node.
  g.find('l_a_').prepend(g.find('sum_1'));
  let error;
  try { g.lint(); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(fxwasm.FxError);
  expect(error.node).toBe('sum_1');
  expect(error.message).toMatch(/used before it is defined/);
  await expect(gm.run([ones, ones])).rejects.toThrow(fxwasm.FxError);
  g.find('lt').prepend(g.find('sum_1'));
  g.lint();
  gm.dispose();
});

test('dead code elimination and bad edits', async () => {
  const gm = await fxwasm.create();
  const g = gm.graph;
  const x = g.placeholder('x');
  g.callFunction('torch.neg', [x]);
  const r = g.callFunction('torch.relu', [x]);
  g.output(r);
  expect(g.nodes.map((n) => n.name)).toEqual(['x', 'neg', 'relu', 'output']);
  expect(gm.applyPass('dce')).toBe(true);
  expect(g.nodes.map((n) => n.name)).toEqual(['x', 'relu', 'output']);
  expect(gm.applyPass('dce')).toBe(false);
  expect(() => g.getAttr('missing')).toThrow(/get_attr target 'missing' names no tensor/);
  expect(() => g.output(x)).toThrow(/already has an output/);
  expect(() => gm.applyPass('nope')).toThrow(/unknown pass 'nope'/);
  expect(() => r.updateArg(3, x)).toThrow(fxwasm.FxError);
  const other = await fxwasm.create();
  const y = other.graph.placeholder('y');
  expect(() => g.callFunction('torch.neg', [y])).toThrow(/no node named|unknown node/);
  other.dispose();
  gm.dispose();
});

test('tensors, constant folding and shape propagation', async () => {
  const gm = await fxwasm.create();
  gm.addTensor('w', f32([1, 2, 3]));
  const g = gm.graph;
  const x = g.placeholder('x');
  const w = g.getAttr('w');
  const scaled = g.callFunction('torch.mul', [w, fxwasm.float(2)]);
  g.output(g.callFunction('operator.add', [x, scaled]));
  expect(gm.code).toContain('mul = torch.mul(w, 2.0)');
  const before = await gm.run([f32([10, 20, 30])]);
  expect(gm.applyPass('constant_fold')).toBe(true);
  expect(g.nodes.map((n) => n.op)).toEqual(['placeholder', 'get_attr', 'call_function', 'output']);
  expect(g.find('_folded_mul').target).toBe('_folded_mul');
  const after = await gm.run([f32([10, 20, 30])]);
  expect(Array.from(after.data)).toEqual(Array.from(before.data));
  expect(Array.from(after.data)).toEqual([12, 24, 36]);

  expect(gm.applyPass('shape_prop', { inputs: [f32([0, 0, 0, 0, 0, 0], [2, 3])] })).toBe(true);
  expect(g.find('add').meta.shape).toEqual({ $size: [2, 3] });
  expect(g.find('add').meta.dtype).toEqual({ $dtype: 'float32' });
  expect(gm.info().outputs[0].shape).toEqual([2, 3]);
  gm.dispose();
});

test('conv-bn folding leaves the outputs equal', async () => {
  const gm = await fxwasm.load(CONV_BN);
  const ref = gm.reference();
  const runnable = gm.info().unsupported.length === 0;
  expect(gm.applyPass('fold_conv_bn')).toBe(true);
  expect(gm.graph.nodes.map((n) => n.name)).toEqual(['x', 'conv1', 'relu', 'conv2', 'output']);
  expect(gm.info().unsupported.map((u) => u.target)).not.toContain('torch.nn.modules.batchnorm.BatchNorm2d');
  if (runnable) {
    // The fold keeps the function, so the stored torch reference still holds.
    const report = await gm.check({ rtol: 1e-4, atol: 1e-4 });
    expect(report.status).toBe('pass');
    const out = await gm.run(ref.inputs);
    for (let i = 0; i < out.data.length; i++) expect(out.data[i]).toBeCloseTo(ref.outputs.data[i], 4);
  }
  gm.dispose();
});

test('replacePattern rewrites every match, as torch.fx replace_pattern', async () => {
  const gm = await fxwasm.create();
  const g = gm.graph;
  const x = g.placeholder('x');
  const y = g.placeholder('y');
  const r1 = g.callFunction('torch.relu', [g.callFunction('torch.abs', [x])]);
  const r2 = g.callFunction('torch.relu', [g.callFunction('torch.abs', [y])]);
  g.output(g.callFunction('operator.add', [r1, r2]));

  const pattern = await fxwasm.create();
  const p = pattern.graph.placeholder('p');
  pattern.graph.output(pattern.graph.callFunction('torch.relu', [pattern.graph.callFunction('torch.abs', [p])]));
  const replacement = await fxwasm.create();
  const q = replacement.graph.placeholder('p');
  replacement.graph.output(replacement.graph.callFunction('torch.sigmoid', [q]));

  const matches = gm.replacePattern(pattern, replacement);
  expect(matches).toHaveLength(2);
  expect(matches[0].nodesMap.p).toBe(x);
  expect(matches[0].replacements.map((n) => n.name)).toEqual(['sigmoid']);
  expect(r1.erased).toBe(true);
  expect(g.nodes.map((n) => n.target)).toEqual(['x', 'y', 'torch.sigmoid', 'torch.sigmoid', 'operator.add', 'output']);
  const out = await gm.run([f32([0]), f32([0])]);
  expect(out.data[0]).toBeCloseTo(1, 6);
  pattern.dispose();
  replacement.dispose();
  gm.dispose();
});

test('save → load round trip of an edited graph', async () => {
  const gm = await fxwasm.load(TOY);
  const g = gm.graph;
  const abs = g.find('abs_1');
  const relu = g.insertingAfter(abs, () => g.callFunction('torch.relu', [abs]));
  abs.replaceAllUsesWith(relu, { filter: (u) => u !== relu });
  const bytes = fxwasm.save(gm);
  const back = await fxwasm.load(bytes);
  expect(back.printTabular()).toBe(gm.printTabular());
  expect(back.code).toBe(gm.code);
  expect(back.info().has_reference).toBe(false);  // an edited graph no longer matches the export's reference
  const inputs = [f32([-1, 2, -3, 4, -5, 6, -7, 8, -9, 10]), f32(new Array(10).fill(2))];
  const [, x1] = await gm.run(inputs);
  const [, x2] = await back.run(inputs);
  expect(Array.from(x2.data)).toEqual(Array.from(x1.data));
  back.dispose();
  gm.dispose();

  // A module built from scratch, with a parameter and a submodule-free get_attr, saves and loads too.
  const fresh = await fxwasm.create();
  fresh.addTensor('bias', f32([1, 1]), 'buffer');
  const fx = fresh.graph.placeholder('x');
  fresh.graph.output(fresh.graph.callFunction('operator.add', [fx, fresh.graph.getAttr('bias')]));
  const reloaded = await fxwasm.load(fresh.save());
  expect(reloaded.printTabular()).toBe(fresh.printTabular());
  expect(Array.from((await reloaded.run([f32([1, 2])])).data)).toEqual([2, 3]);
  reloaded.dispose();
  fresh.dispose();
});

test('a disposed module refuses graph use', async () => {
  const gm = await fxwasm.create();
  const g = gm.graph;
  gm.dispose();
  expect(() => g.placeholder('x')).toThrow(/disposed/);
  expect(() => gm.graph).toThrow(/disposed/);
});

test('the conv-bn fixture is small', () => {
  expect(fs.statSync(CONV_BN).size).toBeLessThan(20000);
});

test('BigInt arguments reach the core exactly (int64 beyond 2^53 is not rounded)', async () => {
  const gm = await fxwasm.create();
  try {
    const g = gm.graph;
    const x = g.placeholder('x');
    const min = -(2n ** 63n);
    const full = g.callFunction('torch.full', [[2], min], { dtype: { $dtype: 'int64' } });
    const big = g.callFunction('torch.full', [[1], 2n ** 53n + 1n], { dtype: { $dtype: 'int64' } });
    g.output([full, big, x]);
    expect(full.args[1]).toBe(Number(min));  // read back as a JS number: the value language has no BigInt
    const [a, b] = await gm.run([f32([1])]);
    expect(Array.from(a.data)).toEqual([min, min]);
    expect(Array.from(b.data)).toEqual([2n ** 53n + 1n]);
  } finally {
    gm.dispose();
  }
});
