// Which WebAssembly variant runs the core: fxwasm.wasm (one thread) or fxwasm-threads.wasm (pthreads on a
// SharedArrayBuffer, a pool of workers started with the module). Threads need SharedArrayBuffer, which
// browsers give only to crossOriginIsolated pages (COOP/COEP headers, as the playground server sends) and
// their workers; Node always has it. `threads` (load option, CLI --threads): a count, or 'auto' = the
// machine's cores, at most MAX_AUTO_THREADS. Kernels split work the same way for any count, so outputs do
// not depend on it.
import { FxError } from './errors.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

export const MAX_AUTO_THREADS = 4;
export const MAX_THREADS = 16;

/** Whether this environment can run the pthreads variant. */
export function threadsSupported() {
  if (typeof SharedArrayBuffer !== 'function') return false;
  return isNode || globalThis.crossOriginIsolated === true;
}

async function cores() {
  if (isNode) {
    const os = await import('node:os');
    return os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  }
  return globalThis.navigator?.hardwareConcurrency || 1;
}

/** An FxError for a `threads` value that is neither a positive integer nor 'auto', else null. */
export function threadsValueError(threads) {
  if (threads === 'auto' || (Number.isInteger(threads) && threads >= 1)) return null;
  let shown;
  try {
    shown = typeof threads === 'string' ? JSON.stringify(threads) : String(threads);
  } catch {
    shown = typeof threads;  // e.g. an object whose toString throws
  }
  return new FxError(`threads must be a positive integer or 'auto', got ${shown.slice(0, 40)}`);
}

/** The thread count `threads` means here: 1 where threads cannot run. Throws FxError on a bad value. */
export async function resolveThreads(threads = 'auto') {
  const bad = threadsValueError(threads);
  if (bad) throw bad;
  const n = threads === 'auto' ? Math.min(MAX_AUTO_THREADS, await cores()) : threads;
  return threadsSupported() ? Math.min(n, MAX_THREADS) : 1;
}

/**
 * Why a run has `actual` threads when `requested` (a count or 'auto') was asked for, in words; '' when
 * nothing needs saying. `env`: {sab (SharedArrayBuffer exists), isolated (crossOriginIsolated, browsers),
 * node, cores, startError (why the pthreads build did not start, or null)} — threadsEnvironment() gives
 * this environment's.
 */
export function explainThreads(requested, actual, env) {
  if (requested === undefined) return '';
  const wanted = requested === 'auto' ? Math.min(MAX_AUTO_THREADS, env.cores) : requested;
  const auto = requested === 'auto' ? `auto: ${env.cores} core${env.cores === 1 ? '' : 's'}, at most ${MAX_AUTO_THREADS}` : '';
  let why = '';
  if (actual < wanted) {
    // A browser gives SharedArrayBuffer only to cross-origin isolated pages (Chromium removes the global).
    if (!env.node && !env.isolated) why = 'the page is not cross-origin isolated (it needs COOP/COEP headers), so no SharedArrayBuffer: one thread';
    else if (!env.sab) why = 'no SharedArrayBuffer here, so one thread';
    else if (env.startError) why = `the pthreads build did not start (${env.startError}): one thread`;
    else if (wanted > MAX_THREADS) why = `at most ${MAX_THREADS} threads`;
    else why = `the runtime was set to ${actual} after this model loaded (a later load or getRuntime with another threads value)`;
  }
  if (requested !== 'auto' && requested > env.cores && actual > env.cores) {
    why = [why, `more threads than the ${env.cores} cores here, as asked`].filter(Boolean).join('; ');
  }
  return [auto, why].filter(Boolean).join('; ');
}

/**
 * A model's threads (GraphModule.threadInfo): {requested (the load option: a count, 'auto', or null when
 * not given), threads (the kernels' thread count its runs get), cores (this machine's), reason (why threads
 * differs from requested, or what 'auto' became; '' when nothing needs saying)}.
 */
export function threadInfo(requested, actual, env) {
  return { requested: requested ?? null, threads: actual, cores: env.cores, reason: explainThreads(requested, actual, env) };
}

/** This environment, for explainThreads. */
export async function threadsEnvironment(startError = null) {
  return { sab: typeof SharedArrayBuffer === 'function', isolated: globalThis.crossOriginIsolated === true,
    node: isNode, cores: await cores(), startError };
}

/** Factory options the pthreads variant needs besides the single-threaded ones (`threads` ≥ 2). */
export async function threadedOptions(threads, mjsUrl) {
  const options = { fxThreads: threads - 1, mainScriptUrlOrBlob: mjsUrl.href };  // the caller is thread 0
  if (isNode) {
    // Emscripten 3.1.6's Node code calls require() and reads __dirname (cpp/bindings/threads_pre.js).
    const { createRequire } = await import('node:module');
    const path = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    options.fxRequire = createRequire(mjsUrl);
    options.fxDirname = path.dirname(fileURLToPath(mjsUrl));
  }
  return options;
}
