// The transformer workloads of the benchmark (issue #23): greedy decoding with a KV cache and a sentence
// encoder, for fxwasm fp32 / int8 / int4 and onnxruntime-web fp32 / int8 (quantize_dynamic) / q4
// (MatMulNBits), all made from the same torch weights by bench/export_transformers.py.
//
// decode: per variant, a prompt of P tokens (P = 32 and 512) through the `prefill` graph — its time is the
//   first-token latency — then STEPS greedy tokens through the `step` graph, each feeding the grown caches
//   back; the step's median time gives tokens/s. Each engine passes the caches the fastest way its API
//   offers a page: fxwasm keeps them in the runtime (run(..., {resident: true}): no copies, the step's
//   torch.cat appends in place); onnxruntime-web's CPU sessions hand outputs to JS and take inputs from it.
//   Variants take turns round by round. Accuracy, once per variant: the cosine of the first logits after the
//   32-token prompt against torch float32, and how many of torch's 64 greedy tokens it reproduces before the
//   first difference.
// encoder: a BertModel with mean pooling at seq 128; the median time of a call; the cosine of the embedding.
//
// One measuring code path for Node and the browser: this module imports no node: module. Files come
// through an I/O adapter, `io = { bytes(name) -> Promise<Uint8Array>, size(name) -> Promise<number> }`, names
// being paths relative to .cache/bench/transformers/ ('decoder/step_fp32.fxw'): bench/lib/node_io.mjs reads
// them from disk, the page of bench/browser/ fetches them over HTTP (bench/lib/browser.mjs drives it).
// fxwasm is web/src imported relatively (the page is served with the repository's layout); onnxruntime-web is
// the bare 'onnxruntime-web': Node resolves its node build, the page's import map its browser bundle.
import { parseNpy } from './npy.mjs';
import { median } from './report.mjs';

export const TRANSFORMER_WORKLOADS = ['decode', 'encoder'];
const STEPS = 8;

// --- engines: load a file, make token tensors, run, read logits ------------------------------------------
let fx = null, fxRuntime = null, ort = null;

async function fxwasmSession(bytes, threads) {
  fx ??= await import('../../web/src/index.js');
  fxRuntime ??= await import('../../web/src/runtime.js');
  const t0 = performance.now();
  const gm = await fx.load(bytes, { threads });
  return {
    loadMs: performance.now() - t0,
    ids: (arr) => fx.tensor(BigInt64Array.from(arr, BigInt), [1, arr.length], 'int64'),
    tensor: (t) => fx.tensor(t.data, t.shape, t.dtype),
    async run(inputs, { resident = false } = {}) {
      await fxRuntime.getRuntime({ threads });  // the live runtime's thread count is shared: set it per call
      const out = await gm.run(inputs, { resident });
      return Array.isArray(out) ? out : [out];
    },
    data: (t) => t.data,  // a ResidentTensor's data is a copy
    release: (values) => { for (const t of values) t.dispose?.(); },
    peakBytes: () => gm.runMemory().peak_bytes,
    dispose: () => gm.dispose(),
  };
}

async function ortSession(bytes, threads) {
  if (!ort) {
    ort = await import('onnxruntime-web');
    ort.env.logLevel = 'error';
    // Read once per process (per page): other counts run in a child process (another page).
    ort.env.wasm.numThreads = threads;
  }
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  const loadMs = performance.now() - t0;
  const DT = { float32: 'float32', int64: 'int64', int32: 'int32' };
  return {
    loadMs,
    ids: (arr) => new ort.Tensor('int64', BigInt64Array.from(arr, BigInt), [1, arr.length]),
    tensor: (t) => new ort.Tensor(DT[t.dtype], t.data, t.shape),
    async run(inputs) {
      const feeds = Object.fromEntries(session.inputNames.map((n, i) => [n, inputs[i]]));
      const res = await session.run(feeds);
      return session.outputNames.map((n) => res[n]);
    },
    data: (t) => t.data,
    release: () => {},
    peakBytes: () => null,
    dispose: () => session.release(),
  };
}

/** The variants to time: engine × weights × threads. ORT's thread count is per process (see above). */
export function transformerVariants({ fxThreads = [1], ortThreads = 1 } = {}) {
  const v = [];
  for (const t of fxThreads) {
    for (const w of ['fp32', 'int8', 'int4']) v.push({ id: `fxwasm_${w}_${t}t`, engine: 'fxwasm', weights: w, threads: t });
  }
  if (ortThreads) {
    for (const w of ['fp32', 'int8', 'q4']) v.push({ id: `ort_${w}_${ortThreads}t`, engine: 'ort', weights: w, threads: ortThreads });
  }
  return v;
}

/** A session of variant `v` on the file `name` (read through `io` before the load is timed). */
const open = async (io, v, name) => (v.engine === 'fxwasm' ? fxwasmSession : ortSession)(await io.bytes(name), v.threads);
const fileOf = (dir, graph, v) => `${dir}/${graph}_${v.weights}.${v.engine === 'fxwasm' ? 'fxw' : 'onnx'}`;
const readNpy = async (io, name) => parseNpy(await io.bytes(name), name);

function argmax(a) {
  let best = 0;
  for (let i = 1; i < a.length; i++) if (a[i] > a[best]) best = i;
  return best;
}

export function cosine(a, b) {
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) { ab += a[i] * b[i]; aa += a[i] * a[i]; bb += b[i] * b[i]; }
  return ab / Math.sqrt(aa * bb);
}

// --- decode ------------------------------------------------------------------------------------------------
async function openDecoder(io, dir, v) {
  const prefill = await open(io, v, fileOf(dir, 'prefill', v));
  const step = await open(io, v, fileOf(dir, 'step', v));
  return { prefill, step, loadMs: prefill.loadMs + step.loadMs };
}

/** Prefill `prompt` then `steps` greedy tokens: times (ms) of the prefill and of each step, the tokens. */
async function generate(s, prompt, steps) {
  let t0 = performance.now();
  let [logits, ...caches] = await s.prefill.run([s.prefill.ids(prompt)], { resident: true });
  const prefillMs = performance.now() - t0;
  const first = Float32Array.from(s.prefill.data(logits));
  const tokens = [];
  const stepMs = [];
  let pos = prompt.length;
  for (let i = 0; i < steps; i++) {
    const next = argmax(s.step.data(logits));
    tokens.push(next);
    if (i === steps - 1) break;  // the last token needs no step after it
    const old = [logits, ...caches];
    t0 = performance.now();
    [logits, ...caches] = await s.step.run([s.step.ids([next]), posTensor(s.step, pos), ...caches], { resident: true });
    stepMs.push(performance.now() - t0);
    s.step.release(old);
    pos += 1;
  }
  s.step.release([logits, ...caches]);
  return { prefillMs, stepMs, tokens, first };
}

function posTensor(session, pos) {
  return session.tensor({ data: BigInt64Array.of(BigInt(pos)), shape: [1], dtype: 'int64' });
}

/**
 * The roofline of a step that streams its weights: GB/s of a plain copy of `bytes` bytes (memmove of a
 * buffer the size of the fp32 weights, the median of 9), as the machine moves memory.
 */
function copyGBs(bytes) {
  const buf = new Uint8Array(2 * bytes + 64);
  buf.fill(1);
  const times = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    buf.copyWithin(bytes + 64, 0, bytes);
    times.push(performance.now() - t0);
  }
  return bytes / median(times) / 1e6;
}

/** The decode workload of the folder `dir` (under io) for each variant. */
export async function measureDecode(io, dir, meta, variants, { rounds = 3, log = () => {} } = {}) {
  const prompts = {};
  for (const [n, p] of Object.entries(meta.prompts)) {
    const arr = await readNpy(io, `${dir}/${p.file}`);
    prompts[n] = { ids: Array.from(arr.data, Number), first: (await readNpy(io, `${dir}/${p.first_logits}`)).data, greedy: p.greedy };
  }
  const lens = Object.keys(prompts);
  const live = [];
  const results = {};
  for (const v of variants) {
    const r = (results[v.id] = { engine: v.engine, weights: v.weights, threads: v.threads });
    try {
      r.file_bytes = await io.size(fileOf(dir, 'step', v));
      const s = await openDecoder(io, dir, v);
      r.load_ms = s.loadMs;
      // Accuracy (and the warm-up): torch's 32-token prompt and its greedy continuation.
      const p = prompts[lens[0]];
      const g = await generate(s, p.ids, p.greedy.length);
      r.logits_cosine = cosine(g.first, p.first);
      let same = 0;
      while (same < p.greedy.length && g.tokens[same] === p.greedy[same]) same++;
      r.greedy_same = same;
      r.greedy_of = p.greedy.length;
      live.push({ v, s, r, prefill: Object.fromEntries(lens.map((n) => [n, []])), step: Object.fromEntries(lens.map((n) => [n, []])) });
    } catch (e) {
      r.error = (e?.message ?? String(e)).split('\n')[0];
    }
  }
  for (let round = 0; round < rounds; round++) {
    log(`  decode round ${round + 1}/${rounds}`);
    for (let j = 0; j < live.length; j++) {
      const x = live[(round + j) % live.length];  // rotate who goes first
      if (x.r.error) continue;
      try {
        for (const n of lens) {
          const g = await generate(x.s, prompts[n].ids, STEPS + 1);
          x.prefill[n].push(g.prefillMs);
          x.step[n].push(...g.stepMs);
        }
      } catch (e) {
        x.r.error = `round ${round + 1}: ${(e?.message ?? String(e)).split('\n')[0]}`;
      }
    }
  }
  for (const x of live) {
    if (!x.r.error) {
      x.r.past = {};
      for (const n of lens) {
        const ms = median(x.step[n]);
        // the weights streamed per token (the step file's bytes) over the step's time
        x.r.past[n] = { first_token_ms: median(x.prefill[n]), step_ms: ms, tokens_per_s: 1000 / ms,
          weights_gb_s: x.r.file_bytes / ms / 1e6 };
      }
      x.r.peak_bytes = x.s.step.peakBytes();
    }
    x.s.prefill.dispose();
    x.s.step.dispose();
  }
  return results;
}

// --- encoder -----------------------------------------------------------------------------------------------
/** The encoder workload of the folder `dir` (under io) for each variant. */
export async function measureEncoder(io, dir, meta, variants, { rounds = 10, log = () => {} } = {}) {
  const inputs = [];
  for (const f of meta.inputs) inputs.push(await readNpy(io, `${dir}/${f}`));
  const expected = (await readNpy(io, `${dir}/${meta.expected}`)).data;
  const live = [];
  const results = {};
  for (const v of variants) {
    const file = fileOf(dir, 'encoder', v);
    const r = (results[v.id] = { engine: v.engine, weights: v.weights, threads: v.threads });
    try {
      r.file_bytes = await io.size(file);
      const s = await open(io, v, file);
      r.load_ms = s.loadMs;
      const feeds = inputs.map((t) => s.tensor(t));
      let out;
      const t0 = performance.now();
      for (let i = 0; i < 3; i++) out = await s.run(feeds);  // warm-up
      r.first_ms = (performance.now() - t0) / 3;
      r.cosine = cosine(s.data(out[0]), expected);
      live.push({ s, r, feeds, times: [] });
    } catch (e) {
      r.error = (e?.message ?? String(e)).split('\n')[0];
    }
  }
  log(`  encoder: ${rounds} rounds`);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < live.length; j++) {
      const x = live[(round + j) % live.length];
      if (x.r.error) continue;
      try {
        const t0 = performance.now();
        await x.s.run(x.feeds);
        x.times.push(performance.now() - t0);
      } catch (e) {
        x.r.error = `round ${round + 1}: ${(e?.message ?? String(e)).split('\n')[0]}`;
      }
    }
  }
  for (const x of live) {
    if (!x.r.error) {
      x.r.median_ms = median(x.times);
      x.r.peak_bytes = x.s.peakBytes();
    }
    x.s.dispose();
  }
  return results;
}

/**
 * Every transformer workload named in `names`, from the folder bench/export_transformers.py writes
 * (.cache/bench/transformers), read through the I/O adapter `io` (see the header).
 */
export async function measureTransformers(io, names, variants, opts = {}) {
  let meta;
  try {
    meta = JSON.parse(new TextDecoder().decode(await io.bytes('meta.json')));
  } catch (e) {
    return { error: `${io.where ?? ''}/meta.json: ${(e?.message ?? String(e)).split('\n')[0]}: run bench/export_transformers.py` };
  }
  const res = { torch: meta.torch, onnxruntime: meta.onnxruntime };
  if (names.includes('decode')) {
    opts.log?.('… decode (transformers)');
    res.decode = { meta: { ...meta.decoder, sizes: undefined }, variants: await measureDecode(io, 'decoder', meta.decoder, variants, opts),
      copy_gb_s: copyGBs(await io.size(fileOf('decoder', 'step', { engine: 'fxwasm', weights: 'fp32' }))) };
  }
  if (names.includes('encoder')) {
    opts.log?.('… encoder (transformers)');
    res.encoder = { meta: { ...meta.encoder, sizes: undefined }, variants: await measureEncoder(io, 'encoder', meta.encoder, variants, opts) };
  }
  return res;
}

// --- report ------------------------------------------------------------------------------------------------
const COUNTERPART = { fp32: 'fp32', int8: 'int8', int4: 'q4' };

/** The ORT variant an fxwasm variant is compared with: same weights class, same thread count. */
function counterpart(variants, r) {
  return variants[`ort_${COUNTERPART[r.weights]}_${r.threads}t`];
}

/** The printed tables of measureTransformers' result (fmt: report.mjs's helpers). */
export function transformerReport(res, { table, fmtMs, fmtMB, notes }) {
  const out = [];
  if (res.error) return `transformers: ${res.error}`;
  const cell = (r, f) => (r?.error ? notes.cell(r.error) : f(r));
  const ratio = (a, b) => (a != null && b != null ? (a / b).toFixed(2) : '—');
  const label = (id, r) => `${r.engine} ${r.weights} ${r.threads}t`;
  if (res.decode) {
    const { meta, variants, copy_gb_s: copyRate } = res.decode;
    const lens = Object.keys(meta.prompts);
    const rows = Object.entries(variants).map(([id, r]) => {
      const o = r.engine === 'fxwasm' ? counterpart(variants, r) : null;
      const p = (n) => r.past?.[n];
      return [label(id, r), fmtMB(r.file_bytes),
        ...lens.map((n) => cell(r, () => fmtMs(p(n)?.first_token_ms))),
        ...lens.map((n) => cell(r, () => fmtMs(p(n)?.step_ms))),
        ...lens.map((n) => cell(r, () => (p(n) ? p(n).tokens_per_s.toFixed(1) : '—'))),
        cell(r, () => (p(lens[0]) ? p(lens[0]).weights_gb_s.toFixed(1) : '—')),
        ...lens.map((n) => (o && !r.error && !o.error ? ratio(p(n)?.step_ms, o.past?.[n]?.step_ms) : '—')),
        cell(r, () => r.logits_cosine?.toFixed(5)), cell(r, () => `${r.greedy_same}/${r.greedy_of}`),
        fmtMB(r.peak_bytes)];
    });
    out.push(`Decode: GPT-style decoder, ${meta.layers} layers, d=${meta.d}, vocab ${meta.vocab}, ` +
      `${(meta.parameters / 1e6).toFixed(1)}M parameters; a prompt of P tokens (first-token latency), then greedy ` +
      `steps over the KV cache (median ms per token); ratio: fxwasm's step time / ORT's with the same kind of ` +
      `weights (int4 against ORT's q4) and threads; cosine and greedy: against torch float32; GB/s: the step ` +
      `file's bytes per token at P=${lens[0]}, against a plain copy of the fp32 weights' size on this machine: ` +
      `${copyRate ? copyRate.toFixed(1) : '—'} GB/s (the roofline of a step that streams its weights)`);
    out.push(table(['variant', 'step MB', ...lens.map((n) => `1st token P=${n}`), ...lens.map((n) => `ms/token P=${n}`),
      ...lens.map((n) => `tok/s P=${n}`), `GB/s P=${lens[0]}`, ...lens.map((n) => `fx/ort P=${n}`), 'logits cos', 'greedy',
      'run peak MB'], rows));
  }
  if (res.encoder) {
    const { meta, variants } = res.encoder;
    const rows = Object.entries(variants).map(([id, r]) => {
      const o = r.engine === 'fxwasm' ? counterpart(variants, r) : null;
      return [label(id, r), fmtMB(r.file_bytes), cell(r, () => fmtMs(r.median_ms)),
        o && !r.error && !o.error ? ratio(r.median_ms, o.median_ms) : '—', cell(r, () => r.cosine?.toFixed(5)),
        fmtMB(r.peak_bytes)];
    });
    if (out.length) out.push('');
    out.push(`Encoder: BertModel ${(meta.parameters / 1e6).toFixed(1)}M parameters + mean pooling, seq ${meta.seq} ` +
      `(${meta.real_tokens} tokens + padding); median ms per call; cosine of the embedding against torch float32`);
    out.push(table(['variant', 'file MB', 'ms', 'fx/ort', 'cosine', 'run peak MB'], rows));
  }
  return out.join('\n');
}

/**
 * The same workloads in two places (Node and the browser page): per workload a line and a table, for each
 * variant measured in both its browser time over its Node time (decode: ms per token at each P; encoder:
 * ms per call), and for fxwasm's variants the fx/ort ratio in each place and how far it moved (browser −
 * Node). The line gives the largest move at one thread against the issue's goal (within 0.05).
 */
export function browserNodeReport(node, browser, { table, fmtMs }) {
  const out = [];
  const div = (a, b) => (a != null && b != null ? a / b : null);
  const f2 = (x) => (x == null ? '—' : x.toFixed(2));
  const signed = (x) => (x == null ? '—' : `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(2)}`);
  for (const w of TRANSFORMER_WORKLOADS) {
    const N = node?.[w], B = browser?.[w];
    if (!N?.variants || !B?.variants) continue;
    const lens = w === 'decode' ? Object.keys(N.meta.prompts) : [null];
    const ms = (r, n) => (!r || r.error ? null : n == null ? r.median_ms : r.past?.[n]?.step_ms);
    const fxOrt = (vs, r, n) => (r.engine === 'fxwasm' ? div(ms(r, n), ms(counterpart(vs, r), n)) : null);
    const moves = [];
    const rows = [];
    for (const [id, rb] of Object.entries(B.variants)) {
      const rn = N.variants[id];
      if (!rn) continue;
      const row = [`${rb.engine} ${rb.weights} ${rb.threads}t`];
      for (const n of lens) row.push(fmtMs(ms(rn, n)), fmtMs(ms(rb, n)), f2(div(ms(rb, n), ms(rn, n))));
      for (const n of lens) {
        const a = fxOrt(N.variants, rn, n), b = fxOrt(B.variants, rb, n);
        if (a != null && b != null && rb.threads === 1) moves.push(b - a);  // the goal is stated at one thread
        row.push(f2(a), f2(b), a != null && b != null ? signed(b - a) : '—');
      }
      rows.push(row);
    }
    if (!rows.length) continue;
    const P = (n) => (n == null ? '' : ` P=${n}`);
    const unit = w === 'decode' ? 'ms/token' : 'ms';
    const worst = moves.length ? Math.max(...moves.map(Math.abs)) : null;
    if (out.length) out.push('');
    out.push(`browser/Node, ${w}: each engine's browser ${unit} / its Node ${unit} (b/N); fx/ort in each and its ` +
      `change browser − Node (Δ): ${worst == null ? 'no fx/ort pair at 1 thread in both'
        : `largest |Δ| at 1 thread ${worst.toFixed(3)} (of ${moves.length}), goal within 0.05: ${worst <= 0.05 ? 'met' : 'not met'}`}`);
    out.push(table(['variant', ...lens.flatMap((n) => [`${unit}${P(n)} Node`, 'browser', 'b/N']),
      ...lens.flatMap((n) => [`fx/ort${P(n)} Node`, 'browser', 'Δ'])], rows));
  }
  return out.join('\n');
}
