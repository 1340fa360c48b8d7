// Profiles to trust: warm-up and N timed runs with the per-node median (profileRuns, `run --profile
// --runs N --warmup N`), sums by op type / module class (groupProfile, key_averages' shape), and the
// timed runs as a Chrome trace (`--trace out.json`), checked by parsing the file as Perfetto would read it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, ROOT, TOY } from './helpers.js';

const DIGITS = path.join(ROOT, 'examples', 'digits_cnn', 'digits_cnn.fxw');

let tmp;
beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-profile-')); });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FXWASM_DEBUG: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const entry = (name, op, target, ms) => ({ name, op, target, shape: [1], dtype: 'float32', result: '', ms });

describe('median, groups and trace (pure)', () => {
  test('medianProfile takes each node\'s median over runs', () => {
    const runs = [[entry('a', 'placeholder', 'a', 0.1), entry('b', 'call_function', 'torch.relu', 9)],
      [entry('a', 'placeholder', 'a', 0.3), entry('b', 'call_function', 'torch.relu', 1)],
      [entry('a', 'placeholder', 'a', 0.2), entry('b', 'call_function', 'torch.relu', 2)]];
    const m = fxwasm.medianProfile(runs);
    expect(m.map((p) => [p.name, p.ms, p.min_ms, p.max_ms])).toEqual([['a', 0.2, 0.1, 0.3], ['b', 2, 1, 9]]);
    expect(m[1].runs_ms).toEqual([9, 1, 2]);
    expect(() => fxwasm.medianProfile([runs[0], runs[1].slice(0, 1)])).toThrow(/node 1 is 'undefined', not 'b'/);
    expect(() => fxwasm.medianProfile([runs[0], [runs[0][1], runs[0][0]]])).toThrow(/different graphs/);
    expect(fxwasm.medianProfile([[entry('a', 'output', 'output', 1)], [entry('a', 'output', 'output', 3)]])[0].ms).toBe(2);
  });

  test('groupProfile sums by op type or module class, slowest first', () => {
    const modules = { c1: { type: 'torch.nn.modules.conv.Conv2d', hparams: {} }, c2: { type: 'torch.nn.modules.conv.Conv2d', hparams: {} } };
    const p = [entry('x', 'placeholder', 'x', 0), entry('c1', 'call_module', 'c1', 3), entry('r', 'call_function', 'torch.relu', 1),
      entry('c2', 'call_module', 'c2', 5), entry('v', 'call_method', 'view', 1), entry('output', 'output', 'output', 0)];
    expect(fxwasm.groupProfile(p, modules).map((g) => [g.key, g.count, g.total_ms, g.mean_ms, g.share])).toEqual([
      ['Conv2d', 2, 8, 4, 0.8], ['.view', 1, 1, 1, 0.1], ['torch.relu', 1, 1, 1, 0.1], ['output', 1, 0, 0, 0], ['placeholder', 1, 0, 0, 0]]);
    expect(fxwasm.groupProfile(p, modules, 'module').map((g) => [g.key, g.count])).toEqual([
      ['Conv2d', 2], ['call_function', 1], ['call_method', 1], ['output', 1], ['placeholder', 1]]);
    expect(() => fxwasm.groupProfile(p, modules, 'nope')).toThrow(/'op' or 'module'/);
  });

  test('chromeTrace lays each run\'s nodes end to end as X events in µs', () => {
    const runs = [[entry('a', 'call_function', 'torch.relu', 0.5), entry('b', 'call_function', 'torch.neg', 0.25)],
      [entry('a', 'call_function', 'torch.relu', 1), entry('b', 'call_function', 'torch.neg', 2)]];
    const t = fxwasm.chromeTrace(runs, { name: 'm' });
    const xs = t.traceEvents.filter((e) => e.ph === 'X');
    expect(xs.map((e) => [e.name, e.ts, e.dur])).toEqual([
      ['run 1', 0, 750], ['a', 0, 500], ['b', 500, 250], ['run 2', 750, 3000], ['a', 750, 1000], ['b', 1750, 2000]]);
    expect(xs[1]).toMatchObject({ pid: 1, tid: 1, cat: 'torch.relu', args: { op: 'call_function', target: 'torch.relu', shape: [1], dtype: 'float32' } });
  });
});

describe('profileRuns on a real model', () => {
  test('warm-up and timed runs: one profile per run, medians per node, outputs of the last run', async () => {
    const gm = await fxwasm.load(DIGITS);
    try {
      const x = fxwasm.randomTensor([16, 1, 8, 8], 'float32');
      const r = await fxwasm.profileRuns(gm, [x], { runs: 3, warmup: 2 });
      expect(r.runs).toHaveLength(3);
      expect(r.wall_ms).toHaveLength(3);
      const names = Array.from(gm.graph.nodes, (n) => n.name);
      expect(r.profile.map((p) => p.name)).toEqual(names);
      for (const p of r.profile) {
        expect(p.runs_ms).toHaveLength(3);
        const sorted = [...p.runs_ms].sort((a, b) => a - b);
        expect(p.ms).toBe(sorted[1]);
      }
      const plain = await gm.run([x]);
      expect(Array.from(r.outputs.data)).toEqual(Array.from(plain.data));
      await expect(fxwasm.profileRuns(gm, [x], { runs: 0 })).rejects.toThrow(/runs must be an integer ≥ 1/);
    } finally {
      gm.dispose();
    }
  });
});

describe('CLI', () => {
  test('nodes the runtime fused at load are listed with fused_into, their time counted in the fused node', async () => {
    const gm = await fxwasm.load(DIGITS);
    const { profile } = await gm.run(gm.reference().inputs, { profile: true });
    const fused = profile.filter((p) => p.fused_into);
    expect(fused.length).toBeGreaterThan(0);
    for (const p of fused) {
      expect(p.ms).toBe(0);
      const into = profile.find((q) => q.name === p.fused_into);
      expect(into).toBeDefined();
      expect(into.fused_into).toBeUndefined();
      expect(into.op).toBe('call_module');  // the producer as the user's graph has it
    }
    // Every call of the user's graph is listed once.
    const calls = gm.graph.nodes.filter((n) => n.op.startsWith('call_')).map((n) => n.name);
    for (const name of calls) expect(profile.filter((p) => p.name === name)).toHaveLength(1);
    const table = cli('run', DIGITS, '--profile', '--runs', '1', '--warmup', '0');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`fused into ${fused[0].fused_into}`);
    gm.dispose();
  });

  test('run --profile --runs 4 --warmup 2 --json: medians of four runs, groups by module class', () => {
    const r = cli('run', DIGITS, '--profile', '--runs', '4', '--warmup', '2', '--group', 'module', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ profile_runs: 4, profile_warmup: 2 });
    for (const p of j.profile) expect(p.runs_ms).toHaveLength(4);
    const conv = j.profile_groups.find((g) => g.key === 'Conv2d');
    expect(conv.count).toBe(2);
    const convMs = j.profile.filter((p) => p.op === 'call_module' && /conv/.test(p.target)).reduce((a, p) => a + p.ms, 0);
    expect(conv.total_ms).toBeCloseTo(convMs, 9);
    expect(j.profile_groups.reduce((a, g) => a + g.share, 0)).toBeCloseTo(1, 6);
  });

  test('--trace writes a Chrome trace: traceEvents of X events with ts/dur in µs, pid/tid, name, args', () => {
    const out = path.join(tmp, 'trace.json');
    const r = cli('run', TOY, '--trace', out, '--runs', '3', '--warmup', '1');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote .*trace\.json \(Chrome trace/);
    const trace = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(Array.isArray(trace.traceEvents)).toBe(true);
    const xs = trace.traceEvents.filter((e) => e.ph === 'X');
    const runs = xs.filter((e) => e.cat === 'run');
    expect(runs.map((e) => e.name)).toEqual(['run 1', 'run 2', 'run 3']);
    const nodes = xs.filter((e) => e.cat !== 'run');
    expect(nodes).toHaveLength(3 * 8);
    for (const e of xs) {
      expect(Number.isFinite(e.ts) && e.ts >= 0).toBe(true);
      expect(Number.isFinite(e.dur) && e.dur >= 0).toBe(true);
      expect(e).toMatchObject({ pid: 1, tid: 1 });
      expect(typeof e.name).toBe('string');
    }
    // Each run's events nest inside it and follow one another.
    for (const run of runs) {
      const inside = nodes.filter((e) => e.ts >= run.ts && e.ts + e.dur <= run.ts + run.dur + 1e-3);
      expect(inside).toHaveLength(8);
    }
    expect(nodes[2]).toMatchObject({ name: 'abs_1', args: { op: 'call_function', target: 'torch.abs', shape: [10], dtype: 'float32' } });
    expect(trace.traceEvents.find((e) => e.ph === 'M' && e.name === 'process_name').args.name).toMatch(/toy_example/);
  });

  test('bad values are clean errors', () => {
    for (const [args, re] of [[['--runs', '0'], /--runs/], [['--warmup', '-1'], /--warmup/], [['--group', 'x'], /--group must be 'op' or 'module'/],
      [['--trace', path.join(tmp, 'no', 'dir', 't.json')], /--trace .*t\.json: cannot write: no such directory/]]) {
      const r = cli('run', TOY, '--profile', ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });
});
