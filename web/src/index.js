// fxwasm: PyTorch FX graphs in WebAssembly. The public JavaScript API (see index.d.ts and CONTRACT.md).
import { FxError } from './errors.js';
import { GraphModule } from './graph_module.js';
import { loadHere } from './loader.js';
import { getRuntime } from './runtime.js';
import { loadInWorker, WorkerGraphModule } from './worker_client.js';
import { threadsValueError } from './threads.js';

export { FxError } from './errors.js';
export { Tensor, tensor, randomTensor, seededRandom } from './tensor.js';
export { ResidentTensor } from './resident.js';
export { GraphModule } from './graph_module.js';
export { WorkerGraphModule } from './worker_client.js';
export { Graph, Node } from './graph.js';
export { FxList, list, float } from './value.js';
export { readNpy, writeNpy, readNpz, readNpzAsync, writeNpz } from './npy.js';
export { profileRuns, medianProfile, groupProfile, profileKey, chromeTrace } from './profile.js';

/**
 * Loads a .fxw model. `source`: Uint8Array | ArrayBuffer | Blob | Response | URL | string (a URL, or a
 * file path in Node). `onProgress({loaded, total})` reports download progress (total null when unknown).
 * Loading prepares the runtime: a graph with ops it cannot run is rejected with one FxError naming every
 * unsupported target and its nodes, unless `allowUnsupported` (inspection only: print, code, info, graph
 * editing; run() then throws that error). With `worker: true` the model lives in a Worker of its own
 * (worker_threads in Node) and a WorkerGraphModule answers: the same calls, all async (docs/api.md).
 * `threads` (a count or 'auto'): the kernels' threads, through the pthreads build where the environment
 * allows it (Node; crossOriginIsolated pages), one thread otherwise; unset: as the runtime is (1 at first).
 */
export async function load(source, { onProgress, allowUnsupported = false, worker = false, threads } = {}) {
  const bad = threads === undefined ? null : threadsValueError(threads);
  if (bad) throw bad;  // the same values in every mode (and the CLI's --threads)
  if (worker) return loadInWorker(source, { onProgress, allowUnsupported, threads });
  return loadHere(source, { onProgress, allowUnsupported, threads });
}

/**
 * A new GraphModule with an empty graph, to build a program from scratch with gm.graph's
 * placeholder/callFunction/…/output and gm.addTensor/addModule.
 */
export async function create() {
  return GraphModule.empty();
}

/**
 * What this runtime can run: {functions, methods, modules} — every call_function target, call_method name
 * and leaf module type it accepts, each sorted (the CLI's `fxwasm ops --json`).
 */
export async function supportedOps() {
  return (await getRuntime()).call('fx_supported_ops').ops;
}

/** The model in the .fxw format, as bytes ready for a file or a download. */
export function save(gm) {
  if (gm instanceof WorkerGraphModule) return gm.save();  // a Promise in worker mode
  if (!(gm instanceof GraphModule)) throw new FxError('save(): expected a GraphModule from fxwasm.load()');
  return gm.save();
}
