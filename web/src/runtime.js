// Loads the WebAssembly core once and is the only place that calls into it. The build lives in
// ../dist/ (fxwasm.mjs + fxwasm.wasm), located with `new URL(…, import.meta.url)` so bundlers find it.
// In Node, the loader's own fetch of a file path fails, so the bytes are read with fs and passed as
// wasmBinary. A wasm trap (which C++ code never causes on purpose: every bound call catches) marks the
// instance broken; the next load() starts a fresh one, so a failure never leaves the package unusable.
import { FxError, unwrapReply } from './errors.js';

const WASM_URL = new URL('../dist/fxwasm.wasm', import.meta.url);
const isNode = typeof process !== 'undefined' && !!process.versions?.node;

let current = null;  // Promise<Runtime> of the live instance

class Runtime {
  constructor(module, log) {
    this.module = module;
    this.log = log;  // the module's own stdout/stderr lines, kept for diagnosis instead of printed
    this.broken = null;
  }

  get heap() {
    return this.module.HEAPU8;  // re-read on every use: memory growth replaces the buffer
  }

  /** Calls a bound function returning a JSON reply; a failure reply throws FxError. */
  call(name, ...args) {
    if (this.broken) throw new FxError(`the WebAssembly runtime stopped earlier (${this.broken}); load the model again`);
    let text;
    try {
      text = this.module[name](...args);
    } catch (e) {
      // Only a trap or an abort gets here: record it and start afresh on the next load().
      this.broken = e && e.message ? e.message.split('\n')[0] : String(e);
      if (current && this === currentRuntime) current = null;
      throw new FxError(`internal error in the WebAssembly runtime during ${name}: ${this.broken}`, { cause: e });
    }
    return unwrapReply(text);
  }

  malloc(nbytes) {
    const ptr = this.module._malloc(Math.max(1, nbytes));
    if (!ptr) throw new FxError(`out of memory: cannot allocate ${nbytes} bytes in the WebAssembly heap`);
    return ptr;
  }

  free(ptr) {
    if (ptr) this.module._free(ptr);
  }

  /** Copies bytes into a fresh heap block; the caller frees it. */
  copyIn(bytes) {
    const ptr = this.malloc(bytes.byteLength);
    this.heap.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), ptr);
    return ptr;
  }

  /** A copy of heap bytes (safe after the block is freed or the heap grows). */
  copyOut(ptr, nbytes) {
    return this.heap.slice(ptr, ptr + nbytes);
  }
}

let currentRuntime = null;

async function instantiate() {
  let factory;
  try {
    factory = (await import('../dist/fxwasm.mjs')).default;
  } catch (e) {
    throw new FxError('the WebAssembly build (web/dist/fxwasm.mjs) is missing or broken: run `npm run build`', { cause: e });
  }
  const log = [];
  const options = {
    print: (line) => log.push(line),
    printErr: (line) => log.push(line),
  };
  if (isNode) {
    const fs = await import('node:fs/promises');
    try {
      options.wasmBinary = await fs.readFile(WASM_URL);
    } catch (e) {
      throw new FxError('the WebAssembly build (web/dist/fxwasm.wasm) is missing: run `npm run build`', { cause: e });
    }
  } else {
    options.locateFile = (file) => (file.endsWith('.wasm') ? WASM_URL.href : file);
  }
  let module;
  try {
    module = await factory(options);
  } catch (e) {
    throw new FxError(`cannot start the WebAssembly runtime: ${e && e.message ? e.message : e}`, { cause: e });
  }
  currentRuntime = new Runtime(module, log);
  return currentRuntime;
}

/** The live runtime, started on first use. */
export function getRuntime() {
  if (!current) {
    current = instantiate();
    current.catch(() => { current = null; });  // a failed start can be retried
  }
  return current;
}
