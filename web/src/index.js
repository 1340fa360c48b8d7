// fxwasm: PyTorch FX graphs in WebAssembly. The public JavaScript API (see index.d.ts and CONTRACT.md).
import { FxError } from './errors.js';
import { getRuntime } from './runtime.js';
import { readIntoHeap } from './source.js';
import { GraphModule } from './graph_module.js';

export { FxError } from './errors.js';
export { Tensor, tensor, randomTensor } from './tensor.js';
export { GraphModule } from './graph_module.js';
export { Graph, Node, FxList, list, float } from './graph.js';
export { readNpy, writeNpy, readNpz, readNpzAsync, writeNpz } from './npy.js';

/**
 * Loads a .fxw model. `source`: Uint8Array | ArrayBuffer | Blob | Response | URL | string (a URL, or a
 * file path in Node). `onProgress({loaded, total})` reports download progress (total null when unknown).
 */
export async function load(source, { onProgress } = {}) {
  const rt = await getRuntime();
  // The file goes straight into the heap (chunk by chunk for streams and files), never whole in JS too.
  const { ptr, nbytes, name } = await readIntoHeap(rt, source, onProgress);
  try {
    const { handle } = rt.call('fx_load', ptr, nbytes, name);
    return new GraphModule(rt, handle, name);
  } finally {
    if (!rt.broken) rt.free(ptr);  // a trapped runtime is dropped whole
  }
}

/**
 * A new GraphModule with an empty graph, to build a program from scratch with gm.graph's
 * placeholder/callFunction/…/output and gm.addTensor/addModule.
 */
export async function create() {
  return GraphModule.empty();
}

/** The model in the .fxw format, as bytes ready for a file or a download. */
export function save(gm) {
  if (!(gm instanceof GraphModule)) throw new FxError('save(): expected a GraphModule from fxwasm.load()');
  return gm.save();
}
