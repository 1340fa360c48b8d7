// load() on this thread: the file streams into one aligned block of the wasm heap, which the core takes
// over — the model's tensors view the weights where they landed (no second copy). index.js's load() calls
// this directly, or (with {worker: true}) from inside a Worker (worker.js) — which is why it lives apart
// from index.js: the worker must not import the module that spawns workers.
import { getRuntimeForLoad, threadsStartError } from './runtime.js';
import { threadsEnvironment } from './threads.js';
import { readIntoHeap } from './source.js';
import { GraphModule } from './graph_module.js';

export async function loadHere(source, { onProgress, allowUnsupported = false, threads } = {}) {
  const rt = await getRuntimeForLoad({ threads });
  // What gm.threadInfo reports: the threads asked for, and the environment that decided what they became.
  const threadsEnv = await threadsEnvironment(threadsStartError());
  // The file goes straight into the heap (chunk by chunk for streams and files), never whole in JS too.
  const { ptr, nbytes, name } = await readIntoHeap(rt, source, onProgress);
  // The core takes the block over, success or not.
  const { handle } = rt.call('fx_load_block', ptr, nbytes, name, Boolean(allowUnsupported));
  return new GraphModule(rt, handle, name, { requested: threads, env: threadsEnv });
}
