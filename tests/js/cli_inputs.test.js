// Reproducible inputs in the CLI: `run` says where its inputs came from (the file's stored reference
// inputs, --random, --input), --seed repeats --random exactly, and --topk K lists a classifier's most
// likely classes (checked against softmax of the output torch stored as the file's reference).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, ROOT, TOY } from './helpers.js';

const DIGITS = path.join(ROOT, 'examples', 'digits_cnn', 'digits_cnn.fxw');

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FXWASM_DEBUG: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('run says when it used the stored reference inputs, and when they were random', () => {
  let r = cli('run', TOY);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^inputs: l_a_, l_b_ from the file's stored reference inputs$/m);
  r = cli('run', TOY, '--random');
  expect(r.stdout).toMatch(/^inputs: l_a_, l_b_ random \(randn for floats, ints 0\.\.9, bools; unseeded: pass --seed N to repeat\)$/m);
  const j = JSON.parse(cli('run', TOY, '--json').stdout);
  expect(j.inputs).toEqual([{ name: 'l_a_', source: 'reference' }, { name: 'l_b_', source: 'reference' }]);
});

test('--seed: the same seed gives the same outputs, another seed others', () => {
  const run = (seed) => JSON.parse(cli('run', TOY, '--random', '--seed', String(seed), '--json').stdout);
  const a = run(7);
  expect(a.seed).toBe(7);
  expect(a.inputs.map((i) => i.source)).toEqual(['random', 'random']);
  expect(run(7).outputs).toEqual(a.outputs);
  expect(run(8).outputs[1].data).not.toEqual(a.outputs[1].data);
  expect(cli('run', TOY, '--random', '--seed', '3').stdout).toMatch(/random \(randn for floats, ints 0\.\.9, bools; seed 3\)/);
  // The CLI's inputs are the package's randomTensor(shape, dtype, seededRandom(seed)): random_inputs.test.js.
  expect(cli('run', TOY, '--random', '--seed', '-1').code).toBe(2);
});

test('--topk K: the most likely classes of a [N, C] output, as softmax of torch\'s stored output says', async () => {
  const r = cli('run', DIGITS, '--topk', '3', '--json');
  expect(r.code).toBe(0);
  const j = JSON.parse(r.stdout);
  expect(j.topk).toHaveLength(1);
  const top = j.topk[0].classes;
  expect(top).toHaveLength(3);
  const gm = await fxwasm.load(DIGITS);
  try {
    const ref = gm.reference().outputs;
    const logits = Array.from((Array.isArray(ref) ? ref[0] : ref).data.subarray(0, 10), Number);
    const m = Math.max(...logits);
    const e = logits.map((x) => Math.exp(x - m));
    const s = e.reduce((a, b) => a + b, 0);
    const expected = e.map((x, c) => ({ c, p: x / s })).sort((a, b) => b.p - a.p).slice(0, 3);
    expect(top.map((t) => t.class)).toEqual(expected.map((t) => t.c));
    top.forEach((t, i) => expect(t.probability).toBeCloseTo(expected[i].p, 4));
  } finally {
    gm.dispose();
  }
  const text = cli('run', DIGITS, '--topk', '2').stdout;
  expect(text).toMatch(/top-2 of \(output\) \(softmax of row 0\):\nclass +probability +logit/);
  expect(cli('run', DIGITS, '--topk', '0').code).toBe(2);
});
