// Inspects a model — what it is (info), its node table (as torch.fx print_tabular), the Python code of its
// forward — then profiles one run: time per node, the slowest nodes first, and time per op target.
//
//   node examples/node/inspect_profile.mjs [MODEL.fxw] [--runs N]
//
// With no model it inspects the seed example (examples/seed/toy_example.fxw). A model using ops this build
// does not have yet is still inspected; the profile then says which ops are missing, and on which nodes.
import path from 'node:path';
import { createRequire } from 'node:module';
import * as fxwasm from 'fxwasm';

// The seed example ships inside the package (examples/seed/ next to web/): found from where 'fxwasm'
// resolves, in a checkout (its self-reference) and in a project that installed the package alike.
const SEED = path.join(path.dirname(createRequire(import.meta.url).resolve('fxwasm')), '..', '..', 'examples', 'seed', 'toy_example.fxw');
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv.splice(runsAt, 2)[1]) : 5;
const model = argv[0] ?? SEED;

let shown = false;
const gm = await fxwasm.load(model, {
  onProgress: ({ loaded, total }) => {  // a percentage on stderr for big models
    if (!total || total < 1 << 24) return;
    process.stderr.write(`\rloading ${Math.round((100 * loaded) / total)}%`);
    shown = true;
  },
});
if (shown) process.stderr.write('\n');
const info = gm.info();
const shape = (t) => (Array.isArray(t.shape) ? `${t.dtype ?? '?'}[${t.shape.join(', ')}]` : 'shape unknown');

console.log(`== ${path.basename(model)}`);
console.log(`format ${info.format} ${info.format_version}; torch ${info.producer.torch ?? '?'}, tracer ${info.producer.tracer ?? '?'}`);
console.log(`${info.nodes} nodes: ${Object.entries(info.ops).map(([op, n]) => `${op} ${n}`).join(', ')}`);
console.log(`inputs:  ${info.inputs.map((i) => `${i.name} ${shape(i)}`).join(', ')}`);
console.log(`outputs: ${info.outputs.map((o) => `${o.name} ${shape(o)}`).join(', ')}`);
console.log(`parameters: ${info.parameters.count} in ${info.parameters.tensors} tensors (${info.parameters.bytes} bytes)`);

console.log('\n== table');
process.stdout.write(gm.printTabular());
console.log('\n== code');
console.log(gm.code.trim());

// Walk the graph: who uses what.
console.log('\n== users');
for (const node of gm.graph) {
  if (node.op !== 'output') console.log(`${node.name.padEnd(16)} → ${node.users.map((u) => u.name).join(', ') || '(unused)'}`);
}

console.log('\n== profile');
if (info.unsupported.length) {
  for (const u of info.unsupported) console.log(`cannot run yet: ${u.target} (nodes ${u.nodes.join(', ')})`);
} else {
  const reference = gm.reference();
  const inputs = reference ? reference.inputs
    : info.inputs.map((p) => fxwasm.randomTensor(p.shape, typeof p.dtype === 'string' ? p.dtype : 'float32'));
  // The first runs are slower (the engine optimizes wasm code after a first call): keep the fastest.
  let best = null;
  for (let i = 0; i < Math.max(1, runs); i++) {
    const { profile } = await gm.run(inputs, { profile: true });
    const total = profile.reduce((a, p) => a + p.ms, 0);
    if (!best || total < best.total) best = { profile, total };
  }
  const rows = [...best.profile].sort((a, b) => b.ms - a.ms);
  console.log(`best of ${runs} runs: ${best.total.toFixed(3)} ms`);
  console.log(`${'node'.padEnd(16)} ${'op'.padEnd(14)} ${'target'.padEnd(28)} ${'shape'.padEnd(16)} ms`);
  for (const p of rows.slice(0, 15)) {
    const s = Array.isArray(p.shape) ? `[${p.shape.join(', ')}]` : '';
    console.log(`${p.name.padEnd(16)} ${p.op.padEnd(14)} ${String(p.target).padEnd(28)} ${s.padEnd(16)} ${p.ms.toFixed(4)}`);
  }
  const byTarget = new Map();
  for (const p of best.profile) byTarget.set(p.target, (byTarget.get(p.target) ?? 0) + p.ms);
  console.log('\nper target:');
  for (const [target, ms] of [...byTarget].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${String(target).padEnd(30)} ${ms.toFixed(4)} ms (${((100 * ms) / best.total || 0).toFixed(1)}%)`);
  }
}
gm.dispose();
