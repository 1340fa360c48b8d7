// Loads the WebAssembly core once and is the only place that calls into it. The build lives in
// ../dist/ (fxwasm.mjs + fxwasm.wasm), located with `new URL(…, import.meta.url)` so bundlers find it.
// In Node, the loader's own fetch of a file path fails, so the bytes are read with fs and passed as
// wasmBinary. A wasm trap (which C++ code never causes on purpose: every bound call catches) marks the
// instance broken; the next load() starts a fresh one, so a failure never leaves the package unusable.
import { FxError, unwrapReply } from './errors.js';
import { resolveThreads, threadedOptions, threadsValueError } from './threads.js';

const WASM_URL = new URL('../dist/fxwasm.wasm', import.meta.url);
// The pthreads variant (threads.js), for a `threads` count above 1 where the environment allows it.
const THREADS_WASM_URL = new URL('../dist/fxwasm-threads.wasm', import.meta.url);
const THREADS_MJS_URL = new URL('../dist/fxwasm-threads.mjs', import.meta.url);
const isNode = typeof process !== 'undefined' && !!process.versions?.node;

let current = null;  // Promise<Runtime> of the live instance
let currentSettled = null;  // the Runtime `current` resolved to, once it has

class Runtime {
  constructor(module, log) {
    this.module = module;
    this.log = log;  // the module's own stdout/stderr lines, kept for diagnosis instead of printed
    this.broken = null;
  }

  get heap() {
    return this.module.HEAPU8;  // re-read on every use: memory growth replaces the buffer
  }

  /** The heap as doubles (index = address / 8), re-read on every use as `heap`. */
  get heapF64() {
    return this.module.HEAPF64;
  }

  /** Calls a bound function returning a JSON reply; a failure reply throws FxError. */
  call(name, ...args) {
    return unwrapReply(this.callRaw(name, ...args));
  }

  /** As call(), but answers the reply's text unread. */
  callRaw(name, ...args) {
    return this.guard(name, () => this.module[name](...args));
  }

  /**
   * Runs `fn`, which calls into the module (a bound function or _free). Bound functions never
   * throw (each catches everything in C++), so whatever is thrown here is a trap (divide by zero,
   * unreachable, out-of-bounds memory, a stack overflow, an abort): the instance's memory can no longer be
   * trusted. It is marked broken — its models answer FxError from now on,
   * the next load() starts a fresh instance — and the call throws FxError. Other instances are untouched.
   */
  guard(name, fn) {
    if (this.broken) {
      throw new FxError(`the WebAssembly runtime was reset after a crash (${this.broken}); load the model again`);
    }
    try {
      return fn();
    } catch (e) {
      if (e instanceof FxError) throw e;
      if (e instanceof TypeError || (e && e.name === 'BindingError')) {
        // Embind refused an argument before entering the module (e.g. a size past 2^32): nothing ran.
        throw new FxError(`${name}: ${e.message}`, { cause: e });
      }
      // 'unwind': Emscripten's way out of a wait on a thread that crashed (a trap on a kernel thread).
      const why = e === 'unwind' ? `a worker thread crashed${this.workerCrash ? `: ${this.workerCrash}` : ''}`
        : e && e.message ? e.message.split('\n')[0] : String(e);
      // Emscripten's abort text, "Aborted(why). Build with -s ASSERTIONS=1…", as "aborted: why".
      markBroken(this, why.replace(/^Aborted\((.*)\)(\. Build with.*)?$/, (_, m) => (m ? `aborted: ${m}` : 'aborted')));
      throw new FxError(`the WebAssembly runtime crashed during ${name} (${this.broken}); ` +
        'its models are lost: load them again (a fresh runtime starts on the next load)', { cause: e });
    }
  }

  /** Sets the kernels' thread count, at most the threads this instance started with. */
  setThreads(n) {
    const max = this.maxThreads ?? 1;
    this.threads = max > 1 ? this.call('fx_set_threads', Math.min(n, max)).threads : 1;
    return this.threads;
  }

  free(ptr) {
    if (ptr && !this.broken) this.guard('free', () => this.module._free(ptr));
  }

  /**
   * Copies input bytes into a fresh 64-byte aligned heap block: fx_run takes it over and views it in place;
   * for other calls (which copy it) the caller frees it.
   */
  copyInput(bytes) {
    const ptr = this.guard('fx_alloc_input', () => this.module.fx_alloc_input(bytes.byteLength));
    if (!ptr) throw new FxError(`out of memory: cannot allocate ${bytes.byteLength} bytes in the WebAssembly heap`);
    this.heap.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), ptr);
    return ptr;
  }

  /**
   * The core's run scratch (the input blocks a run takes over, then the packed inputs) as `n` doubles
   * (moves when it grows; valid until the next heap growth).
   */
  scratch(n) {
    if (!this.scratchPtr || this.scratchSize < n) {
      const ptr = this.guard('fx_scratch', () => this.module.fx_scratch(Math.max(n, 64)));
      if (!ptr) throw new FxError('out of memory: cannot allocate the run descriptor in the WebAssembly heap');
      this.scratchPtr = ptr;
      this.scratchSize = Math.max(n, 64);
    }
    return new Float64Array(this.heap.buffer, this.scratchPtr, n);
  }

  /** The packed form's dtype codes (cpp/api/wire.h): {names (by code), codes (name → code)}. */
  get wireDtypes() {
    if (!this.wireDtypeTable) {
      const names = this.call('fx_wire_dtypes').dtypes;
      this.wireDtypeTable = { names, codes: new Map(names.map((name, i) => [name, i])) };
    }
    return this.wireDtypeTable;
  }

  /** A copy of heap bytes (safe after the block is freed or the heap grows). */
  copyOut(ptr, nbytes) {
    return this.heap.slice(ptr, ptr + nbytes);
  }
}

let currentRuntime = null;

/** Takes a trapped instance out of service: no later load() gets it; its pthread workers are stopped. */
function markBroken(rt, why) {
  rt.broken = why;
  if (currentSettled === rt) {
    current = null;
    currentSettled = null;
  }
  if (singleAsideRuntime === rt) {
    singleAside = null;
    singleAsideRuntime = null;
  }
  try {
    rt.module.PThread?.terminateAllThreads?.();
  } catch {
    // Nothing more to free: the instance is dropped either way.
  }
}

// threads > 1: the pthreads variant with threads − 1 workers; if it cannot start, one thread.
async function instantiate(threads) {
  if (threads > 1) {
    try {
      const rt = await startRuntime(threads);
      threadsError = null;
      return rt;
    } catch (e) {
      threadsError = e && e.message ? e.message : String(e);
    }
  }
  return startRuntime(1);
}

let threadsError = null;  // why the pthreads variant did not start, if its last start failed (threadInfo's reason)

async function startRuntime(threads) {
  const wasmUrl = threads > 1 ? THREADS_WASM_URL : WASM_URL;
  const name = threads > 1 ? 'fxwasm-threads' : 'fxwasm';
  let factory;
  try {
    factory = (await (threads > 1 ? import('../dist/fxwasm-threads.mjs') : import('../dist/fxwasm.mjs'))).default;
  } catch (e) {
    throw new FxError(`the WebAssembly build (web/dist/${name}.mjs) is missing or broken: run \`npm run build\``, { cause: e });
  }
  const log = [];
  const options = {
    print: (line) => log.push(line),
    printErr: (line) => log.push(line),
    ...(threads > 1 ? await threadedOptions(threads, THREADS_MJS_URL) : {}),
  };
  if (isNode) {
    const fs = await import('node:fs/promises');
    try {
      options.wasmBinary = await fs.readFile(wasmUrl);
    } catch (e) {
      throw new FxError(`the WebAssembly build (web/dist/${name}.wasm) is missing: run \`npm run build\``, { cause: e });
    }
  } else {
    // Other files (the pthread worker script) live next to the .wasm.
    options.locateFile = (file) => (file.endsWith('.wasm') ? wasmUrl.href : new URL(file, wasmUrl).href);
  }
  let module;
  try {
    module = await factory(options);
  } catch (e) {
    throw new FxError(`cannot start the WebAssembly runtime: ${e && e.message ? e.message : e}`, { cause: e });
  }
  if (module.fxUnrefWorkers) module.fxUnrefWorkers();  // Node: the workers must not keep the process alive
  currentRuntime = new Runtime(module, log);
  const rt = currentRuntime;
  // A trap on a kernel thread: recorded for the message, never rethrown (in Node that ended the process).
  if (module.fxCatchWorkerErrors) module.fxCatchWorkerErrors((why) => { rt.workerCrash = why; });
  currentRuntime.maxThreads = threads;
  currentRuntime.setThreads(threads);
  return currentRuntime;
}

/**
 * The live runtime, started on first use. `threads` (a count or 'auto'; threads.js) picks the variant when
 * it starts, and later changes the thread count of the live one — or starts a pthreads one when the live
 * runtime has fewer workers (models loaded earlier keep running on theirs). Undefined: as it is (one
 * thread at first).
 */
export function getRuntime({ threads } = {}) {
  if (current && threads === undefined) return current;
  // Already running with that many threads: nothing to change (callers ask before every inference).
  const live = currentSettled;
  if (current && live && !live.broken && Number.isInteger(threads) && threads >= 1 &&
      threads <= (live.maxThreads ?? 1) && live.threads === threads) {
    return current;
  }
  const bad = threads === undefined ? null : threadsValueError(threads);
  if (bad) return Promise.reject(bad);  // the live runtime stays
  const prev = current;
  const next = (current = (async () => {
    const n = await resolveThreads(threads ?? 1);
    const rt = prev ? await prev.catch(() => null) : null;
    if (rt && !rt.broken && rt.maxThreads >= n) {
      rt.setThreads(n);
      return rt;
    }
    // A single-threaded instance replaced by a pthreads one stays ready for {threads: 1} loads.
    if (rt && !rt.broken && (rt.maxThreads ?? 1) === 1 && !singleAside) {
      singleAside = Promise.resolve(rt);
      singleAsideRuntime = rt;
    }
    return instantiate(n);
  })());
  currentSettled = null;
  next.then((rt) => { if (current === next) currentSettled = rt; }, () => { if (current === next) current = null; });
  return next;  // a failed start can be retried (current is then null)
}

// A single-threaded instance beside a live pthreads one, for models loaded with {threads: 1}: one thread runs
// faster in fxwasm.wasm (no shared memory, no atomics, no pool) than in fxwasm-threads.wasm set to one.
let singleAside = null;  // Promise<Runtime>
let singleAsideRuntime = null;

/**
 * The runtime a model loaded with `threads` goes to: as getRuntime({threads}), except that an explicit one
 * thread while a pthreads instance is live loads into a single-threaded instance kept beside it (the live
 * one stays current, its thread count set to 1 as getRuntime({threads: 1}) sets it).
 */
export function getRuntimeForLoad({ threads } = {}) {
  if (threads === undefined || threadsValueError(threads)) return getRuntime({ threads });
  return (async () => {
    const n = await resolveThreads(threads);
    const live = current ? await current.catch(() => null) : null;
    if (n > 1 || !live || live.broken || (live.maxThreads ?? 1) === 1) return getRuntime({ threads: n });
    live.setThreads(1);
    if (!singleAside) {
      const keep = currentRuntime;
      singleAside = startRuntime(1).then((rt) => {
        singleAsideRuntime = rt;
        return rt;
      }).finally(() => { currentRuntime = keep; });
      singleAside.catch(() => { singleAside = null; });
    }
    return singleAside;
  })();
}

/** Why the pthreads variant could not start (null if it did, or was not asked for). */
export function threadsStartError() {
  return threadsError;
}
