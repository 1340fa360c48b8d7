// Runs a model on inputs stored as NumPy .npy files and writes its outputs as .npz, as a Node program.
//
//   node examples/node/run_npy.mjs MODEL.fxw NAME=input.npy... [--out outputs.npz]
//
// (Make inputs in Python with `np.save("x.npy", x)`; read outputs with `np.load("outputs.npz")`.)
// With no arguments it runs the seed example (examples/seed/toy_example.fxw) on two .npy files it writes
// to a temporary folder first, so it shows the whole round trip.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as fxwasm from 'fxwasm';

// The seed example ships inside the package (examples/seed/ next to web/): found from where 'fxwasm'
// resolves, in a checkout (its self-reference) and in a project that installed the package alike.
const SEED = path.join(path.dirname(createRequire(import.meta.url).resolve('fxwasm')), '..', '..', 'examples', 'seed', 'toy_example.fxw');

function parseArgs(argv) {
  const args = { model: null, inputs: [], out: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = argv[++i];
    else if (argv[i].includes('=')) args.inputs.push(argv[i].split(/=(.*)/s).slice(0, 2));
    else args.model = argv[i];
  }
  return args;
}

// The demo: the seed example's two inputs, written as .npy files as numpy would write them.
function demo() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-run-npy-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));  // a demo leaves nothing behind
  const a = fxwasm.tensor(Float32Array.from({ length: 10 }, (_, i) => i - 4.5), [10]);
  const b = fxwasm.tensor(new Float32Array(10).fill(-1), [10]);
  fs.writeFileSync(path.join(dir, 'a.npy'), fxwasm.writeNpy(a));
  fs.writeFileSync(path.join(dir, 'b.npy'), fxwasm.writeNpy(b));
  return {
    model: SEED,
    inputs: [['L_a_', path.join(dir, 'a.npy')], ['L_b_', path.join(dir, 'b.npy')]],
    out: path.join(dir, 'outputs.npz'),
  };
}

// Output structure → {output_0: Tensor, …} with numpy-friendly names.
function flatTensors(value, prefix, into) {
  if (value instanceof fxwasm.Tensor) into[prefix] = value;
  else if (Array.isArray(value)) value.forEach((v, i) => flatTensors(v, `${prefix}_${i}`, into));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatTensors(v, `${prefix}_${k}`, into);
  return into;
}

const argv = process.argv.slice(2);
const args = argv.length ? parseArgs(argv) : demo();
if (!args.model) {
  console.error('usage: node run_npy.mjs MODEL.fxw NAME=input.npy... [--out outputs.npz]');
  process.exit(2);
}

try {
  const gm = await fxwasm.load(args.model);
  // Inputs by name ({name: Tensor}); names are placeholder names or their targets (e.g. l_a_ or L_a_).
  const inputs = {};
  for (const [name, file] of args.inputs) inputs[name] = fxwasm.readNpy(new Uint8Array(fs.readFileSync(file)), file);
  console.log(`model ${path.basename(args.model)}: inputs ${gm.inputNames.join(', ')}`);
  for (const [name, t] of Object.entries(inputs)) console.log(`  ${name}: ${t.dtype} [${t.shape}]`);

  const outputs = await gm.run(inputs);
  const tensors = flatTensors(outputs, 'output', {});
  for (const [name, t] of Object.entries(tensors)) {
    const show = (v) => (t.dtype === 'bool' ? String(!!v) : t.dtype === 'int64' ? String(v) : Number(v).toFixed(4));
    console.log(`${name}: ${t.dtype} [${t.shape}] ${Array.from(t.data.slice(0, 6), show).join(' ')}`);
  }
  if (args.out) {
    fs.writeFileSync(args.out, fxwasm.writeNpz(tensors));
    console.log(`wrote ${args.out} (${Object.keys(fxwasm.readNpz(fs.readFileSync(args.out))).join(', ')})`);
  }
  gm.dispose();
} catch (e) {
  if (!(e instanceof fxwasm.FxError)) throw e;
  console.error(`error: ${e.message}${e.node ? ` (node ${e.node})` : ''}`);
  process.exit(2);
}
