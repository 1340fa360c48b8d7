// gm.applyPass('fuse'): conv / linear + residual add + activation become one fxwasm.fused_* node that runs,
// checks against the stored torch reference, saves, loads back and prints in the table and the code.
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { ROOT } from './helpers.js';

const DIGITS = path.join(ROOT, 'examples', 'digits_cnn', 'digits_cnn.fxw');
const MLP = path.join(ROOT, '.cache', 'corpus', 'mlp.fxw');
const f32 = (values, shape = [values.length]) => fxwasm.tensor(new Float32Array(values), shape);
const calls = (gm) => gm.graph.nodes.filter((n) => n.op.startsWith('call_')).length;

function expectClose(actual, expected, rtol = 1e-4, atol = 1e-5) {
  expect(actual.shape).toEqual(expected.shape);
  for (let i = 0; i < actual.data.length; i++) {
    const tol = atol + rtol * Math.abs(expected.data[i]);
    if (!(Math.abs(actual.data[i] - expected.data[i]) <= tol)) {
      throw new Error(`element ${i}: ${actual.data[i]} vs ${expected.data[i]}`);
    }
  }
}

test('the digits CNN: conv + relu and linear + relu fuse; it runs, checks, saves and loads', async () => {
  const gm = await fxwasm.load(DIGITS);
  try {
    const ref = gm.reference();
    const unfused = await gm.run(ref.inputs);
    const callsBefore = calls(gm);
    expect(gm.applyPass('fuse')).toBe(true);
    expect(calls(gm)).toBe(callsBefore - 3);  // three relus absorbed
    const conv1 = gm.graph.find('conv1');
    expect(conv1.op).toBe('call_function');
    expect(conv1.target).toBe('fxwasm.fused_conv2d');
    expect(conv1.kwargs).toEqual({ activation: 'relu' });
    expect(conv1.args.slice(1, 3).map((a) => a.name)).toEqual(['conv1_weight', 'conv1_bias']);
    expect(gm.graph.find('fc1').target).toBe('fxwasm.fused_linear');
    expect(gm.graph.find('fc2').op).toBe('call_module');  // nothing after it to fuse
    expect(gm.printTabular()).toMatch(/call_function +conv1 +fxwasm\.fused_conv2d/);
    expect(gm.code).toMatch(/conv1 = fxwasm\.fused_conv2d\(x, conv1_weight, conv1_bias, \(1, 1\), \(1, 1\), \(1, 1\), 1, activation = 'relu'\)/);
    expect(gm.applyPass('fuse')).toBe(false);

    expectClose(await gm.run(ref.inputs), unfused);
    expect((await gm.check({ rtol: 1e-4, atol: 1e-5 })).status).toBe('pass');

    const back = await fxwasm.load(gm.save());
    try {
      expect(back.printTabular()).toBe(gm.printTabular());
      expect(back.info().unsupported).toEqual([]);
      expectClose(await back.run(ref.inputs), unfused);
    } finally {
      back.dispose();
    }
  } finally {
    gm.dispose();
  }
});

test('a graph built in JS: linear + residual + gelu becomes one fused_linear', async () => {
  const gm = await fxwasm.create();
  try {
    gm.addTensor('w', f32([0.5, -1, 0.25, 2, 1, -0.5], [2, 3]));
    gm.addTensor('b', f32([0.1, -0.2]));
    const g = gm.graph;
    const x = g.placeholder('x');
    const r = g.placeholder('r');
    const lin = g.callFunction('torch.nn.functional.linear', [x, g.getAttr('w'), g.getAttr('b')]);
    const add = g.callFunction('operator.add', [lin, r]);
    g.output(g.callFunction('torch.nn.functional.gelu', [add]));
    const inputs = [f32([1, 2, 3, -1, 0, 1], [2, 3]), f32([0.5, -0.5, 1, 2], [2, 2])];
    const before = await gm.run(inputs);
    expect(gm.applyPass('fuse')).toBe(true);
    expect(g.nodes.map((n) => n.name)).toEqual(['x', 'r', 'w', 'b', 'linear', 'output']);
    expect(g.find('linear').target).toBe('fxwasm.fused_linear');
    expect(g.find('linear').kwargs.activation).toBe('gelu');
    expect(g.find('linear').kwargs.residual.name).toBe('r');
    expectClose(await gm.run(inputs), before);
  } finally {
    gm.dispose();
  }
});

test('the corpus MLP (npm test builds the corpus first): fewer calls, same outputs', async () => {
  expect(fs.existsSync(MLP)).toBe(true);
  const gm = await fxwasm.load(MLP);
  try {
    const ref = gm.reference();
    const unfused = await gm.run(ref.inputs);
    expect(gm.applyPass('fuse')).toBe(true);
    expect(calls(gm)).toBe(3);
    expect(gm.graph.nodes.filter((n) => n.target === 'fxwasm.fused_linear').length).toBe(2);
    expectClose(await gm.run(ref.inputs), unfused);
  } finally {
    gm.dispose();
  }
});
