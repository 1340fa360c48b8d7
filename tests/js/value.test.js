// The one value dialect (web/src/value.js, docs/format.md §3): JS values encode to the file's JSON, the
// core reads it back, and a run or a reference answers the very JSON the file holds for the same value.
import * as fxwasm from '../../web/src/index.js';
import { encodeValue, decodeValue, FxList } from '../../web/src/value.js';
import { getRuntime } from '../../web/src/runtime.js';
import { stringify } from '../../web/src/json.js';
import { makeFxw } from './helpers.js';

const MODULE = { '': { type: 'torch.nn.modules.module.Module', hparams: {} } };
const PRODUCER = { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' };
// x → output x: a run answers its input.
const IDENTITY = makeFxw({
  producer: PRODUCER,
  nodes: [
    { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {} },
    { op: 'output', name: 'output', target: 'output', args: [{ $node: 'x' }], kwargs: {} },
  ],
  modules: MODULE,
});

// One value of every tag a run value can hold (no tensors, no node references), in JS and in the file.
const EVERY_TAG_JS = [
  null, true, false, -3, 0.5, 1e-5, NaN, Infinity, -Infinity, 'str', [], [1, [2]], fxwasm.list([1, 'a']),
  { b: 1, a: [null] }, { $dtype: 'float16' }, { $device: 'cpu' }, { $memory_format: 'channels_last' },
  { $layout: 'strided' }, { $slice: [null, -1, 2] }, { $ellipsis: null }, { $t: 1 },
];
const EVERY_TAG_FILE = [
  null, true, false, -3, 0.5, 1e-5, { $float: 'nan' }, { $float: 'inf' }, { $float: '-inf' }, 'str',
  { $tuple: [] }, { $tuple: [1, { $tuple: [2] }] }, [1, 'a'], { $dict: { b: 1, a: { $tuple: [null] } } },
  { $dtype: 'float16' }, { $device: 'cpu' }, { $memory_format: 'channels_last' }, { $layout: 'strided' },
  { $slice: [null, -1, 2] }, { $ellipsis: null }, { $dict: { $t: 1 } },
];

test('the JS encoder writes the file dialect', () => {
  expect(encodeValue(EVERY_TAG_JS)).toEqual({ $tuple: EVERY_TAG_FILE });
  expect(encodeValue(fxwasm.float(2))).toEqual({ $float: 2 });
  expect(encodeValue(new fxwasm.Tensor(new Float32Array(2), [2], 'float32'), { tensor: (t) => t.shape }))
    .toEqual({ $tensor: [2] });
  expect(() => encodeValue([fxwasm.tensor(new Float32Array(1), [1])], { where: 'args[0]' }))
    .toThrow(/^args\[0\]\[0\]: a Tensor cannot be a graph value/);
  expect(() => encodeValue({ k: new Float32Array(2) }, { where: 'input #0' }))
    .toThrow('input #0.k: a bare Float32Array has no shape; wrap it with fxwasm.tensor(data, shape)');
});

test('the JS decoder reads the file dialect', () => {
  const back = decodeValue({ $tuple: EVERY_TAG_FILE });
  expect(back).toEqual(EVERY_TAG_JS.map((v) => (v instanceof FxList ? Array.from(v) : v)));
  expect(back[12]).not.toBeInstanceOf(FxList);
  expect(decodeValue([1], { List: FxList })).toBeInstanceOf(FxList);
  expect(decodeValue({ $float: 2 })).toBe(2);
  expect(decodeValue({ $size: [{ $node: 'x' }, 3] }, { node: (n) => `node ${n}` })).toEqual({ $size: ['node x', 3] });
  expect(decodeValue({ $tensor: 'w' }, { tensor: (name) => `tensor ${name}` })).toBe('tensor w');
  expect(() => decodeValue({ $tensor: 'w' })).toThrow(fxwasm.FxError);
  expect(() => decodeValue({ $node: 'x' })).toThrow(fxwasm.FxError);
});

test('every tag round-trips through JS and the core', async () => {
  const gm = await fxwasm.load(IDENTITY);
  const t = fxwasm.tensor(new Int32Array([1, -2, 3]), [3]);
  const out = await gm.run([[t, ...EVERY_TAG_JS, { $size: [2, 3] }, fxwasm.float(2), { k: t }]]);
  const n = EVERY_TAG_JS.length;
  expect(out[0]).toBeInstanceOf(fxwasm.Tensor);
  expect(Array.from(out[0].data)).toEqual([1, -2, 3]);
  expect(out.slice(1, n + 1)).toEqual(EVERY_TAG_JS.map((v) => (v instanceof FxList ? Array.from(v) : v)));
  expect(out[n + 1]).toEqual([2, 3]);  // torch.Size is a tuple at run time
  expect(out[n + 2]).toBe(2);
  expect(out[n + 3].k.dtype).toBe('int32');
  gm.dispose();
});

test('a run answers the JSON the file holds for the same value', async () => {
  const rt = await getRuntime();
  const gm = await fxwasm.create();
  const g = gm.graph;
  const x = g.placeholder('x');
  const node = g.callFunction('operator.getitem', [EVERY_TAG_JS, 0]);
  g.output(x);
  // The core's own JSON for the value as a graph argument (as the file writes it) …
  expect(node.raw.args[0]).toEqual({ $tuple: EVERY_TAG_FILE });
  g.eraseNode(node);
  // … is what a run of it answers.
  const { handle } = rt.call('fx_new');
  try {
    rt.call('fx_edit', handle, stringify({ cmd: 'create_node', op: 'placeholder', target: 'x' }));
    rt.call('fx_edit', handle, stringify({ cmd: 'create_node', op: 'output', args: [{ $node: 'x' }] }));
    rt.scratch(1);
    const reply = rt.call('fx_run', handle, stringify([encodeValue(EVERY_TAG_JS)]), 0, 0, false, false);
    expect(Object.keys(reply)).toEqual(['ok', 'outputs']);
    expect(reply.outputs).toEqual({ $tuple: EVERY_TAG_FILE });
  } finally {
    rt.call('fx_dispose', handle);
    gm.dispose();
  }
});

test('reference values read from the file come back in the same JSON, tensors by reference', async () => {
  const reference = {
    inputs: [{ $tuple: [{ $tensor: '__ref__.in.0.0' }, ...EVERY_TAG_FILE] }],
    outputs: { $dict: { y: [{ $tensor: '__ref__.out.y.0' }, 1] } },
  };
  const f32 = (v) => ({ dtype: 'F32', shape: [v.length], data: new Float32Array(v), kind: 'reference' });
  const bytes = makeFxw({
    producer: PRODUCER,
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {} },
      { op: 'call_function', name: 'getitem', target: 'operator.getitem', args: [{ $node: 'x' }, 0], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $dict: { y: [{ $node: 'getitem' }, 1] } }], kwargs: {} },
    ],
    modules: MODULE,
    reference,
  }, { '__ref__.in.0.0': f32([1, 2]), '__ref__.out.y.0': f32([1, 2]) });
  const rt = await getRuntime();
  const ptr = rt.copyInput(bytes);
  let handle;
  try {
    ({ handle } = rt.call('fx_load', ptr, bytes.length, 'reference.fxw', false));
  } finally {
    rt.free(ptr);
  }
  try {
    const reply = rt.call('fx_reference', handle);
    // The wire's $tensor body describes heap bytes where the file's names a tensor; all else is equal.
    const names = ['__ref__.in.0.0', '__ref__.out.y.0'];
    const bodies = [];
    const rename = (v) => {
      if (Array.isArray(v)) return v.map(rename);
      if (v === null || typeof v !== 'object') return v;
      if ('$tensor' in v) {
        bodies.push(v.$tensor);
        return { $tensor: names[bodies.length - 1] };
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)]));
    };
    expect({ inputs: rename(reply.inputs), outputs: rename(reply.outputs) }).toEqual(reference);
    expect(bodies.map((b) => [b.dtype, b.shape, b.nbytes])).toEqual([['float32', [2], 8], ['float32', [2], 8]]);
    rt.call('fx_release', handle);
  } finally {
    rt.call('fx_dispose', handle);
  }
});
