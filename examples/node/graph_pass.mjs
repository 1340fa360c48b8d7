// A graph pass written in JavaScript, the way one writes an FX pass in Python: walk gm.graph, find a
// pattern, insert new nodes, rewire the users, erase the old node, then lint, recompile and check that the
// program still computes the same thing.
//
//   node examples/node/graph_pass.mjs [MODEL.fxw] [--save edited.fxw]
//
// The pass rewrites every division `a / b` into a multiplication by the reciprocal `a * (1.0 / b)`
// (strength reduction: one division per element of b, shared by every use). With no model it edits the
// seed example (examples/seed/toy_example.fxw).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as fxwasm from 'fxwasm';

// The seed example ships inside the package (examples/seed/ next to web/): found from where 'fxwasm'
// resolves, in a checkout (its self-reference) and in a project that installed the package alike.
const SEED = path.join(path.dirname(createRequire(import.meta.url).resolve('fxwasm')), '..', '..', 'examples', 'seed', 'toy_example.fxw');
const argv = process.argv.slice(2);
const saveAt = argv.indexOf('--save');
const savePath = saveAt >= 0 ? argv.splice(saveAt, 2)[1] : null;
const model = argv[0] ?? SEED;

const DIVISIONS = new Set(['operator.truediv', 'torch.div', 'torch.true_divide']);

/** The pass: returns how many divisions it rewrote. */
function divisionToMultiplication(gm) {
  const g = gm.graph;
  let rewritten = 0;
  for (const node of g.nodes) {  // a fresh array: safe to edit the graph while walking it
    if (node.op !== 'call_function' || !DIVISIONS.has(node.target)) continue;
    if (Object.keys(node.kwargs).length) continue;  // e.g. torch.div(..., rounding_mode=...): leave it
    const [a, b] = node.args;
    if (!(b instanceof fxwasm.Node)) continue;  // dividing by a number: nothing to share
    // New nodes go right before the division, in creation order.
    const mul = g.insertingBefore(node, () => {
      const inv = g.callFunction('operator.truediv', [fxwasm.float(1), b]);
      return g.callFunction('operator.mul', [a, inv]);
    });
    node.replaceAllUsesWith(mul);
    g.eraseNode(node);
    rewritten++;
  }
  gm.recompile();  // as in torch: lints the graph (code and run always reflect it here)
  return rewritten;
}

// Max |x - y| over every tensor of two outputs of the same structure.
function maxDiff(x, y) {
  if (x instanceof fxwasm.Tensor) {
    let m = 0;
    for (let i = 0; i < x.data.length; i++) m = Math.max(m, Math.abs(Number(x.data[i]) - Number(y.data[i])));
    return m;
  }
  if (Array.isArray(x)) return Math.max(0, ...x.map((v, i) => maxDiff(v, y[i])));
  if (x && typeof x === 'object') return Math.max(0, ...Object.keys(x).map((k) => maxDiff(x[k], y[k])));
  return x === y ? 0 : Infinity;
}

const gm = await fxwasm.load(model);
const reference = gm.reference();
const inputs = reference ? reference.inputs
  : gm.info().inputs.map((p) => fxwasm.randomTensor(p.shape, p.dtype ?? 'float32'));
const before = await gm.run(inputs);
console.log('--- before ---');
console.log(gm.code.trim());

const n = divisionToMultiplication(gm);
gm.graph.eliminateDeadCode();
console.log(`--- after: ${n} division(s) rewritten ---`);
console.log(gm.code.trim());
process.stdout.write(gm.printTabular());

const after = await gm.run(inputs);
const diff = maxDiff(before, after);
console.log(`max |before - after| = ${diff.toExponential(2)}`);
if (!(diff <= 1e-5)) {
  console.error('the pass changed what the program computes');
  process.exit(1);
}
if (savePath) {
  fs.writeFileSync(savePath, fxwasm.save(gm));
  const again = await fxwasm.load(savePath);
  console.log(`saved ${savePath}: ${again.graph.nodes.length} nodes`);
  again.dispose();
}
gm.dispose();
