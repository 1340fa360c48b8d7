// GraphModule: a model loaded into the WebAssembly core. Every method asks the core (the JS side never
// parses the file); a failed call throws FxError and leaves both this module and the runtime usable.
import { FxError } from './errors.js';
import { Graph } from './graph.js';
import { encodeValue, decodeValue } from './marshal.js';

export class GraphModule {
  #rt;
  #handle;
  #graph = null;
  #info = null;

  /** @internal use load() */
  constructor(rt, handle, source) {
    this.#rt = rt;
    this.#handle = handle;
    this.source = source;
  }

  #live() {
    if (this.#handle === null) throw new FxError('this GraphModule was disposed');
    return this.#handle;
  }

  printTabular() {
    return this.#rt.call('fx_tabular', this.#live()).text;
  }

  get code() {
    return this.#rt.call('fx_code', this.#live()).text;
  }

  get graph() {
    if (!this.#graph) this.#graph = new Graph(this.#rt.call('fx_graph', this.#live()).graph);
    return this.#graph;
  }

  /** Format version, producer, counts, inputs/outputs, parameters and unsupported ops (see index.d.ts). */
  info() {
    if (!this.#info) this.#info = this.#rt.call('fx_info', this.#live()).info;
    return structuredClone(this.#info);
  }

  /** Placeholder names, in the order run() takes inputs. */
  get inputNames() {
    return this.info().inputs.map((i) => i.name);
  }

  #orderInputs(inputs) {
    if (Array.isArray(inputs)) return inputs;
    if (inputs === null || typeof inputs !== 'object') {
      throw new FxError('run(): inputs must be an array or an object mapping input names to values');
    }
    const placeholders = this.info().inputs;
    const known = new Set(placeholders.flatMap((p) => [p.name, p.target]));
    for (const key of Object.keys(inputs)) {
      if (!known.has(key)) {
        throw new FxError(`run(): unknown input '${key}' (inputs: ${placeholders.map((p) => p.name).join(', ')})`);
      }
    }
    return placeholders.map((p) => {
      if (p.name in inputs) return inputs[p.name];
      if (p.target in inputs) return inputs[p.target];
      throw new FxError(`run(): missing input '${p.name}'`, { node: p.name });
    });
  }

  /** The same call as run(), synchronously. */
  runSync(inputs, options = {}) {
    const handle = this.#live();
    const ordered = this.#orderInputs(inputs);
    const blocks = [];
    let reply;
    try {
      const encoded = ordered.map((x, i) => encodeValue(this.#rt, x, blocks, `#${i}`));
      reply = this.#rt.call('fx_run', handle, JSON.stringify(encoded), !!options.profile);
    } finally {
      for (const ptr of blocks) this.#rt.free(ptr);
    }
    try {
      const outputs = decodeValue(this.#rt, reply.outputs);
      return options.profile ? { outputs, profile: reply.profile } : outputs;
    } finally {
      this.#rt.call('fx_release', handle);
    }
  }

  /**
   * Runs the graph once. `inputs`: an array (one per placeholder) or {name: value}. Values are Tensors,
   * numbers, booleans, null, or arrays/objects of them. Resolves to the output with FX's nesting; with
   * {profile: true} to {outputs, profile} where profile lists every node with its time in ms.
   */
  async run(inputs, options = {}) {
    return this.runSync(inputs, options);
  }

  /** The reference inputs and outputs stored in the file, or null when it has none. */
  reference() {
    const handle = this.#live();
    const reply = this.#rt.call('fx_reference', handle);
    if (!reply.present) return null;
    try {
      return { inputs: decodeValue(this.#rt, reply.inputs), outputs: decodeValue(this.#rt, reply.outputs) };
    } finally {
      this.#rt.call('fx_release', handle);
    }
  }

  /**
   * Runs the stored reference inputs and compares with the stored outputs, as torch.allclose does.
   * Resolves to {status: 'pass'|'fail'|'no_reference', rtol, atol, outputs: [{path, pass, max_abs, max_rel, …}]}.
   */
  async check({ rtol = 1e-4, atol = 1e-5 } = {}) {
    return this.#rt.call('fx_check', this.#live(), rtol, atol).report;
  }

  /** The model in the .fxw format. */
  save() {
    const handle = this.#live();
    const reply = this.#rt.call('fx_save', handle);
    try {
      return this.#rt.copyOut(reply.ptr, reply.nbytes);
    } finally {
      this.#rt.call('fx_release', handle);
    }
  }

  get disposed() {
    return this.#handle === null;
  }

  /** Frees the model's wasm memory; any later use throws FxError. Calling it twice is harmless. */
  dispose() {
    if (this.#handle === null) return;
    const handle = this.#handle;
    this.#handle = null;
    this.#graph = null;
    try {
      this.#rt.call('fx_dispose', handle);
    } catch {
      // A broken runtime already lost the model; nothing is left to free.
    }
  }
}
