// run() returns an exported graph's outputs in the nesting its code rebuilds (torch's out_spec): the unit
// (web/src/output_structure.js) and a file from torch.export in examples/.
import * as fxwasm from '../../web/src/index.js';
import { unflattenOutputs } from '../../web/src/output_structure.js';

test('dicts (ModelOutput fields) and tuples are rebuilt around the flat outputs, in order', () => {
  const flat = ['a', 'b', 'c', 'd'];
  expect(unflattenOutputs(flat, { logits: null, past: [[null, null], null] }))
    .toEqual({ logits: 'a', past: [['b', 'c'], 'd'] });
  expect(Object.keys(unflattenOutputs(flat, { z: null, y: null, x: null, w: null }))).toEqual(['z', 'y', 'x', 'w']);
  expect(unflattenOutputs(['only'], null)).toBe('only');  // one leaf: the value itself, as torch returns it
});

test('no stored structure, or one that no longer fits the outputs (an edited graph): the flat outputs', () => {
  expect(unflattenOutputs(['a', 'b'], undefined)).toEqual(['a', 'b']);
  expect(unflattenOutputs(['a', 'b'], { x: null })).toEqual(['a', 'b']);
  expect(unflattenOutputs('t', { x: null })).toBe('t');
});

test("a torch.export file: info() has the structure and run() returns what torch's module returns", async () => {
  const gm = await fxwasm.load('examples/decoder_block_export/decoder_block_export.fxw');
  try {
    expect(gm.info().output_structure).toBeNull();  // forward returns one tensor
    const out = await gm.run(gm.reference().inputs);
    expect(out).toBeInstanceOf(fxwasm.Tensor);
    expect(out.shape).toEqual([2, 16, 256]);
    const { outputs } = await gm.run(gm.reference().inputs, { profile: true });
    expect(outputs).toBeInstanceOf(fxwasm.Tensor);
  } finally {
    gm.dispose();
  }
});
