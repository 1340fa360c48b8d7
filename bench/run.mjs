#!/usr/bin/env node
// fxwasm against onnxruntime-web and tfjs-backend-wasm on the same models, weights and inputs, in Node.
//
//   npm run bench -- [--models mlp,conv_stack] [--runs N] [--warmup N] [--quick] [--out FILE]
//                    [--budget S] [--no-export] [--no-threads] [--no-gemm] [--fx-threads N] [--browser]
//
// --browser: the transformer workloads (--models decode,encoder) also run in headless Chromium on a
// cross-origin isolated page (bench/lib/browser.mjs), same code, files, variants and rounds, at 1 thread
// (and fxwasm / ORT at N threads when --fx-threads N is given); their tables follow Node's, then
// browser/Node per workload: each engine's browser time over its Node time, and how far fx/ort moved.
//
// Steps: bench/export_onnx.py writes the models (skipped when up to date); each engine loads each model;
// warm-up calls (V8 optimises wasm functions only after their first calls); then N timed rounds, the
// engines taking turns so that a busy machine slows them alike. In a round each engine runs a burst of
// calls lasting at least BURST_MS (one call for a model slower than that) and its sample is the mean of
// the burst's calls after the first: a small model is timed warm, as a program calling it repeatedly
// runs it, not right after another engine has emptied the caches (that first call is kept apart as
// cold_median_ms). Medians of the samples and ratios. Also:
// output errors, the GEMM harness (scripts/bench-gemm.sh), wasm sizes, load time, memory. The results
// go to .cache/bench/results.json (and --out). See docs/benchmarks.md for how to read them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

import { readNpyFile } from './lib/node_io.mjs';
import { fxwasmEngine, fxwasmThreadsEngine, ortEngine, tfjsEngine, wasmFiles } from './lib/engines.mjs';
import { compare, Footnotes, fmtErr, fmtMB, fmtMs, median, summarize, table } from './lib/report.mjs';
import { runGemmBench } from './lib/gemm.mjs';
import { nodeFiles } from './lib/node_io.mjs';
import { TRANSFORMER_WORKLOADS, browserNodeReport, measureTransformers, transformerReport, transformerVariants } from './lib/transformers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, '.cache', 'bench');
const TRANSFORMERS = path.join(CACHE, 'transformers');  // bench/export_transformers.py's folder
const ALL_MODELS = ['elementwise', 'mlp', 'conv_stack', 'decoder_block', 'mobilenet_v2', 'resnet18', ...TRANSFORMER_WORKLOADS];

const { values: argv } = parseArgs({
  options: {
    models: { type: 'string' },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    budget: { type: 'string' },  // seconds of timed calls per model, all engines together
    'no-export': { type: 'boolean', default: false },
    'no-threads': { type: 'boolean', default: false },
    'no-gemm': { type: 'boolean', default: false },
    child: { type: 'string' },    // internal: "ort-threads" runs only the multi-threaded ORT, prints JSON
    threads: { type: 'string' },
    'fx-threads': { type: 'string' },  // fxwasm's threaded engine (default 2)
    browser: { type: 'boolean', default: false },  // the transformer workloads in Chromium too
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (argv.help) {
  const lines = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
  console.log(lines.slice(1, lines.findIndex((l) => l.startsWith('import '))).map((l) => l.replace(/^\/\/ ?/, ''))
    .join('\n').trim());
  process.exit(0);
}

const opts = {
  models: (argv.models ?? ALL_MODELS.join(',')).split(',').filter(Boolean),
  runs: Number(argv.runs ?? (argv.quick ? 3 : 10)),
  warmup: Number(argv.warmup ?? (argv.quick ? 1 : 5)),
  budgetMs: 1000 * Number(argv.budget ?? (argv.quick ? 15 : 60)),
  quick: argv.quick,
};
for (const [k, v] of Object.entries({ runs: opts.runs, warmup: opts.warmup, budget: opts.budgetMs })) {
  if (!Number.isFinite(v) || v < (k === 'warmup' ? 0 : 1)) fail(`--${k} must be a positive number`);
}
const unknown = opts.models.filter((m) => !ALL_MODELS.includes(m));
if (unknown.length) fail(`unknown model(s) ${unknown.join(', ')}; known: ${ALL_MODELS.join(', ')}`);

function fail(message) {
  console.error(`bench: error: ${message}`);
  process.exit(2);
}

const transformersAsked = opts.models.some((m) => TRANSFORMER_WORKLOADS.includes(m));
if (argv.browser && !transformersAsked) fail(`--browser runs the transformer workloads in Chromium: name them in --models (${TRANSFORMER_WORKLOADS.join(', ')})`);

const message = (e) => (e && e.message ? e.message : String(e)).split('\n')[0];
const log = (...a) => { if (!argv.child) console.log(...a); };

// The per-inference models (measureModel) and the transformer workloads (bench/lib/transformers.mjs).
const isTransformer = (name) => TRANSFORMER_WORKLOADS.includes(name);
const modelNames = opts.models.filter((m) => !isTransformer(m));
const transformerNames = opts.models.filter(isTransformer);

// --- models ----------------------------------------------------------------------------------------------
function exportModels(names) {
  const python = (script, args) => {
    const r = spawnSync('bash', [path.join(ROOT, 'scripts/python.sh'), path.join(ROOT, script), ...args],
      { stdio: 'inherit', cwd: ROOT });
    // Models it could not write have no meta.json: their rows say so, the others still run.
    if (r.status !== 0) console.error(`bench: warning: ${script} failed (exit ${r.status})`);
  };
  const plain = names.filter((m) => !isTransformer(m));
  if (plain.length) python('bench/export_onnx.py', ['--models', plain.join(',')]);
  if (names.some(isTransformer)) python('bench/export_transformers.py', []);
}

function readModel(name) {
  const dir = path.join(CACHE, name);
  const metaFile = path.join(dir, 'meta.json');
  if (!fs.existsSync(metaFile)) throw new Error(`${metaFile} is missing: run bench/export_onnx.py`);
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
  const npy = (f) => readNpyFile(path.join(dir, f));
  return { name, dir, meta, inputs: meta.inputs.map((i) => npy(i.file)), expected: npy(meta.output.file).data };
}

// --- one model, every engine -----------------------------------------------------------------------------
async function measureModel(model, engines) {
  const result = { flops: model.meta.flops, parameters: model.meta.parameters, engines: {} };
  const live = [];
  for (const engine of engines) {
    const r = (result.engines[engine.id] = { label: engine.label });
    if (engine.supports && !engine.supports(model)) { r.skipped = 'not written in tfjs ops'; continue; }
    try {
      const p = await engine.prepare(model);
      r.load_ms = p.loadMs;
      Object.assign(r, p.info);
      live.push({ engine, p, r, times: [], cold: [], cpu: 0, wall: 0 });
    } catch (e) {
      r.error = `load: ${message(e)}`;
    }
  }

  const call = async (x) => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    x.out = await x.p.run();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    x.cpu += (cpu.user + cpu.system) / 1000;
    x.wall += ms;
    return ms;
  };
  // One round's burst (see the header): calls until BURST_MS have passed; the sample is the mean of the
  // calls after the first, or the one call when the first took BURST_MS already.
  const BURST_MS = 10;
  const burst = async (x) => {
    const first = await call(x);
    let n = 0, sum = 0;
    for (let spent = first; spent < BURST_MS; ++n) {
      const ms = await call(x);
      sum += ms;
      spent += ms;
    }
    x.cold.push(first);
    return n ? sum / n : first;
  };
  // Warm-up: the first call apart (V8's baseline tier, first allocations), then the rest. V8 moves a wasm
  // function to its optimising tier only once it has run for a while, so a small model needs far more calls
  // than --warmup to get there (the issue measured 5–8 GFLOP/s in the baseline tier against 35–43): the
  // warm-up also lasts at least WARM_MS per engine (up to WARM_CALLS calls), unless --warmup is 0 or 1.
  const WARM_MS = 500, WARM_CALLS = 2000;
  for (const x of live) {
    try {
      x.r.first_ms = await call(x);
      const extra = x.r.first_ms > opts.budgetMs / 4 ? 0 : Math.max(0, opts.warmup - 1);
      x.warm = x.r.first_ms;
      let calls = 1, spent = x.r.first_ms;
      for (; calls < 1 + extra || (extra > 0 && spent < WARM_MS && calls < WARM_CALLS); ++calls) {
        x.warm = await call(x);
        spent += x.warm;
      }
      x.r.warmup = calls;
    } catch (e) {
      x.r.error = `run: ${message(e)}`;
      x.dead = true;
    }
    if (x.engine.id === 'fxwasm') result.fxwasm_heap_bytes = await fxwasmEngine.heapBytes();
  }
  let alive = live.filter((x) => !x.dead);
  const perRound = alive.reduce((s, x) => s + Math.max(x.warm, BURST_MS), 0);
  const runs = Math.min(opts.runs, Math.max(3, Math.floor(opts.budgetMs / Math.max(perRound, 1e-3))));
  result.runs = alive.length ? runs : 0;
  for (const x of alive) x.cpu = x.wall = 0;
  for (let i = 0; i < runs; ++i) {
    for (let j = 0; j < alive.length; ++j) {
      const x = alive[(i + j) % alive.length];  // rotate who goes first
      try {
        x.times.push(await burst(x));
      } catch (e) {
        x.r.error = `run ${i + 1}: ${message(e)}`;
        x.dead = true;
      }
    }
    alive = alive.filter((x) => !x.dead);
  }

  const fx = live.find((x) => x.engine.id === 'fxwasm' && !x.dead);
  const asTorch = (x) => (x.p.toTorchLayout ? x.p.toTorchLayout(x.out) : x.out);
  for (const x of live) {
    if (x.dead) continue;
    Object.assign(x.r, summarize(x.times));
    x.r.cpu_per_wall = x.wall ? x.cpu / x.wall : null;
    x.r.cold_median_ms = x.cold.length ? median(x.cold) : null;
    if (model.meta.flops && x.r.median_ms) x.r.gflops = model.meta.flops / x.r.median_ms / 1e6;
    x.r.vs_torch = compare(asTorch(x), model.expected);
    if (fx && x !== fx) x.r.vs_fxwasm = compare(asTorch(x), fx.out);
  }
  // Paired ratios (call i of fxwasm against call i of the other engine, same moment of machine load).
  for (const x of live) {
    if (!fx || x === fx || x.dead || !x.times.length) continue;
    const n = Math.min(fx.times.length, x.times.length);
    x.r.paired_ratio_fxwasm = median(Array.from({ length: n }, (_, i) => fx.times[i] / x.times[i]));
  }
  for (const x of live) {
    try {
      if (x.p.memory) x.r.memory = x.p.memory();  // fxwasm: peak tensor bytes of a run, arena size
    } catch { /* no figure: the cells show — */ }
    try { x.p.dispose(); } catch { /* a failed dispose does not change the numbers */ }
  }
  result.rss_bytes = process.memoryUsage().rss;
  return result;
}

async function initEngines(engines, first) {
  const init = {};
  for (const e of engines) {
    try {
      init[e.id] = (await e.init(first)).initMs;
    } catch (err) {
      init[e.id] = { error: message(err) };
    }
  }
  return init;
}

async function measureAll(engines) {
  const models = {};
  const loaded = [];
  for (const name of modelNames) {
    try {
      loaded.push(readModel(name));
    } catch (e) {
      models[name] = { error: message(e), engines: {} };
    }
  }
  const init = loaded.length ? await initEngines(engines, loaded[0]) : {};
  for (const model of loaded) {
    log(`… ${model.name}`);
    models[model.name] = await measureModel(model, engines);
  }
  return { init, models };
}

// --- ORT with threads, in a child process (ORT reads numThreads once per process) -------------------------
function runThreadedOrt(threads) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', 'ort-threads',
    '--threads', String(threads), '--models', opts.models.join(','), '--runs', String(opts.runs),
    '--warmup', String(opts.warmup), '--budget', String(opts.budgetMs / 1000), '--no-export'],
  { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const lines = (r.stdout || '').trim().split('\n');
  try {
    return JSON.parse(lines[lines.length - 1]);
  } catch {
    return { error: `child exited ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}` };
  }
}

// --- report ----------------------------------------------------------------------------------------------
function printReport(res) {
  const notes = new Footnotes();
  const ortT = res.ort_threads && !res.ort_threads.error ? `ort_${res.ort_threads.threads}t` : null;
  const cellMs = (r) => {
    if (!r) return '—';
    if (r.error) return notes.cell(r.error);
    if (r.skipped) return 'n/a';
    return fmtMs(r.median_ms);
  };
  const ratio = (a, b) => (a?.median_ms && b?.median_ms ? (a.median_ms / b.median_ms).toFixed(2) : '—');
  const speedRows = [];
  const errRows = [];
  const loadRows = [];
  for (const [name, m] of Object.entries(res.models)) {
    if (m.error) { speedRows.push([name, notes.cell(m.error)]); continue; }
    const e = m.engines;
    const fxT = Object.keys(e).find((k) => /^fxwasm_\d+t$/.test(k));
    speedRows.push([name, m.flops ? (m.flops / 1e9).toPrecision(2) : '—', m.runs, cellMs(e.fxwasm),
      fxT ? cellMs(e[fxT]) : '—', fxT ? ratio(e.fxwasm, e[fxT]) : '—', cellMs(e.ort),
      ortT ? cellMs(e[ortT]) : '—', cellMs(e.tfjs), ratio(e.fxwasm, e.ort), ratio(e.fxwasm, e.tfjs),
      e.fxwasm?.gflops ? e.fxwasm.gflops.toFixed(1) : '—',
      e.ort?.gflops ? e.ort.gflops.toFixed(1) : '—']);
    errRows.push([name, fmtErr(e.ort?.vs_fxwasm), fmtErr(e.tfjs?.vs_fxwasm), fmtErr(e.fxwasm?.vs_torch),
      fmtErr(e.ort?.vs_torch), ortT ? fmtErr(e[ortT]?.vs_torch) : '—', fmtErr(e.tfjs?.vs_torch)]);
    const fx = e.fxwasm || {};
    loadRows.push([name, fmtMB(fx.fileBytes), fmtMs(fx.readMs), fmtMs(fx.copy_median_ms), fmtMs(fx.memcpy_median_ms),
      fmtMs(fx.load_ms), fmtMs(fx.load_median_ms),
      fx.load_median_ms && fx.copy_median_ms ? (fx.load_median_ms / fx.copy_median_ms).toFixed(2) : '—',
      fx.load_median_ms && fx.memcpy_median_ms ? (fx.load_median_ms / fx.memcpy_median_ms).toFixed(2) : '—',
      fmtMs(fx.first_ms),
      fmtMs(e.ort?.load_ms), fmtMs(e.ort?.first_ms), fmtMs(e.tfjs?.load_ms), fmtMB(fx.memory?.peak_bytes),
      fmtMB(fx.memory?.arena_bytes), fmtMB(m.fxwasm_heap_bytes), fmtMB(m.rss_bytes)]);
  }
  const out = [];
  out.push(`fxwasm benchmark — Node ${process.version}, ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, ` +
    `load average ${res.loadavg.map((x) => x.toFixed(1)).join(' ')}`);
  if (speedRows.length) {  // the per-inference models' method (the transformer report describes its own)
    out.push(`median of up to ${opts.runs} timed rounds after ${opts.warmup} warm-up call(s) (and at least 0.5 s of them), engines taking turns round by round; a round's sample: the mean of a burst of calls lasting at least 10 ms, its first call apart` +
      `${ortT ? `; ort-web with ${res.ort_threads.threads} threads ran afterwards in a child process` +
        ` (OS threads ${res.ort_threads.os_threads_before} -> ${res.ort_threads.os_threads_after})` : ''}`);
  }
  out.push('');
  if (speedRows.length) {
    out.push('Time per inference (ms, median; ratio > 1: fxwasm slower)');
    out.push(table(['model', 'GFLOP', 'runs', 'fxwasm 1t', 'fxwasm mt', 'mt speed-up', 'ort-web 1t', ortT ? `ort-web ${res.ort_threads.threads}t` : 'ort-web mt',
      'tfjs-wasm', 'fxwasm/ort', 'fxwasm/tfjs', 'fxwasm GFLOP/s', 'ort GFLOP/s'], speedRows));
    out.push('');
    out.push('Output error, max abs / max rel (rel = max abs / max |reference|)');
    out.push(table(['model', 'ort vs fxwasm', 'tfjs vs fxwasm', 'fxwasm vs torch', 'ort vs torch',
      ortT ? 'ort mt vs torch' : 'ort mt', 'tfjs vs torch'], errRows));
    out.push('');
    out.push('Load and memory (fxwasm unless named; ms; MB)');
    out.push(table(['model', '.fxw MB', 'read file', 'copy bytes', 'memcpy', 'fxwasm 1st load', 'fxwasm load', 'load/copy',
      'load/memcpy', 'fxwasm 1st run',
      'ort create', 'ort 1st run', 'tfjs setup', 'run peak', 'arena', 'wasm heap', 'process RSS'], loadRows));
    out.push('');
  }
  if (res.transformers) {
    out.push(transformerReport(res.transformers, { table, fmtMs, fmtMB, notes }));
    out.push('');
  }
  if (res.browser?.error) {
    out.push(`In headless Chromium: ${res.browser.error}`);
    out.push('');
  } else if (res.browser) {
    const env = res.browser.environment;
    out.push(`In headless Chromium ${env.chromium} (${env.crossOriginIsolated ? 'cross-origin isolated' : 'NOT cross-origin isolated'}, ` +
      `hardwareConcurrency ${env.hardwareConcurrency}; bench/lib/browser.mjs): the same workloads, files, variants and rounds`);
    out.push('');
    out.push(transformerReport(res.browser.transformers, { table, fmtMs, fmtMB, notes }));
    out.push('');
    const cmp = browserNodeReport(res.transformers, res.browser.transformers, { table, fmtMs });
    if (cmp) { out.push(cmp); out.push(''); }
  }
  const g = res.gemm;
  if (g?.error) out.push(`GEMM 64x784x1024 (f32, SIMD128, 1 thread): ${g.error}`);
  else if (g) {
    out.push(`GEMM 64x784x1024 (f32, ukernel ${g.ukernel}, 1 thread, after warm-up): ${g.prepacked_median} GFLOP/s median, ` +
      `${g.prepacked_best} best (prepacked B; first call ${g.prepacked_first}); f32_gemm_bt ${g.bt_median} / ${g.bt_best}`);
  }
  const sizes = Object.entries(res.wasm).map(([k, v]) => (v.error ? `${k} ${v.error}`
    : `${k} ${fmtMB(v.bytes)} MB (gzip ${fmtMB(v.gzip_bytes)})`));
  out.push(`wasm binaries: ${sizes.join(', ')}`);
  const init = Object.entries(res.init).map(([k, v]) => `${k} ${typeof v === 'number' ? fmtMs(v) + ' ms' : v.error}`);
  if (init.length) out.push(`engine start-up (wasm compile + instantiate; ort: its first session): ${init.join(', ')}`);
  out.push(`peak process RSS ${fmtMB(res.peak_rss_bytes)} MB (all engines in one process)`);
  if (notes.notes.length) { out.push(''); out.push(notes.text()); }
  return out.join('\n');
}

// --- main ------------------------------------------------------------------------------------------------
async function childMain() {
  const threads = Number(argv.threads ?? 2);
  const engine = ortEngine(threads);
  const osThreads = () => { try { return fs.readdirSync('/proc/self/task').length; } catch { return null; } };
  const before = osThreads();
  const res = await measureAll([engine]);
  if (transformerNames.length) {
    res.transformers = await measureTransformers(nodeFiles(TRANSFORMERS), transformerNames,
      transformerVariants({ fxThreads: [], ortThreads: threads }), { rounds: transformerRounds() });
  }
  // Evidence that ORT really ran workers: Linux lists one task per OS thread.
  res.os_threads_before = before;
  res.os_threads_after = osThreads();
  // Only the summary: the parent merges it into its own results.
  process.stdout.write(`${JSON.stringify({ threads, ...res })}\n`);
  process.exit(0);  // ORT's worker threads would keep the process alive
}

// Decode rounds (each: both prompts and their steps, every variant in turn) and encoder calls per variant.
function transformerRounds() { return opts.quick ? 1 : 3; }

async function main() {
  if (!argv['no-export']) exportModels(opts.models);
  const started = new Date().toISOString();
  // fxwasm with 2 kernel threads (the pthreads build) next to 1, unless --no-threads.
  const fxThreads = Number(argv['fx-threads'] ?? 2);
  const engines = [fxwasmEngine, ...(argv['no-threads'] ? [] : [fxwasmThreadsEngine(fxThreads)]), ortEngine(1), tfjsEngine];
  const { init, models } = await measureAll(engines);
  const res = { started, node: process.version, cpus: os.cpus().length, options: opts, init, models };
  if (transformerNames.length) {
    res.transformers = await measureTransformers(nodeFiles(TRANSFORMERS), transformerNames,
      transformerVariants({ fxThreads: argv['no-threads'] ? [1] : [1, fxThreads], ortThreads: 1 }),
      { rounds: transformerRounds(), log });
  }

  const threads = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  if (!argv['no-threads'] && !opts.quick && threads > 1) {
    log(`… onnxruntime-web with ${threads} threads (child process)`);
    const child = runThreadedOrt(threads);
    res.ort_threads = child.error ? { error: child.error } : { threads: child.threads, init: child.init,
      os_threads_before: child.os_threads_before, os_threads_after: child.os_threads_after };
    for (const [name, m] of Object.entries(child.models ?? {})) {
      if (res.models[name]?.engines) res.models[name].engines[`ort_${child.threads}t`] = m.engines[`ort_${child.threads}t`];
    }
    for (const w of TRANSFORMER_WORKLOADS) {
      if (res.transformers?.[w] && child.transformers?.[w]) Object.assign(res.transformers[w].variants, child.transformers[w].variants);
    }
  }
  if (argv.browser) {
    // One thread by default, as for Node's 1-thread tables; with an explicit --fx-threads N, fxwasm at N too
    // and ORT at N in a second page (ORT reads its thread count once per page).
    const n = argv['fx-threads'] && !argv['no-threads'] ? fxThreads : null;
    const pages = [transformerVariants({ fxThreads: n ? [1, n] : [1], ortThreads: 1 }),
      ...(n ? [transformerVariants({ fxThreads: [], ortThreads: n })] : [])];
    log('… the transformer workloads in headless Chromium (bench/lib/browser.mjs)');
    try {
      const { measureTransformersInBrowser } = await import('./lib/browser.mjs');
      res.browser = await measureTransformersInBrowser(ROOT, transformerNames, pages, { rounds: transformerRounds(), log });
    } catch (e) {
      res.browser = { error: message(e) };
    }
  }
  if (!argv['no-gemm']) {
    log('… GEMM harness (scripts/bench-gemm.sh)');
    res.gemm = runGemmBench(ROOT);
  }
  res.wasm = {};
  for (const [k, f] of Object.entries(wasmFiles(ROOT))) {
    try {
      const b = fs.readFileSync(f);
      res.wasm[k] = { file: path.relative(ROOT, f), bytes: b.byteLength, gzip_bytes: zlib.gzipSync(b).byteLength };
    } catch (e) {
      res.wasm[k] = { error: message(e) };
    }
  }
  res.peak_rss_bytes = process.resourceUsage().maxRSS * 1024;
  res.loadavg = os.loadavg();

  const text = printReport(res);
  console.log(`\n${text}`);
  res.table = text;
  fs.mkdirSync(CACHE, { recursive: true });
  const json = `${JSON.stringify(res, null, 1)}\n`;
  fs.writeFileSync(path.join(CACHE, 'results.json'), json);
  if (argv.out) {
    fs.mkdirSync(path.dirname(path.resolve(argv.out)), { recursive: true });
    fs.writeFileSync(argv.out, json);
  }
  console.log(`\nresults: ${path.relative(process.cwd(), path.join(CACHE, 'results.json'))}${argv.out ? `, ${argv.out}` : ''}`);
  process.exit(0);  // engines' worker threads or timers must not keep Node alive
}

// An engine's stray promise must not end the run: report it and go on.
process.on('unhandledRejection', (e) => console.error(`bench: warning: unhandled rejection: ${message(e)}`));

(argv.child ? childMain() : main()).catch((e) => {
  console.error(`bench: error: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
