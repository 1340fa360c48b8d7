// The Worker side of worker mode: fxwasm.load(source, {worker: true}) starts this script in a Worker of
// its own (worker_threads in Node) and talks to it through worker_client.js. It holds one model, loaded
// here — the file streams into this worker's wasm heap — and answers one request at a time:
// {id, method, args} → {id, ok: true, value} | {id, ok: false, error: {message, node}}. Load progress
// arrives as {id, progress: {loaded, total}}. Result buffers are transferred, not copied.
import { loadHere } from './loader.js';
import { packValue, unpackValue, packError } from './worker_wire.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

// No top-level await: bundlers (Vite's default) may emit workers as classic iife scripts, which have none.
let port;
async function connect() {
  if (!isNode) {
    return { post: (m, t) => self.postMessage(m, t), listen: (fn) => self.addEventListener('message', (e) => fn(e.data)) };
  }
  const { parentPort } = await import('node:worker_threads');
  return { post: (m, t) => parentPort.postMessage(m, t), listen: (fn) => parentPort.on('message', fn) };
}

let gm = null;

// A source as the client sent it (worker_client.js packSource) back into something load() takes.
function unpackSource(s) {
  switch (s.kind) {
    case 'url': return new URL(s.href);
    case 'response': {
      const response = new Response(s.body, { status: s.status, statusText: s.statusText, headers: s.headers });
      if (s.url) Object.defineProperty(response, 'url', { value: s.url });  // named in errors as in-thread
      return response;
    }
    default: return s.value;  // bytes, Blob, path or URL string
  }
}

function model() {
  if (!gm) throw new Error('no model loaded');  // the client never asks before load; a bug if it does
  return gm;
}

// Each method gets ({id, transfer}, ...args): `transfer` collects buffers that leave with the reply.
const methods = {
  async load({ id }, source, options) {
    const onProgress = options.progress ? (p) => port.post({ id, progress: p }) : undefined;
    const { allowUnsupported, threads } = options;  // threads: the worker's own runtime picks its build
    gm = await loadHere(unpackSource(source), { onProgress, allowUnsupported, threads });
    return { source: gm.source, threadInfo: gm.threadInfo };  // the worker's runtime is the model's alone
  },
  async run({ transfer }, inputs, options) {
    return packValue(await model().run(unpackValue(inputs), options), transfer);
  },
  printTabular: () => model().printTabular(),
  code: () => model().code,
  info: () => model().info(),
  runMemory: () => model().runMemory(),
  modules: () => model().modules(),
  tensors: () => model().tensors(),
  getTensor: ({ transfer }, name) => packValue(model().getTensor(name), transfer),
  inputNames: () => model().inputNames,
  check: (_, options) => model().check(options),
  reference: ({ transfer }) => packValue(model().reference(), transfer),
  applyPass: (_, name, options = {}) =>
    model().applyPass(name, options.inputs ? { ...options, inputs: unpackValue(options.inputs) } : options),
  quantizeWeights: (_, weights) => model().quantizeWeights(weights),
  save({ transfer }) {
    const bytes = model().save();
    transfer.add(bytes.buffer);
    return bytes;
  },
  dispose() {
    gm?.dispose();
    gm = null;
  },
};

function serve() {
  port.listen(async ({ id, method, args }) => {
    const transfer = new Set();
    try {
      if (!Object.hasOwn(methods, method)) throw new Error(`unknown request '${method}'`);
      const value = await methods[method]({ id, transfer }, ...args);
      port.post({ id, ok: true, value }, [...transfer]);
    } catch (e) {
      port.post({ id, ok: false, error: packError(e) });
    }
  });
  port.post({ ready: true });
}

connect().then((p) => {
  port = p;
  serve();
});
