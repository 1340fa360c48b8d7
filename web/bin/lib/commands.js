// The CLI's commands (CONTRACT.md). Each returns its exit code; errors are thrown as FxError and turned
// into `fxwasm: error:` lines by ../fxwasm.js.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { load, FxError, Tensor, writeNpy, writeNpz, profileRuns, groupProfile, chromeTrace } from '../../src/index.js';
import { table, formatNumber, shapeText, preview, leaves, bytesText, jsonLeaf, jsonArg, threadsText, threadsJson } from './format.js';
import { gatherInputs, inputsNote } from './inputs.js';
import { progress } from './progress.js';
import { terminalText, terminalJson } from './terminal.js';

// Text for the terminal, with any control character from the file shown as an escape (terminal.js).
const out = (text) => {
  const t = terminalText(text);
  process.stdout.write(t.endsWith('\n') ? t : `${t}\n`);
};
// JSON for the terminal: parses to the same value, with no raw control character in it.
const outJson = (value, space) => process.stdout.write(`${terminalJson(value, space)}\n`);

// Loads FILE, runs fn, frees the model; errors after loading are prefixed with the file (load errors
// already name it), so every message says where. `inspect`: the views (table, code, info) show a file
// whose ops the runtime cannot all run; run/check/bench fail at load, naming every unsupported op.
async function withModel(file, fn, { inspect = false, threads } = {}) {
  const bar = progress(`loading ${file}`);
  let gm;
  try {
    gm = await load(file, { onProgress: (p) => bar.bytes(p), allowUnsupported: inspect, threads });
  } finally {
    bar.done();
  }
  try {
    return await fn(gm);
  } catch (e) {
    if (e instanceof FxError && !e.message.startsWith(`${file}:`)) {
      throw new FxError(`${file}: ${e.message}`, { node: e.node, cause: e });
    }
    throw e;
  } finally {
    gm.dispose();
  }
}

export function tableCommand(file, opts = {}) {
  return withModel(file, (gm) => {
    if (opts.json) {
      const nodes = gm.graph.nodes.map((n) => ({ opcode: n.op, name: n.name, target: n.target,
        args: jsonArg(n.args), kwargs: jsonArg(n.kwargs) }));
      outJson({ nodes, text: gm.printTabular() });
      return 0;
    }
    // print_tabular's text already ends with print()'s newline.
    process.stdout.write(terminalText(gm.printTabular()));
    return 0;
  }, { inspect: true });
}

export function codeCommand(file, opts = {}) {
  return withModel(file, (gm) => {
    if (opts.json) { outJson({ code: gm.code }); return 0; }
    // As Python's print(gm.code): the code, then one newline.
    process.stdout.write(`${terminalText(gm.code)}\n`);
    return 0;
  }, { inspect: true });
}

// "float32 [1, 3]" when the file records them, else what is known.
function tensorDesc(t) {
  if (t.shape == null && t.dtype == null) return 'shape unknown';
  const shape = Array.isArray(t.shape) ? shapeText(t.shape) : t.shape == null ? 'shape unknown' : JSON.stringify(t.shape);
  return `${t.dtype ?? 'dtype unknown'} ${shape}`;
}

function outputDesc(o) {
  const from = o.node ? `node ${o.node}` : o.value;
  return `${o.name} (${from}): ${tensorDesc(o)}`;
}

export function infoCommand(file, opts) {
  return withModel(file, (gm) => {
    const info = gm.info();
    const modules = gm.modules();
    if (opts.json) { outJson({ ...info, modules }, 2); return 0; }
    const counts = Object.entries(info.ops).map(([op, n]) => `${op} ${n}`).join(', ');
    const stats = (s) => `${s.count.toLocaleString('en-US')} elements in ${s.tensors} tensors, ${bytesText(s.bytes)}`;
    const lines = [
      ['file', file],
      ['format', `${info.format} ${info.format_version}`],
      ['producer', `torch ${info.producer.torch || '?'}, exporter ${info.producer.exporter || '?'}, tracer ${info.producer.tracer || '?'}`],
      ['nodes', `${info.nodes} (${counts})`],
      ['inputs', info.inputs.map((i) => `${i.name}: ${tensorDesc(i)}`).join(', ') || 'none'],
      ['outputs', info.outputs.map(outputDesc).join(', ') || 'none'],
      ['parameters', stats(info.parameters)],
      ['buffers', stats(info.buffers)],
      ['reference', info.has_reference ? 'stored (run `fxwasm check`)' : 'none'],
      ['unsupported', info.unsupported.length
        ? info.unsupported.map((u) => `${u.target} (${u.nodes.join(', ')})`).join('; ') : 'none'],
    ];
    out(lines.map(([k, v]) => `${`${k}:`.padEnd(13)}${v}`).join('\n'));
    const targets = Object.entries(info.targets);
    if (targets.length) out(`\n${table(['target', 'count'], targets, { align: [null, 'right'] })}`);
    const tree = Object.entries(modules).filter(([name]) => name !== '');
    if (tree.length) {
      const rows = tree.map(([name, m]) => [name, m.type.split('.').pop(), hparamsText(m.hparams)]);
      out(`\n${table(['module', 'type', 'hyperparameters'], rows)}`);
    }
    return 0;
  }, { inspect: true });
}

// A module's hyperparameters as its repr shows them: in_channels=3, kernel_size=(7, 7), bias=True.
function hparamsText(hparams) {
  const text = (v) => {
    if (Array.isArray(v)) return `(${v.map(text).join(', ')}${v.length === 1 ? ',' : ''})`;
    if (v === null) return 'None';
    if (v === true || v === false) return v ? 'True' : 'False';
    if (typeof v === 'string') return `'${v}'`;
    if (typeof v === 'number') return String(v);
    if (v && typeof v === 'object' && '$dtype' in v) return `torch.${v.$dtype}`;
    return JSON.stringify(v);
  };
  return Object.entries(hparams).map(([k, v]) => `${k}=${text(v)}`).join(', ');
}

// Writes `bytes` to the --out path; a path that cannot be written is a clean error, not an internal one.
// `label` names the path in the message.
function writeOut(path, bytes, label = `--out ${path}`) {
  try {
    fs.writeFileSync(path, bytes);
  } catch (e) {
    const why = { ENOENT: 'no such directory', EACCES: 'permission denied', EISDIR: 'is a directory',
      EROFS: 'read-only file system', ENOSPC: 'no space left on the device' }[e.code] ?? e.message;
    throw new FxError(`${label}: cannot write: ${why}`, { cause: e });
  }
}

// `quantize IN OUT --weights W`: the core rewrites the weights (GraphModule.quantizeWeights), the file is
// written whole (to a temporary name, then renamed, so a failure leaves no half-written OUT).
export async function quantizeCommand(file, outPath, { weights }) {
  const WEIGHTS = ['int8', 'int4', 'fp16', 'fp32'];
  if (!WEIGHTS.includes(weights)) throw new FxError(`--weights must be one of ${WEIGHTS.join(', ')}, not '${weights}'`);
  return withModel(file, (gm) => {
    const counts = gm.quantizeWeights(weights);
    const bytes = gm.save();
    const tmp = `${outPath}.tmp-${process.pid}`;
    writeOut(tmp, bytes, outPath);
    try {
      fs.renameSync(tmp, outPath);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw new FxError(`${outPath}: cannot write: ${e.code === 'EISDIR' ? 'is a directory' : e.message}`, { cause: e });
    }
    const stored = Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ');
    out(`${outPath}: ${bytes.length} bytes (${fs.statSync(file).size} before); tensors stored ${stored || 'none'}`);
    return 0;
  }, { inspect: true });
}

function writeOutputs(path, outputs) {
  const tensors = leaves(outputs).filter(([, v]) => v instanceof Tensor);
  if (path.endsWith('.npy')) {
    if (tensors.length !== 1) throw new FxError(`--out ${path}: the model has ${tensors.length} tensor outputs; use a .npz file`);
    writeOut(path, writeNpy(tensors[0][1]));
    return;
  }
  const named = {};
  for (const [p, t] of tensors) named[`output${p.replace(/\[['"]?([^\]'"]*)['"]?\]/g, '_$1')}`] = t;
  writeOut(path, writeNpz(named));
}

function profileTable(profile, { runs, warmup }) {
  const rows = profile.map((p) => [p.op, p.name, p.target,
    Array.isArray(p.shape) ? shapeText(p.shape) : p.shape == null ? '' : JSON.stringify(p.shape),
    p.dtype ?? '', ...(p.fused_into ? [`fused into ${p.fused_into}`, '', ''] : [p.ms.toFixed(3), p.min_ms.toFixed(3), p.max_ms.toFixed(3)])]);
  const total = profile.reduce((a, p) => a + p.ms, 0);
  return `${table(['opcode', 'name', 'target', 'shape', 'dtype', 'median ms', 'min', 'max'], rows,
    { align: [null, null, null, null, null, 'right', 'right', 'right'] })}\n` +
    `total: ${total.toFixed(3)} ms (per-node medians of ${runs} timed run${runs > 1 ? 's' : ''} after ${warmup} warm-up)`;
}

function groupTable(groups, by) {
  const rows = groups.map((g) => [g.key, g.count, g.total_ms.toFixed(3), g.mean_ms.toFixed(3), `${(g.share * 100).toFixed(1)}%`]);
  return table([by === 'module' ? 'module class' : 'op', 'count', 'total ms', 'mean ms', 'share'], rows,
    { align: [null, 'right', 'right', 'right', 'right'] });
}

/**
 * The k most likely classes of a classifier-shaped output (a float tensor [N, C], C ≥ 2): softmax over
 * row 0; null for any other output. [{class, probability, logit}].
 */
function topK(v, k) {
  if (!(v instanceof Tensor) || v.shape.length !== 2 || v.shape[1] < 2 || !/^float(32|64)$/.test(v.dtype)) return null;
  const row = Array.from(v.data.subarray(0, v.shape[1]), Number);
  let m = -Infinity;
  for (const x of row) if (x > m) m = x;
  const e = row.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return row.map((logit, c) => ({ class: c, probability: e[c] / sum, logit }))
    .sort((a, b) => b.probability - a.probability || a.class - b.class).slice(0, k);
}

export function runCommand(file, opts) {
  return withModel(file, async (gm) => {
    const gathered = gatherInputs(gm, opts);
    const { inputs } = gathered;
    const profiling = Boolean(opts.profile || opts.trace);
    const bar = progress(`running ${file}`);
    bar.status(profiling ? `${opts.warmup} warm-up + ${opts.runs} timed runs…` : '…');
    let outputs;
    let prof = null;
    try {
      if (profiling) {
        prof = await profileRuns(gm, inputs, { runs: opts.runs, warmup: opts.warmup });
        outputs = prof.outputs;
      } else {
        outputs = await gm.run(inputs);
      }
    } finally {
      bar.done();
    }
    if (opts.out) writeOutputs(opts.out, outputs);
    const modules = prof ? gm.modules() : {};
    if (opts.trace) {
      const trace = chromeTrace(prof.runs, { name: `fxwasm ${file}`, modules });
      writeOut(opts.trace, `${JSON.stringify(trace)}\n`, `--trace ${opts.trace}`);
    }
    const flat = leaves(outputs);
    const groups = prof ? groupProfile(prof.profile, modules, opts.group) : null;
    if (opts.json) {
      const json = { outputs: flat.map(([path, v]) => ({ path, ...(v instanceof Tensor ? jsonLeaf(v) : { value: jsonLeaf(v) }) })),
        inputs: gathered.names.map((name, i) => ({ name, source: gathered.sources[i] })), ...threadsJson(gm.threadInfo) };
      if (opts.seed !== undefined) json.seed = opts.seed;
      if (opts.topk) json.topk = flat.map(([path, v]) => ({ path, classes: topK(v, opts.topk) })).filter((t) => t.classes);
      if (opts.profile) {
        Object.assign(json, { profile: prof.profile, profile_runs: opts.runs, profile_warmup: opts.warmup, profile_groups: groups });
      }
      outJson(json);
      return 0;
    }
    out(table(['output', 'dtype', 'shape', 'values'], flat.map(([path, v]) => (v instanceof Tensor
      ? [path || '(output)', v.dtype, shapeText(v.shape), preview(v)]
      : [path || '(output)', typeof v, '', typeof v === 'number' ? formatNumber(v) : JSON.stringify(v)]))));
    if (opts.topk) {
      for (const [p, v] of flat) {
        const top = topK(v, opts.topk);
        if (!top) continue;
        out(`\ntop-${top.length} of ${p || '(output)'} (softmax of row 0):`);
        out(table(['class', 'probability', 'logit'], top.map((t) => [t.class, t.probability.toFixed(4), formatNumber(t.logit)]),
          { align: ['right', 'right', 'right'] }));
      }
    }
    out(`\n${inputsNote(gathered, opts.seed)}`);
    out(`ran on ${threadsText(gm.threadInfo)}`);
    if (opts.profile) {
      out(`\n${profileTable(prof.profile, opts)}`);
      out(`\n${groupTable(groups, opts.group)}`);
    }
    if (opts.trace) out(`\nwrote ${opts.trace} (Chrome trace: open it in https://ui.perfetto.dev)`);
    if (opts.out) out(`\nwrote ${opts.out}`);
    return 0;
  }, { threads: opts.threads });
}

export function checkCommand(file, opts) {
  return withModel(file, async (gm) => {
    const bar = progress(`checking ${file}`);
    bar.status('running the reference inputs…');
    let report;
    try {
      report = await gm.check({ rtol: opts.rtol, atol: opts.atol, equalNan: !!opts.equalNan });
    } finally {
      bar.done();
    }
    const threads = gm.threadInfo;
    if (opts.json) report = { ...report, ...threadsJson(threads) };
    if (report.status === 'no_reference') {
      if (opts.json) outJson(report);
      else process.stderr.write(terminalText(`fxwasm: ${file} stores no reference inputs/outputs (export with reference=True)\n`));
      return 3;
    }
    if (opts.json) { outJson(report); return report.status === 'pass' ? 0 : 1; }
    out(table(['output', 'shape/value', 'max abs err', 'max rel err', 'mismatched', 'result'],
      report.outputs.map((o) => [o.path || '(output)', o.expected, formatNumber(o.max_abs), formatNumber(o.max_rel),
        `${o.mismatched}/${o.numel}`, o.pass ? 'ok' : `FAIL${o.message ? `: ${o.message}` : ''}`])));
    out(`check: ${report.status === 'pass' ? 'pass' : 'FAIL'} (rtol ${report.rtol}, atol ${report.atol}${report.equal_nan ? ', NaN equal to NaN' : ''})`);
    // Said when the threads differ from what was asked (the outputs do not depend on them).
    if (threads.reason) out(`ran on ${threadsText(threads)}`);
    return report.status === 'pass' ? 0 : 1;
  }, { threads: opts.threads });
}

export function benchCommand(file, opts) {
  return withModel(file, async (gm) => {
    const { inputs } = gatherInputs(gm, opts);
    const bar = progress(`bench ${file}`);
    const total = opts.warmup + opts.runs;
    const times = [];
    try {
      for (let i = 0; i < opts.warmup; i++) {
        bar.steps(i, total);
        gm.runSync(inputs);
      }
      for (let i = 0; i < opts.runs; i++) {
        bar.steps(opts.warmup + i, total);
        const t0 = performance.now();
        gm.runSync(inputs);
        times.push(performance.now() - t0);
      }
    } finally {
      bar.done();
    }
    const sorted = [...times].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    // The threads that ran and, when fewer (or more) than asked, why: said, not silent.
    const threads = gm.threadInfo;
    const stats = { runs: opts.runs, warmup: opts.warmup, ...threadsJson(threads), min_ms: sorted[0], median_ms: median,
      max_ms: sorted[sorted.length - 1], mean_ms: times.reduce((a, b) => a + b, 0) / times.length, times_ms: times };
    const memory = gm.runMemory();  // the runtime's tensor arena after the last run
    stats.peak_bytes = memory.peak_bytes;
    stats.arena_bytes = memory.arena_bytes;
    if (opts.json) { outJson(stats); return 0; }
    out(`${file}: ${opts.runs} runs after ${opts.warmup} warm-up, ${threadsText(threads)}`);
    out(`min ${stats.min_ms.toFixed(3)} ms  median ${stats.median_ms.toFixed(3)} ms  max ${stats.max_ms.toFixed(3)} ms`);
    const mb = (b) => (b / 1e6).toFixed(2);
    out(`tensor memory: peak ${mb(stats.peak_bytes)} MB in a run, arena ${mb(stats.arena_bytes)} MB`);
    return 0;
  }, { threads: opts.threads });
}
