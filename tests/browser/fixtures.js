// Small .fxw files built in Node with the package's graph-editing API, for the browser tests that need
// a model the bundled examples do not give: dead code and a constant-foldable branch (for the passes),
// and a classifier-shaped output (for top-k).
import * as fxwasm from '../../web/src/index.js';

/**
 * x [1, 4] -> logits [1, 4] = (x + |w|) * 2, plus a dead `neg` of x and `|w|` foldable to a constant.
 * shape_prop records the shapes in the placeholders' meta, so the page can draw random inputs.
 */
export async function passesDemo() {
  const gm = await fxwasm.create();
  gm.addTensor('w', fxwasm.tensor(new Float32Array([1, -2, 3, -4]), [4]), 'parameter');
  const g = gm.graph;
  const x = g.placeholder('x');
  const absW = g.callFunction('torch.abs', [g.getAttr('w')]);
  g.callFunction('torch.neg', [x]); // dead
  const y = g.callFunction('operator.add', [x, absW]);
  g.output(g.callFunction('operator.mul', [y, 2]));
  gm.applyPass('shape_prop', { inputs: [fxwasm.tensor(new Float32Array(4), [1, 4])] });
  const bytes = fxwasm.save(gm);
  gm.dispose();
  return bytes;
}

/** Loads .fxw bytes in Node: {nodes: [names], table, run(inputs)} (disposed after `fn`). */
export async function inspect(bytes, fn) {
  const gm = await fxwasm.load(bytes);
  try {
    return await fn(gm, fxwasm);
  } finally {
    gm.dispose();
  }
}

export { fxwasm };
