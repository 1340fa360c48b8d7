// Worker mode, the page's side: fxwasm.load(source, {worker: true}) starts a Worker of its own for the
// model (web/src/worker.js; worker_threads in Node), loads the model there and returns a
// WorkerGraphModule, which forwards each call as a message. The main thread never runs the model: it
// only posts inputs and receives outputs (tensor buffers transferred, not copied, on the way back).
import { FxError } from './errors.js';
import { packValue, unpackValue, unpackError } from './worker_wire.js';
import { Tensor } from './tensor.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const URL_LIKE = /^(https?|file|data|blob):/i;
const DISPOSED = 'this GraphModule was disposed';

// Starts worker.js; the `new Worker(new URL('./worker.js', import.meta.url), …)` form is the one bundlers
// (Vite, webpack 5, esbuild plugins) follow to ship the worker file.
async function spawn() {
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(new URL('./worker.js', import.meta.url));
    return {
      post: (message, transfer) => w.postMessage(message, transfer),
      listen(onMessage, onFail) {
        w.on('message', onMessage);
        w.on('error', (e) => onFail(`the fxwasm worker failed: ${e && e.message ? e.message : e}`));
        w.on('messageerror', () => onFail('the fxwasm worker sent a message that cannot be read'));
        w.on('exit', (code) => onFail(`the fxwasm worker exited (code ${code})`));
      },
      terminate: () => w.terminate(),
      // A worker with nothing to do does not keep Node running (as an idle in-thread model does not).
      hold: (busy) => (busy ? w.ref() : w.unref()),
    };
  }
  if (typeof Worker !== 'function') throw new FxError('load(): worker mode needs Web Workers, which this environment lacks');
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return {
    post: (message, transfer) => w.postMessage(message, transfer),
    listen(onMessage, onFail) {
      w.addEventListener('message', (e) => onMessage(e.data));
      w.addEventListener('error', (e) => {
        e.preventDefault?.();
        onFail(`the fxwasm worker failed: ${e.message || 'it did not start (is web/src/worker.js served?)'}`);
      });
      w.addEventListener('messageerror', () => onFail('the fxwasm worker sent a message that cannot be read'));
    },
    terminate: () => w.terminate(),
    hold: () => {},
  };
}

/** One worker: numbered requests, each settled by the reply with its id. */
class Client {
  #endpoint;
  #next = 1;
  #pending = new Map();  // id → {resolve, reject, onProgress}
  #stopped = null;       // why the worker is gone
  #ready;

  constructor(endpoint) {
    this.#endpoint = endpoint;
    let started;
    this.#ready = new Promise((resolve, reject) => { started = { resolve, reject }; });
    this.#ready.catch(() => {});  // also reported through the request that waits on it
    this.#pending.set(0, started);
    endpoint.listen((message) => this.#receive(message), (why) => this.#stop(why));
  }

  #receive(message) {
    if (message.ready) {
      const started = this.#pending.get(0);
      this.#pending.delete(0);
      started?.resolve();
      return;
    }
    const request = this.#pending.get(message.id);
    if (!request) return;
    if (message.progress) {
      try {
        request.onProgress?.(message.progress);
      } catch (e) {
        // As in-thread: a throwing onProgress fails the load. The worker is mid-stream: stop it.
        this.terminate(`load(): cannot read the source: ${e && e.message ? e.message : e}`);
      }
      return;
    }
    this.#pending.delete(message.id);
    this.#endpoint.hold(this.#pending.size > 0);
    if (message.ok) request.resolve(message.value);
    else request.reject(unpackError(message.error));
  }

  #stop(why) {
    if (this.#stopped) return;
    this.#stopped = why;
    for (const { reject } of this.#pending.values()) reject(new FxError(why));
    this.#pending.clear();
  }

  /** Sends {id, method, args} once the worker is listening; resolves to the reply's value. */
  async request(method, args, transfer = [], onProgress = undefined) {
    await this.#ready;
    if (this.#stopped) throw new FxError(this.#stopped);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#endpoint.hold(true);
      try {
        this.#endpoint.post({ id, method, args }, transfer);
      } catch (e) {
        // A value structured clone cannot copy (a function, a class instance it does not know…).
        this.#pending.delete(id);
        this.#endpoint.hold(this.#pending.size > 0);
        reject(new FxError(`${method}(): cannot send to the worker: ${e && e.message ? e.message : e}`, { cause: e }));
      }
    });
  }

  /** Stops the worker; pending and later requests reject with FxError(why). */
  terminate(why) {
    this.#stop(why);
    return Promise.resolve(this.#endpoint.terminate()).then(() => {});
  }
}

// A source as the worker can receive it: bytes and Blobs are cloned (a Blob clone shares its data); a
// Response's body stream is transferred, so a download streams into the worker's heap; relative URLs are
// resolved here, against the page (a worker's location is the worker script).
function packSource(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return { source: { kind: 'value', value: source }, transfer: [] };
  if (typeof Blob !== 'undefined' && source instanceof Blob) return { source: { kind: 'value', value: source }, transfer: [] };
  if (typeof Response !== 'undefined' && source instanceof Response) {
    const name = source.url || '<response>';
    if (!source.ok) throw new FxError(`${name}: HTTP ${source.status} ${source.statusText}`.trim());
    const packed = {
      kind: 'response', body: source.body, status: source.status, statusText: source.statusText,
      headers: [...source.headers], url: source.url,
    };
    return { source: packed, transfer: source.body ? [source.body] : [] };
  }
  if (source instanceof URL) return { source: { kind: 'url', href: source.href }, transfer: [] };
  if (typeof source === 'string') {
    if (isNode || URL_LIKE.test(source)) return { source: { kind: 'value', value: source }, transfer: [] };
    const base = typeof location !== 'undefined' ? location.href : undefined;
    return { source: { kind: 'value', value: new URL(source, base).href }, transfer: [] };
  }
  throw new FxError('load(): source must be a Uint8Array, ArrayBuffer, Blob, Response, URL or string');
}

// A WorkerGraphModule dropped without dispose() stops its worker when the garbage collector reclaims it.
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((client) => { client.terminate(DISPOSED).catch(() => {}); })
  : null;

/**
 * A model running in a Worker (fxwasm.load(source, {worker: true})). The GraphModule calls, all async:
 * run, printTabular, code, info, runMemory, modules, tensors, getTensor, inputNames, check, reference, applyPass, quantizeWeights, save; dispose() stops the worker.
 * The Graph API (gm.graph and the editing calls) and runSync need the model on this thread.
 */
export class WorkerGraphModule {
  #client;

  #threadInfo;

  /** @internal use fxwasm.load(source, {worker: true}) */
  constructor(client, source, threadInfo) {
    this.#client = client;
    this.source = source;
    this.#threadInfo = threadInfo;
    finalizer?.register(this, client, this);
  }

  #call(method, args = [], transfer = []) {
    if (!this.#client) return Promise.reject(new FxError(DISPOSED));
    return this.#client.request(method, args, transfer);
  }

  /** As GraphModule.run. With {transfer: true} the input tensors' buffers move to the worker instead of
   * being copied (the caller's tensors are then detached: empty). */
  async run(inputs, options = {}) {
    const { transfer, ...rest } = options;
    if (rest.resident) throw new FxError('run(): {resident: true} needs the in-thread runtime (load without worker)');
    const moved = transfer ? new Set() : null;
    // Each input on its own, named as in-thread run() names it (#0, or its key).
    const packed = Array.isArray(inputs) ? inputs.map((x, i) => packValue(x, moved, `#${i}`))
      : inputs !== null && typeof inputs === 'object' && !(inputs instanceof Tensor)
        ? Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, packValue(v, moved, k)]))
        : packValue(inputs, moved);
    return unpackValue(await this.#call('run', [packed, rest], moved ? [...moved] : []));
  }

  /** As GraphModule.threads: the kernels' threads in the worker's runtime (the model's alone). */
  get threads() { return this.#threadInfo.threads; }

  /** As GraphModule.threadInfo: {requested, threads, cores, reason}, as the worker's runtime started. */
  get threadInfo() { return { ...this.#threadInfo }; }

  printTabular() { return this.#call('printTabular'); }

  /** A Promise of the Python code (`await gm.code` works in both modes). */
  get code() { return this.#call('code'); }

  info() { return this.#call('info'); }
  runMemory() { return this.#call('runMemory'); }
  modules() { return this.#call('modules'); }
  tensors() { return this.#call('tensors'); }
  async getTensor(name) { return unpackValue(await this.#call('getTensor', [name])); }

  /** A Promise of the placeholder names. */
  get inputNames() { return this.#call('inputNames'); }

  check(options = {}) { return this.#call('check', [options]); }

  async reference() { return unpackValue(await this.#call('reference')); }

  applyPass(name, options = {}) {
    return this.#call('applyPass', [name, options.inputs ? { ...options, inputs: packValue(options.inputs) } : options]);
  }

  quantizeWeights(weights) { return this.#call('quantizeWeights', [weights]); }

  save() { return this.#call('save'); }

  get graph() {
    throw new FxError('gm.graph is not available in worker mode: load without {worker: true} to walk or edit the graph');
  }

  runSync() {
    throw new FxError('runSync() is not available in worker mode: use await gm.run()');
  }

  get disposed() {
    return this.#client === null;
  }

  /** Stops the worker (its wasm memory goes with it); later calls reject with FxError. Resolves once stopped. */
  dispose() {
    if (!this.#client) return Promise.resolve();
    const client = this.#client;
    this.#client = null;
    finalizer?.unregister(this);
    return client.terminate(DISPOSED);
  }
}

/** fxwasm.load(source, {worker: true, …}): the model loaded in a new worker. */
export async function loadInWorker(source, { onProgress, allowUnsupported = false, threads } = {}) {
  const packed = packSource(source);
  const client = new Client(await spawn());
  try {
    const options = { allowUnsupported: Boolean(allowUnsupported), threads, progress: typeof onProgress === 'function' };
    const { source: name, threadInfo } = await client.request('load', [packed.source, options], packed.transfer, onProgress);
    return new WorkerGraphModule(client, name, threadInfo);
  } catch (e) {
    await client.terminate('load failed').catch(() => {});
    throw e;
  }
}
