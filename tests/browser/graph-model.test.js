// The graph view's model (no DOM): weights drawn inside their users, module scopes (with the residual add
// of a resnet block placed in its block), folding to one box per module, search; and weight statistics.
import { describe, expect, test } from '@jest/globals';
import { buildGraphModel, foldedView, foldableScopes, scopesAtDepth, searchItems, scopeChain } from '../../web/playground/lib/graph-model.js';
import { weightStats, shortNumber } from '../../web/playground/lib/tensor-stats.js';

// A node as gm.graph.nodes hands it out (name, op, target, meta, allInputNodes).
function graph(specs) {
  const byName = new Map();
  return specs.map(([op, name, target, inputs = [], meta = {}]) => {
    const n = { op, name, target, meta, get allInputNodes() { return inputs.map((i) => byName.get(i)); } };
    byName.set(name, n);
    return n;
  });
}

const size = (...s) => ({ shape: { $size: s }, dtype: { $dtype: 'float32' } });

// A resnet-like block as torch.fx.symbolic_trace records it, plus a folded constant (get_attr) used by a call.
const NODES = graph([
  ['placeholder', 'x', 'x', [], size(1, 4, 8, 8)],
  ['call_module', 'conv1', 'conv1', ['x'], size(1, 4, 8, 8)],
  ['call_module', 'layer1_0_conv1', 'layer1.0.conv1', ['conv1'], size(1, 4, 8, 8)],
  ['call_module', 'layer1_0_bn1', 'layer1.0.bn1', ['layer1_0_conv1'], size(1, 4, 8, 8)],
  ['call_function', 'add', 'operator.add', ['layer1_0_bn1', 'conv1'], size(1, 4, 8, 8)],
  ['call_module', 'layer1_0_relu', 'layer1.0.relu', ['add'], size(1, 4, 8, 8)],
  ['get_attr', 'scale', 'layer1.scale', [], size(4)],
  ['call_function', 'mul', 'operator.mul', ['layer1_0_relu', 'scale'], size(1, 4, 8, 8)],
  ['call_function', 'flatten', 'torch.flatten', ['mul'], size(1, 256)],
  ['call_module', 'fc', 'fc', ['flatten'], size(1, 10)],
  ['output', 'output', 'output', ['fc']],
]);
const MODULES = {
  '': { type: 'M', hparams: {} },
  conv1: { type: 'torch.nn.modules.conv.Conv2d', hparams: { in_channels: 4 } },
  layer1: { type: 'torch.nn.modules.container.Sequential', hparams: {} },
  'layer1.0': { type: 'torchvision.models.resnet.BasicBlock', hparams: {} },
  'layer1.0.conv1': { type: 'torch.nn.modules.conv.Conv2d', hparams: {} },
  'layer1.0.bn1': { type: 'torch.nn.modules.batchnorm.BatchNorm2d', hparams: {} },
  'layer1.0.relu': { type: 'torch.nn.modules.activation.ReLU', hparams: {} },
  fc: { type: 'torch.nn.modules.linear.Linear', hparams: {} },
};
const TENSORS = [
  { name: 'conv1.weight', kind: 'parameter', shape: [4, 4, 3, 3], dtype: 'float32', bytes: 576 },
  { name: 'layer1.0.conv1.weight', kind: 'parameter', shape: [4, 4, 3, 3], dtype: 'float32', bytes: 576 },
  { name: 'layer1.0.bn1.weight', kind: 'parameter', shape: [4], dtype: 'float32', bytes: 16 },
  { name: 'layer1.0.bn1.running_mean', kind: 'buffer', shape: [4], dtype: 'float32', bytes: 16 },
  { name: 'layer1.scale', kind: 'constant', shape: [4], dtype: 'float32', bytes: 16 },
  { name: 'fc.weight', kind: 'parameter', shape: [10, 256], dtype: 'float32', bytes: 10240 },
  { name: 'fc.bias', kind: 'parameter', shape: [10], dtype: 'float32', bytes: 40 },
];

describe('graph model', () => {
  const model = buildGraphModel(NODES, MODULES, TENSORS);
  const item = (n) => model.byName.get(n);

  test('boxes show the module type and output shape; get_attr weights sit inside their user', () => {
    expect(model.items.map((i) => i.name)).not.toContain('scale');
    expect(item('mul').weights).toEqual([{ node: 'scale', name: 'layer1.scale', shape: '[4]', dtype: 'float32' }]);
    expect(item('mul').inputs).toEqual(['layer1_0_relu']);
    expect(item('conv1').type).toBe('Conv2d');
    expect(item('conv1').shape).toBe('[1, 4, 8, 8]');
    expect(item('layer1_0_bn1').type).toBe('BatchNorm2d');
    expect(item('layer1_0_bn1').weights.map((w) => w.name)).toEqual(['layer1.0.bn1.weight', 'layer1.0.bn1.running_mean']);
    expect(item('fc').weights.map((w) => `${w.name} ${w.shape}`)).toEqual(['fc.weight [10, 256]', 'fc.bias [10]']);
    expect(item('add').type).toBe('operator.add');
  });

  test('module scopes: from call_module targets, and from users for plain calls', () => {
    expect(item('layer1_0_conv1').scope).toBe('layer1.0');
    expect(item('conv1').scope).toBe('');
    expect(item('add').scope).toBe('layer1.0'); // its user is layer1.0.relu
    expect(item('flatten').scope).toBe('');
    expect(scopeChain('layer1.0.conv1')).toEqual(['layer1', 'layer1.0', 'layer1.0.conv1']);
    expect(foldableScopes(model)).toEqual(['layer1', 'layer1.0']);
    expect(scopesAtDepth(model, 2)).toEqual(['layer1.0']);
  });

  test('an nn_module_stack meta gives the scope when the tracer recorded one', () => {
    const m = buildGraphModel(graph([
      ['placeholder', 'x', 'x'],
      ['call_function', 'gelu', 'torch.nn.functional.gelu', ['x'], { nn_module_stack: { a: ['L[\'self\'].blocks[3]', 'Block'], b: ['L[\'self\'].blocks[3].mlp', 'Mlp'] } }],
      ['output', 'output', 'output', ['gelu']],
    ]));
    expect(m.byName.get('gelu').scope).toBe('blocks.3.mlp');
  });

  test('folding a module draws its nodes as one box with the edges into and out of it', () => {
    const fv = foldedView(model, new Set(['layer1.0']));
    expect(fv.boxes.map((b) => b.id)).toEqual(['x', 'conv1', 'module:layer1.0', 'mul', 'flatten', 'fc', 'output']);
    const group = fv.boxes.find((b) => b.kind === 'group');
    expect(group.members.map((m) => m.name)).toEqual(['layer1_0_conv1', 'layer1_0_bn1', 'add', 'layer1_0_relu']);
    expect(group.type).toBe('BasicBlock');
    expect(group.shape).toBe('[1, 4, 8, 8]');
    expect(fv.edges).toContainEqual(['conv1', 'module:layer1.0']);
    expect(fv.edges).toContainEqual(['module:layer1.0', 'mul']);
    expect(fv.edges.some(([a, b]) => a === b)).toBe(false);
    // The outer fold wins: layer1 holds layer1.0 and the mul of layer1's constant.
    const outer = foldedView(model, new Set(['layer1', 'layer1.0']));
    expect(outer.boxes.map((b) => b.id)).toEqual(['x', 'conv1', 'module:layer1', 'flatten', 'fc', 'output']);
    expect(outer.boxOf.get('layer1_0_bn1')).toBe('module:layer1');
  });

  test('search matches names, targets, types and weight names', () => {
    expect(searchItems(model, 'BN1')).toEqual(['layer1_0_bn1']);
    expect(searchItems(model, 'conv2d')).toEqual(['conv1', 'layer1_0_conv1']);
    expect(searchItems(model, 'scale')).toEqual(['mul']);
    expect(searchItems(model, '  ')).toEqual([]);
  });
});

describe('weight statistics', () => {
  test('min, max, mean, std and a histogram over the finite values', () => {
    const s = weightStats({ dtype: 'float32', data: new Float32Array([0, 1, 2, 3, NaN, Infinity]) }, 3);
    expect(s).toMatchObject({ count: 6, min: 0, max: 3, mean: 1.5, nan: 1, inf: 1, bins: [1, 1, 2] });
    expect(s.std).toBeCloseTo(Math.sqrt(1.25));
    expect(weightStats({ dtype: 'float32', data: new Float32Array([2, 2]) }).bins).toEqual([2]);
    expect(weightStats({ dtype: 'int64', data: new BigInt64Array([5n, -5n]) })).toMatchObject({ min: -5, max: 5, mean: 0 });
    expect(weightStats({ dtype: 'float16', data: new Uint16Array([0x3c00, 0x4000]) })).toMatchObject({ min: 1, max: 2 });
    expect(weightStats({ dtype: 'float32', data: new Float32Array([NaN]) }).min).toBeNull();
    expect(shortNumber(0.000012346)).toBe('1.235e-5');
    expect(shortNumber(0.5)).toBe('0.5');
  });
});
