// Builds an FX graph from scratch in JavaScript — a two-layer perceptron, y = W2·relu(W1·x + b1) + b2 —
// runs it, checks it against the same arithmetic done in plain JS, and saves it as a .fxw file that the
// CLI, the playground and torch-side tools can open.
//
//   node examples/node/build_graph.mjs [OUT.fxw]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from 'fxwasm';

let out = process.argv[2];
if (!out) {  // no OUT given: a temporary file, removed at exit
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-build-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  out = path.join(dir, 'mlp.fxw');
}
const [IN, HIDDEN, OUT, BATCH] = [4, 8, 3, 2];

// Deterministic "weights" (a small LCG), so every run builds the same model.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const param = (shape) => fxwasm.tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b) }, rand), shape);
const w1 = param([HIDDEN, IN]);
const b1 = param([HIDDEN]);
const w2 = param([OUT, HIDDEN]);
const b2 = param([OUT]);

const gm = await fxwasm.create();
gm.addTensor('w1', w1, 'parameter');
gm.addTensor('b1', b1, 'parameter');
gm.addTensor('w2', w2, 'parameter');
gm.addTensor('b2', b2, 'parameter');

const g = gm.graph;
const x = g.placeholder('x');
const h = g.callFunction('torch.nn.functional.linear', [x, g.getAttr('w1'), g.getAttr('b1')]);
const r = g.callFunction('torch.relu', [h]);
const y = g.callFunction('torch.nn.functional.linear', [r, g.getAttr('w2'), g.getAttr('b2')]);
g.output(y);
g.lint();

console.log(gm.code.trim());
process.stdout.write(gm.printTabular());

// Run it, and do the same sums by hand.
const input = param([BATCH, IN]);
const result = await gm.run({ x: input });
const linear = (a, rows, w, b, n, k) => Array.from({ length: rows * n }, (_, idx) => {
  const i = Math.floor(idx / n);
  const j = idx % n;
  let s = b.data[j];
  for (let t = 0; t < k; t++) s += a[i * k + t] * w.data[j * k + t];
  return s;
});
const hidden = linear(input.data, BATCH, w1, b1, HIDDEN, IN).map((v) => Math.max(0, v));
const expected = linear(hidden, BATCH, w2, b2, OUT, HIDDEN);
const err = Math.max(...expected.map((v, i) => Math.abs(v - result.data[i])));
console.log(`output ${result.dtype} [${result.shape}], max |fxwasm - plain JS| = ${err.toExponential(2)}`);
if (!(err < 1e-5)) {
  console.error('the built graph does not compute y = W2·relu(W1·x + b1) + b2');
  process.exit(1);
}

// Save, load back, and run the loaded copy.
fs.writeFileSync(out, fxwasm.save(gm));
const loaded = await fxwasm.load(out);
const again = await loaded.run([input]);
const same = again.data.every((v, i) => v === result.data[i]);
console.log(`saved ${out} (${fs.statSync(out).size} bytes); reloaded: ${loaded.info().parameters.count} parameters, same output: ${same}`);
if (!same) process.exit(1);
loaded.dispose();
gm.dispose();
