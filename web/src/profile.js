// Profiles to trust: one cold run says more about the allocator and the JIT than about the model (gelu
// 26 ms in a first run, 0.3 ms in the next). profileRuns() runs `warmup` untimed times, then `runs`
// profiled times, and reports each node's median; groupProfile() sums them by op type or module class as
// torch.profiler's key_averages() does; chromeTrace() writes the timed runs in the Trace Event format
// (the JSON that chrome://tracing and Perfetto open: "X" complete events, ts/dur in µs).
import { FxError } from './errors.js';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function count(value, name, min) {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new FxError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * The per-node median over several profiles of the same graph: each entry of the first profile with
 * `ms` the median, and `min_ms`, `max_ms`, `runs_ms` (every run's time).
 */
export function medianProfile(profiles) {
  if (!profiles.length) return [];
  return profiles[0].map((p, i) => {
    const times = profiles.map((q) => {
      if (q[i]?.name !== p.name) throw new FxError(`profiles of different graphs: node ${i} is '${q[i]?.name}', not '${p.name}'`);
      return Number(q[i].ms) || 0;
    });
    return { ...p, ms: median(times), min_ms: Math.min(...times), max_ms: Math.max(...times), runs_ms: times };
  });
}

/**
 * Runs `gm` `warmup` times untimed, then `runs` times with the per-node profile. Returns {outputs (of
 * the last run), profile (median per node, see medianProfile), runs (each run's profile), wall_ms (each
 * timed run's wall time)}.
 */
export async function profileRuns(gm, inputs, { runs = 5, warmup = 1 } = {}) {
  count(runs, 'runs', 1);
  count(warmup, 'warmup', 0);
  const now = () => (globalThis.performance ?? Date).now();
  for (let i = 0; i < warmup; i++) await gm.run(inputs);
  const profiles = [];
  const wall = [];
  let outputs;
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    const r = await gm.run(inputs, { profile: true });
    wall.push(now() - t0);
    profiles.push(r.profile);
    outputs = r.outputs;
  }
  return { outputs, profile: medianProfile(profiles), runs: profiles, wall_ms: wall, warmup };
}

/**
 * The key a profile entry is grouped under: by 'op', the call's target (the module class for a
 * call_module, the method name for a call_method); by 'module', the module class for call_modules and
 * the opcode for the rest. `modules`: gm.modules().
 */
export function profileKey(entry, modules = {}, by = 'op') {
  const cls = entry.op === 'call_module' ? String(modules[entry.target]?.type ?? entry.target).split('.').pop() : null;
  if (by === 'module') return cls ?? entry.op;
  if (entry.op === 'call_module') return cls;
  if (entry.op === 'call_method') return `.${entry.target}`;
  if (entry.op === 'call_function') return entry.target;
  return entry.op;
}

/**
 * torch.profiler's key_averages() for a profile: [{key, count, total_ms, mean_ms, share}], slowest first.
 */
export function groupProfile(profile, modules = {}, by = 'op') {
  if (by !== 'op' && by !== 'module') throw new FxError(`group by 'op' or 'module', not ${JSON.stringify(by)}`);
  const total = profile.reduce((a, p) => a + (Number(p.ms) || 0), 0);
  const groups = new Map();
  for (const p of profile) {
    const key = profileKey(p, modules, by);
    const g = groups.get(key) ?? { key, count: 0, total_ms: 0 };
    g.count += 1;
    g.total_ms += Number(p.ms) || 0;
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, mean_ms: g.total_ms / g.count, share: total > 0 ? g.total_ms / total : 0 }))
    .sort((a, b) => b.total_ms - a.total_ms || a.key.localeCompare(b.key));
}

/**
 * The timed runs as a Chrome trace ({traceEvents: [...], displayTimeUnit: 'ms'}): per run, one "X" event
 * spanning it and one per node, laid end to end in graph order (the interpreter runs nodes one after
 * another; the gaps between them are not measured and are left out). ts/dur in µs; pid 1, tid 1.
 */
export function chromeTrace(runs, { name = 'fxwasm', modules = {} } = {}) {
  const us = (ms) => Math.round(ms * 1000 * 1000) / 1000;
  const events = [{ ph: 'M', pid: 1, tid: 1, name: 'process_name', args: { name } },
    { ph: 'M', pid: 1, tid: 1, name: 'thread_name', args: { name: 'interpreter' } }];
  let t = 0;
  runs.forEach((profile, r) => {
    const total = profile.reduce((a, p) => a + (Number(p.ms) || 0), 0);
    events.push({ ph: 'X', pid: 1, tid: 1, name: `run ${r + 1}`, cat: 'run', ts: us(t), dur: us(total), args: { nodes: profile.length } });
    for (const p of profile) {
      const ms = Number(p.ms) || 0;
      events.push({ ph: 'X', pid: 1, tid: 1, name: p.name, cat: profileKey(p, modules, 'op'), ts: us(t), dur: us(ms),
        args: { op: p.op, target: p.target, shape: p.shape ?? null, dtype: p.dtype ?? null } });
      t += ms;
    }
  });
  return { traceEvents: events, displayTimeUnit: 'ms' };
}
