// The engines the benchmark compares, behind one shape:
//   engine.prepare(model) -> { run: async () => Float32Array | typed array (the first output, NCHW order),
//                              loadMs, info }
// Everything that is not inference (reading files, making input tensors, layout changes for tfjs) happens
// in prepare, outside the timed calls; run() includes copying the output out of the engine, because a user
// has to do that too.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import { median } from './report.mjs';
import { tfjsModels } from './tfjs_models.mjs';

const require = createRequire(import.meta.url);

// fxwasm is imported on first use, so that a broken web/src or web/dist is an error in fxwasm's cells,
// not the end of the benchmark.
let fxwasm = null;
let runtime = null;

async function importFxwasm() {
  if (!fxwasm) {
    fxwasm = await import('../../web/src/index.js');
    runtime = await import('../../web/src/runtime.js');  // internal: only for the heap size
  }
  return fxwasm;
}

/** The first tensor of an fxwasm output (Tensor | array | object), depth first. */
function firstTensor(value) {
  if (value instanceof fxwasm.Tensor) return value;
  if (Array.isArray(value)) {
    for (const v of value) { const t = firstTensor(v); if (t) return t; }
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) { const t = firstTensor(v); if (t) return t; }
  }
  return null;
}

// --- fxwasm ----------------------------------------------------------------------------------------------
export const fxwasmEngine = {
  id: 'fxwasm',
  label: 'fxwasm',
  async init(model) {
    await importFxwasm();
    const t0 = performance.now();
    await runtime.getRuntime();
    // As ORT's init creates a session with the first model: one load here, so that V8 has compiled the
    // load path before any model's load is timed (the first load in a process otherwise pays it).
    if (model) (await fxwasm.load(fs.readFileSync(path.join(model.dir, model.meta.fxw)), { threads: this.threads ?? 1 })).dispose();
    return { initMs: performance.now() - t0 };
  },
  /** Wasm memory of the runtime in bytes (it only grows: the high-water mark of every model so far). */
  async heapBytes() {
    try {
      return (await runtime.getRuntime()).module.HEAPU8.byteLength;
    } catch {
      return null;  // no runtime (a failed start): the cell shows —
    }
  },
  async prepare(model) {
    await importFxwasm();
    const file = path.join(model.dir, model.meta.fxw);
    let t0 = performance.now();
    const bytes = new Uint8Array(fs.readFileSync(file));
    const readMs = performance.now() - t0;
    // What "load" is measured against: one plain copy of the same bytes in memory.
    t0 = performance.now();
    const copy = bytes.slice();
    const copyMs = performance.now() - t0;
    copy[0] ^= 1;  // touch it so the copy is not optimised away
    t0 = performance.now();
    const threads = this.threads ?? 1;
    const gm = await fxwasm.load(bytes, { threads });
    const loadMs = performance.now() - t0;
    // One sample of each is noise (the same copy moves 17-40 ms between runs): four more loads (each
    // disposed) and copies, taking turns; load/copy compares the medians of the five.
    // Also a copy into memory already allocated and touched (memcpy speed, no allocation): the copy above
    // includes allocating fresh memory, which moves with the JS heap's state (GC).
    const loads = [loadMs], copies = [copyMs], memcpys = [];
    const dst = new Uint8Array(bytes.byteLength);
    dst.set(bytes);
    for (let i = 0; i < 4; i++) {
      t0 = performance.now();
      const c = bytes.slice();
      copies.push(performance.now() - t0);
      c[0] ^= 1;
      t0 = performance.now();
      dst.set(bytes);
      memcpys.push(performance.now() - t0);
      t0 = performance.now();
      (await fxwasm.load(bytes, { threads })).dispose();
      loads.push(performance.now() - t0);
    }
    const inputs = model.inputs.map((t) => fxwasm.tensor(t.data, t.shape, t.dtype));
    return {
      loadMs,
      info: { readMs, copyMs, copy_median_ms: median(copies), memcpy_median_ms: median(memcpys),
        load_median_ms: median(loads), fileBytes: bytes.byteLength, threads },
      async run() {
        // The live runtime's thread count is shared: set it for this engine's call.
        await runtime.getRuntime({ threads });
        const out = firstTensor(await gm.run(inputs));
        if (!out) throw new Error('the model returned no tensor');
        return out.data;
      },
      // The runtime's tensor arena after the last run (GraphModule.runMemory()).
      memory() { return gm.runMemory(); },
      dispose() { gm.dispose(); },
    };
  },
};

/** fxwasm with `threads` kernel threads (the pthreads build, web/dist/fxwasm-threads.wasm). */
export function fxwasmThreadsEngine(threads) {
  return {
    ...fxwasmEngine,
    id: `fxwasm_${threads}t`,
    label: `fxwasm ${threads}t`,
    threads,
    async init(model) {
      await importFxwasm();
      const t0 = performance.now();
      const rt = await runtime.getRuntime({ threads });
      if (rt.threads !== threads) throw new Error(`the pthreads build did not start: ${runtime.threadsStartError()}`);
      if (model) (await fxwasm.load(fs.readFileSync(path.join(model.dir, model.meta.fxw)), { threads })).dispose();
      return { initMs: performance.now() - t0 };
    },
  };
}

// --- onnxruntime-web -------------------------------------------------------------------------------------
let ort = null;

async function importOrt(numThreads) {
  if (!ort) {
    ort = await import('onnxruntime-web');
    ort.env.logLevel = 'error';
    // Read once, when the first session starts the wasm runtime: later changes have no effect, which is
    // why the multi-threaded run lives in a child process (run.mjs --child ort-threads).
    ort.env.wasm.numThreads = numThreads;
  }
  return ort;
}

const ORT_DTYPES = { float32: 'float32', int64: 'int64', int32: 'int32', bool: 'bool', float64: 'float64' };

export function ortEngine(numThreads) {
  return {
    id: numThreads === 1 ? 'ort' : `ort_${numThreads}t`,
    label: numThreads === 1 ? 'ort-web 1t' : `ort-web ${numThreads}t`,
    numThreads,
    async init(model) {
      // The first session also starts ORT's wasm runtime: do that once here (with the first model) so
      // that every model's create time is comparable.
      const o = await importOrt(numThreads);
      const t0 = performance.now();
      const session = await o.InferenceSession.create(fs.readFileSync(path.join(model.dir, model.meta.onnx)),
        { executionProviders: ['wasm'] });
      const initMs = performance.now() - t0;
      await session.release();
      return { initMs };
    },
    async prepare(model) {
      const o = await importOrt(numThreads);
      const bytes = new Uint8Array(fs.readFileSync(path.join(model.dir, model.meta.onnx)));
      const t0 = performance.now();
      const session = await o.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
      const loadMs = performance.now() - t0;
      const feeds = {};
      model.inputs.forEach((t, i) => {
        const dtype = ORT_DTYPES[t.dtype];
        if (!dtype) throw new Error(`no onnxruntime tensor type for ${t.dtype}`);
        feeds[session.inputNames[i]] = new o.Tensor(dtype, t.data, t.shape);
      });
      const outName = session.outputNames[0];
      return {
        loadMs,
        info: { fileBytes: bytes.byteLength },
        async run() {
          const results = await session.run(feeds);
          return results[outName].data;
        },
        dispose() { session.release(); },
      };
    },
  };
}

// --- tfjs-backend-wasm -----------------------------------------------------------------------------------
let tf = null;

async function importTf() {
  if (!tf) {
    tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-wasm');
    const ok = await tf.setBackend('wasm');
    if (!ok) throw new Error('tfjs could not start its wasm backend');
    await tf.ready();
  }
  return tf;
}

export const tfjsEngine = {
  id: 'tfjs',
  label: 'tfjs-wasm',
  supports(model) { return Object.hasOwn(tfjsModels, model.name); },
  async init() {
    const t0 = performance.now();
    await importTf();
    return { initMs: performance.now() - t0 };
  },
  async prepare(model) {
    if (!this.supports(model)) throw new Error('not written in tfjs ops');
    const t = await importTf();
    const t0 = performance.now();
    const built = tfjsModels[model.name](t, model);
    const loadMs = performance.now() - t0;
    return {
      loadMs,
      info: {},
      async run() {
        const y = t.tidy(built.forward);
        const data = await y.data();
        y.dispose();
        return data;
      },
      // For comparison only (outside the timing): the output in torch's layout.
      toTorchLayout: built.toTorchLayout,
      dispose() { built.dispose(); },
    };
  },
};

/** Bytes (and gzip bytes) of each engine's wasm binary as Node loads it. */
export function wasmFiles(root) {
  const files = {
    fxwasm: path.join(root, 'web/dist/fxwasm.wasm'),
    fxwasm_threads: path.join(root, 'web/dist/fxwasm-threads.wasm'),
    ort: path.join(path.dirname(require.resolve('onnxruntime-web')), 'ort-wasm-simd-threaded.wasm'),
    tfjs: path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')),
      'tfjs-backend-wasm-simd.wasm'),
  };
  return files;
}
