// The playground's pure helpers (no DOM): cutting print_tabular text into cells, Python repr of
// argument values, flattening outputs, stats and half-precision conversion.
import { describe, expect, test } from '@jest/globals';
import { parseTabular } from '../../web/playground/lib/tabular.js';
import { reprArg } from '../../web/playground/lib/repr.js';
import { describeOutput, flattenOutputs, tensorStats, topK } from '../../web/playground/lib/outputs.js';
import { metaShapes, profileShapes } from '../../web/playground/lib/tabular.js';
import { profileRows, sortRows } from '../../web/playground/lib/profile.js';
import { diffRows } from '../../web/playground/lib/passes.js';
import { float16ToNumber, bfloat16ToNumber } from '../../web/playground/lib/half.js';
import { numberToFloat16, numberToBfloat16 } from '../../web/src/half.js';
import { inputSpecs } from '../../web/playground/lib/inputs.js';
import { Tensor } from '../../web/src/tensor.js';

const TABLE = `opcode         name    target            args         kwargs
-------------  ------  ----------------  -----------  ---------------
placeholder    l_a_    L_a_              ()           {}
call_function  add     operator.add      (abs_1, 1)   {}
call_method    view    view              (x, -1, 4)   {'dim': 1.0}
output         output  output            ((lt, x),)   {}
`;

describe('parseTabular', () => {
  test('cuts rows at the rule line columns', () => {
    expect(parseTabular(TABLE)).toEqual([
      ['placeholder', 'l_a_', 'L_a_', '()', '{}'],
      ['call_function', 'add', 'operator.add', '(abs_1, 1)', '{}'],
      ['call_method', 'view', 'view', '(x, -1, 4)', "{'dim': 1.0}"],
      ['output', 'output', 'output', '((lt, x),)', '{}'],
    ]);
  });

  test('refuses a layout it does not know', () => {
    expect(parseTabular('something else\nentirely')).toBeNull();
    expect(parseTabular('a  b\n-  -\n1  2')).toBeNull();
  });
});

describe('reprArg', () => {
  const node = (name) => ({ op: 'call_function', name });
  test('prints values as Python does', () => {
    expect(reprArg([])).toBe('()');
    expect(reprArg([node('l_a_')])).toBe('(l_a_,)');
    expect(reprArg([[node('lt'), node('x')]])).toBe('((lt, x),)');
    expect(reprArg([node('abs_1'), 1])).toBe('(abs_1, 1)');
    expect(reprArg({})).toBe('{}');
    expect(reprArg({ dim: 1, keepdim: true, name: "it's", out: null })).toBe(
      `{'dim': 1, 'keepdim': True, 'name': "it's", 'out': None}`);
    expect(reprArg({ $list: [1, 2] })).toBe('[1, 2]');
    expect(reprArg({ $size: [1, 3] })).toBe('torch.Size([1, 3])');
    expect(reprArg({ $dtype: 'float32' })).toBe('torch.float32');
    expect(reprArg(Infinity)).toBe('inf');
  });
});

describe('outputs', () => {
  const t = (data, shape, dtype) => ({ data, shape, dtype });
  test('flattens nested outputs with their paths', () => {
    const a = t(new Uint8Array([1]), [], 'bool');
    const b = t(new Float32Array(3), [3], 'float32');
    expect(flattenOutputs([a, b]).map((x) => x.label)).toEqual(['out[0]', 'out[1]']);
    expect(flattenOutputs({ logits: b, 'aux loss': 1.5 }).map((x) => x.label)).toEqual(['out.logits', 'out["aux loss"]']);
    expect(flattenOutputs(b)).toEqual([{ label: 'out', value: b }]);
  });

  test('stats', () => {
    expect(tensorStats(new Float32Array([1, -2, 4]))).toEqual({ min: -2, max: 4, mean: 1 });
    expect(tensorStats(new BigInt64Array([1n, 3n]))).toEqual({ min: 1, max: 3, mean: 2 });
    expect(tensorStats(new Float32Array(0))).toBeNull();
  });
});

describe('complex outputs', () => {
  test('elements print as Python prints complex numbers, statistics over their magnitudes', () => {
    const z = new Tensor(Float32Array.of(3, 4, 0.5, -2), [2], 'complex64');
    const d = describeOutput(z);
    expect(d.meta).toBe('Tensor shape [2] complex64');
    expect(d.preview).toBe('[(3+4j), (0.5-2j)]');
    expect(d.stats).toMatch(/^\|z\| min 2\.06\d*  max 5  mean /);
    expect(topK(new Tensor(new Float32Array(8), [2, 2], 'complex64'))).toBeNull();
  });
});

describe('half precision', () => {
  test('round-trips representable values (the package writes the bits, the playground reads them)', () => {
    for (const x of [0, 1, -2, 0.5, 65504, 2 ** -24, -0.333251953125]) {
      expect(float16ToNumber(numberToFloat16(x))).toBe(x);
    }
    for (const x of [0, 1, -2, 0.5, 3.140625]) expect(bfloat16ToNumber(numberToBfloat16(x))).toBe(x);
    expect(float16ToNumber(numberToFloat16(1e6))).toBe(Infinity);
  });
});

describe('inputs', () => {
  test('shapes come from meta, then info, then the reference inputs', () => {
    const nodes = [
      { op: 'placeholder', name: 'a', meta: { shape: [2, 3], dtype: 'float32' } },
      { op: 'placeholder', name: 'b', meta: {} },
      { op: 'placeholder', name: 'c', meta: {} },
      { op: 'placeholder', name: 'd', meta: {} },
      { op: 'output', name: 'output' },
    ];
    const info = { inputs: [{ name: 'a' }, { name: 'b', shape: [4], dtype: 'int64' }, { name: 'c' }, { name: 'd' }] };
    const gm = { reference: () => ({ inputs: [null, null, { data: new Float32Array(5), shape: [5], dtype: 'float32' }, 7] }) };
    expect(inputSpecs(gm, nodes, info)).toEqual([
      { name: 'a', shape: [2, 3], dtype: 'float32', source: 'meta' },
      { name: 'b', shape: [4], dtype: 'int64', source: 'meta' },
      { name: 'c', shape: [5], dtype: 'float32', source: 'reference' },
      { name: 'd', shape: null, dtype: null, source: 'reference-value', value: 7 },
    ]);
  });
  // Random inputs are the package's randomTensor: tests/js/random_inputs.test.js.
});

describe('top-k', () => {
  test('softmax of row 0 of an [N, K] float output, most likely first', () => {
    const top = topK({ data: new Float32Array([2, 4, 6, 8, 0, 0, 0, 0]), shape: [2, 4], dtype: 'float32' }, 2);
    expect(top.map((t) => t.cls)).toEqual([3, 2]);
    expect(top[0].p).toBeCloseTo(0.86495, 4);
    expect(topK({ data: new Float32Array(4), shape: [4], dtype: 'float32' })).toBeNull();
    expect(topK({ data: new BigInt64Array(4), shape: [1, 4], dtype: 'int64' })).toBeNull();
  });
});

describe('shapes for the table', () => {
  test('from meta (one tensor or a tuple) and from a profile', () => {
    const nodes = [
      { name: 'a', meta: { shape: { $size: [2, 3] }, dtype: { $dtype: 'float32' } } },
      { name: 'out', meta: { shape: [{ $size: [] }, { $size: [4] }], dtype: [{ $dtype: 'bool' }, { $dtype: 'float32' }] } },
      { name: 'n', meta: {} },
    ];
    expect(metaShapes(nodes)).toEqual({
      a: { shape: '[2, 3]', dtype: 'float32' },
      out: { shape: '([], [4])', dtype: '(bool, float32)' },
    });
    expect(profileShapes([{ name: 'x', shape: [1, 2], dtype: 'int64' }, { name: 'o' }])).toEqual({ x: { shape: '[1, 2]', dtype: 'int64' } });
  });
});

describe('profile', () => {
  const profile = [
    { op: 'placeholder', name: 'x', target: 'x', shape: [2], dtype: 'float32', ms: 0.5 },
    { op: 'call_function', name: 'add', target: 'operator.add', shape: [2], dtype: 'float32', ms: 1.5 },
    { op: 'output', name: 'output', target: 'output', ms: 0 },
  ];
  test('shares add up, sorting by any column keeps graph order for ties', () => {
    const rows = profileRows(profile);
    expect(rows.map((r) => r.share)).toEqual([0.25, 0.75, 0]);
    expect(rows[0].shape).toBe('[2]');
    expect(sortRows(rows, 'ms', true).map((r) => r.name)).toEqual(['add', 'x', 'output']);
    expect(sortRows(rows, 'name', false).map((r) => r.name)).toEqual(['add', 'output', 'x']);
    expect(sortRows(rows, 'dtype', false).map((r) => r.name)).toEqual(['output', 'x', 'add']);
  });
});

describe('pass comparison', () => {
  test('removed, added and changed rows by node name', () => {
    const before = [['placeholder', 'x'], ['call_function', 'neg', 'torch.neg'], ['call_function', 'add', 'operator.add', '(x, w)']];
    const after = [['placeholder', 'x'], ['get_attr', 'c'], ['call_function', 'add', 'operator.add', '(x, c)']];
    const d = diffRows(before, after);
    expect([...d.removed]).toEqual(['neg']);
    expect([...d.added]).toEqual(['c']);
    expect([...d.changed]).toEqual(['add']);
  });
});
