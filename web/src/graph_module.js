// GraphModule: a model loaded into the WebAssembly core. Every method asks the core (the JS side never
// parses the file); a failed call throws FxError and leaves both this module and the runtime usable.
import { FxError } from './errors.js';
import { Graph } from './graph.js';
import { encodeRunValue, decodeRunValue, toPacked } from './marshal.js';
import { FxList, encodeValue, decodeValue } from './value.js';
import { Tensor } from './tensor.js';
import { getRuntime, threadsStartError } from './runtime.js';
import { threadInfo, threadsEnvironment } from './threads.js';
import { stringify } from './json.js';
import { unflattenOutputs } from './output_structure.js';

// The safety net behind dispose(): a GraphModule dropped without dispose() frees its wasm memory when
// the garbage collector reclaims it. dispose() stays the way to free memory promptly (GC timing is not
// promised, and wasm memory never shrinks, but freed blocks are reused).
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ rt, handle }) => {
    if (rt.broken) return;
    try {
      rt.call('fx_dispose', handle);
    } catch {
      // Nothing to report to: the module was unreachable.
    }
  })
  : null;

const PASSES = ['dce', 'constant_fold', 'fold_conv_bn', 'fuse', 'grow_caches', 'shape_prop'];
const TENSOR_KINDS = ['parameter', 'buffer', 'constant'];

export class GraphModule {
  #rt;
  #handle;
  #graph = null;
  #info = null;
  #version = 0;  // bumped by every change to the graph: cached views are re-read from the core

  #threads;  // {requested: load()'s threads option, env: threadsEnvironment() at load}

  /** @internal use load() */
  constructor(rt, handle, source, threads) {
    this.#rt = rt;
    this.#handle = handle;
    this.source = source;
    this.#threads = threads;
    finalizer?.register(this, { rt, handle }, this);
  }

  #live() {
    if (this.#handle === null) throw new FxError('this GraphModule was disposed');
    return this.#handle;
  }

  /**
   * The kernels' thread count this model's runs get now: its runtime's (models loaded into one runtime
   * share it; a later load with another `threads` value may change it).
   */
  get threads() {
    return this.#rt.threads ?? 1;
  }

  /**
   * {requested, threads, cores, reason}: the `threads` load() was asked for (null when not given), the
   * threads the runs get, this machine's cores, and why the two differ — not cross-origin isolated, no
   * SharedArrayBuffer, the pthreads build did not start, the cap — or what 'auto' became ('' when equal).
   */
  get threadInfo() {
    return threadInfo(this.#threads.requested, this.threads, this.#threads.env);
  }

  printTabular() {
    return this.#rt.call('fx_tabular', this.#live()).text;
  }

  get code() {
    return this.#rt.call('fx_code', this.#live()).text;
  }

  /** The graph: FX's Graph API over the core's graph (edits apply to this module). */
  get graph() {
    this.#live();
    if (!this.#graph) {
      this.#graph = new Graph({
        version: () => this.#version,
        graphJson: () => this.#rt.call('fx_graph', this.#live()).graph,
        edit: (command) => this.#edit(() => this.#rt.call('fx_edit', this.#live(), stringify(command))),
        tabular: () => this.printTabular(),
      });
    }
    return this.#graph;
  }

  // Runs a call that may change the graph; cached views are refreshed afterwards even if it failed
  // half-way (a failed edit changes nothing in the core, but a pass that failed may have).
  #edit(call) {
    try {
      return call();
    } finally {
      this.#version++;
      this.#info = null;
    }
  }

  /** Format version, producer, counts, inputs/outputs, parameters and unsupported ops (see index.d.ts). */
  info() {
    if (!this.#info) this.#info = this.#rt.call('fx_info', this.#live()).info;
    return structuredClone(this.#info);
  }

  /**
   * The module tree as stored in the file: {qualifiedName: {type, hparams}} ('' is the root), e.g.
   * {'conv1': {type: 'torch.nn.modules.conv.Conv2d', hparams: {in_channels: 3, kernel_size: [7, 7], …}}}.
   */
  modules() {
    const { modules } = this.#rt.call('fx_modules', this.#live());
    return Object.fromEntries(Object.entries(modules).map(([name, m]) => [name, {
      type: m.type,
      hparams: Object.fromEntries(Object.entries(m.hparams).map(([k, v]) => [k, decodeValue(v, { List: FxList })])),
    }]));
  }

  /** The named tensors: [{name, kind: 'parameter'|'buffer'|'constant', shape, dtype, bytes}], by name. */
  tensors() {
    return this.#rt.call('fx_tensors', this.#live()).tensors;
  }

  /** A copy of one named tensor (a parameter, buffer or constant) as a Tensor. */
  getTensor(name) {
    const handle = this.#live();
    const reply = this.#rt.call('fx_get_tensor', handle, String(name));
    try {
      return decodeRunValue(this.#rt, reply.tensor);
    } finally {
      this.#rt.call('fx_release', handle);
    }
  }

  /**
   * The runtime's tensor arena after the last run: {peak_bytes (the most tensor bytes the run held at once),
   * arena_bytes (the arena's size), fresh_blocks (buffers the run had to allocate; 0 once runs repeat their
   * shapes)}. Zeros before the first run.
   */
  runMemory() {
    const { peak_bytes, arena_bytes, fresh_blocks } = this.#rt.call('fx_run_memory', this.#live());
    return { peak_bytes, arena_bytes, fresh_blocks };
  }

  /**
   * Runs a graph pass in the core: 'dce', 'constant_fold', 'fold_conv_bn', 'fuse', 'grow_caches' or 'shape_prop' (shape
   * and dtype inference without running kernels, from {inputs} — an array of Tensors, only their shapes
   * and dtypes matter — or from the placeholders' meta shapes). The graph is
   * linted before and after. Returns whether the pass changed anything.
   */
  applyPass(name, options = {}) {
    if (!PASSES.includes(name)) throw new FxError(`applyPass: unknown pass '${name}' (known: ${PASSES.join(', ')})`);
    const handle = this.#live();
    if (name !== 'shape_prop') {
      return this.#edit(() => this.#rt.call('fx_edit', handle, stringify({ cmd: 'run_pass', pass: name }))).changed;
    }
    const blocks = [];
    try {
      const inputs = options.inputs ? this.#orderInputs(options.inputs) : [];
      const encoded = inputs.map((x, i) => encodeRunValue(this.#rt, x, blocks, `input #${i}`));
      return this.#edit(() => this.#rt.call('fx_shape_prop', handle, stringify(encoded))).changed;
    } finally {
      for (const ptr of blocks) this.#rt.free(ptr);
    }
  }

  /**
   * Stores the weights quantized (docs/format.md §7), as `fxwasm quantize` does: 'int8' or 'int4' for
   * Linear and Embedding weights (other float32 tensors float16), 'fp16' for every float32 tensor, 'fp32'
   * back to float32. The rewriting is the core's; save() then writes the quantized file. Returns how many
   * tensors are stored each way: {int8, int4, fp16, fp32}.
   */
  quantizeWeights(weights) {
    const handle = this.#live();
    const r = this.#edit(() => this.#rt.call('fx_edit', handle, stringify({ cmd: 'quantize_weights', weights })));
    return { int8: r.int8, int4: r.int4, fp16: r.fp16, fp32: r.fp32 };
  }

  /**
   * torch.fx.subgraph_rewriter.replace_pattern: replaces every non-overlapping match of `pattern`'s graph
   * by a copy of `replacement`'s (both GraphModules, e.g. built with fxwasm.create(); placeholders are
   * wildcards). Returns the matches: {anchor, nodesMap: {patternNodeName: Node | literal repr},
   * replacements: Node[]}.
   */
  replacePattern(pattern, replacement) {
    for (const [what, g] of [['pattern', pattern], ['replacement', replacement]]) {
      if (!(g instanceof GraphModule)) throw new FxError(`replacePattern: the ${what} must be a GraphModule`);
      if (g.#rt !== this.#rt) throw new FxError(`replacePattern: the ${what} was loaded by another runtime instance`);
    }
    const { matches } = this.#edit(() =>
      this.#rt.call('fx_replace_pattern', this.#live(), pattern.#live(), replacement.#live()));
    const g = this.graph;
    return matches.map((m) => ({
      anchor: g.find(m.anchor) ?? m.anchor,
      nodesMap: Object.fromEntries(Object.entries(m.nodes_map).map(([p, n]) => [p, g.find(n) ?? n])),
      replacements: m.replacements.map((n) => g.find(n)),
    }));
  }

  /** Adds (or replaces) a tensor of the module, for get_attr nodes: kind 'parameter', 'buffer' or 'constant'. */
  addTensor(name, tensor, kind = 'parameter') {
    if (!(tensor instanceof Tensor)) throw new FxError('addTensor: expected a Tensor (fxwasm.tensor(data, shape))');
    if (!TENSOR_KINDS.includes(kind)) throw new FxError(`addTensor: kind must be one of ${TENSOR_KINDS.join(', ')}`);
    const handle = this.#live();
    const blocks = [];
    try {
      const wire = encodeRunValue(this.#rt, tensor, blocks, `tensor '${name}'`);
      this.#edit(() => this.#rt.call('fx_add_tensor', handle, String(name), stringify(wire), kind));
    } finally {
      for (const ptr of blocks) this.#rt.free(ptr);
    }
  }

  /**
   * Adds (or replaces) a submodule for call_module nodes: its qualified class name (e.g.
   * 'torch.nn.modules.linear.Linear') and constructor hyperparameters; its tensors go in with addTensor
   * ('fc.weight', 'fc.bias').
   */
  addModule(name, type, hparams = {}) {
    const encoded = Object.fromEntries(Object.entries(hparams).map(([k, v]) => [k, encodeValue(v, { where: `hparams.${k}` })]));
    this.#edit(() => this.#rt.call('fx_edit', this.#live(), stringify({ cmd: 'add_module', name, type, hparams: encoded })));
  }

  /**
   * As torch's GraphModule.recompile(). Here code, printTabular() and run() always reflect the current
   * graph (the runtime is rebuilt on the next run after an edit), so this only checks the graph (lint).
   */
  recompile() {
    this.graph.lint();
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
    const result = this.#runFlat(inputs, options);
    // The nesting the graph's code returns (an export's ModelOutput fields by name): from the cached info.
    if (!this.#info) this.info();
    const structure = this.#info.output_structure;
    if (options.profile) return { ...result, outputs: unflattenOutputs(result.outputs, structure) };
    return unflattenOutputs(result, structure);
  }

  /** One run, the output as the graph's output node gives it (before the pytree nesting). */
  #runFlat(inputs, options) {
    const handle = this.#live();
    const ordered = this.#orderInputs(inputs);
    const rt = this.#rt;
    const blocks = [];
    let reply;
    let handedOver = false;  // from the run call on, the core owns (and frees) the input blocks
    try {
      const encoded = ordered.map((x, i) => encodeRunValue(rt, x, blocks, `input #${i}`));
      // The usual inputs (tensors in tuples and lists) go packed, the rest as JSON text (marshal.js).
      const packed = toPacked(encoded, rt.wireDtypes.codes);
      const d = rt.scratch(blocks.length + (packed ? packed.length : 0));  // after the copies: a growing heap moves it
      blocks.forEach((ptr, i) => { d[i] = ptr; });
      if (packed) d.set(packed, blocks.length);
      handedOver = true;
      reply = rt.call('fx_run', handle, packed ? '' : stringify(encoded), blocks.length, packed ? packed.length : 0,
        !!options.profile, !!options.resident && !options.profile);
    } finally {
      if (!handedOver) for (const ptr of blocks) rt.free(ptr);
    }
    try {
      const outputs = decodeRunValue(rt, reply.outputs);
      return options.profile ? { outputs, profile: reply.profile } : outputs;
    } finally {
      rt.callRaw('fx_release_outputs', handle);
    }
  }

  /**
   * Runs the graph once. `inputs`: an array (one per placeholder) or {name: value}. Values are Tensors,
   * ResidentTensors, numbers, booleans, null, or arrays/objects of them. Resolves to the output with FX's
   * nesting; with {profile: true} to {outputs, profile} where profile lists every node with its time in ms.
   * {resident: true} keeps the output tensors in the runtime as ResidentTensors (when the output holds only
   * tensors, in tuples and lists, whatever its nesting in JS): given back as inputs they are not copied, and
   * a cache the graph grows with torch.cat is appended to in place — a decoding loop's KV caches.
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
      return { inputs: decodeRunValue(this.#rt, reply.inputs), outputs: decodeRunValue(this.#rt, reply.outputs) };
    } finally {
      this.#rt.call('fx_release', handle);
    }
  }

  /**
   * Runs the stored reference inputs and compares with the stored outputs, as torch.allclose does:
   * infinities match only the same infinity, NaN matches nothing unless `equalNan` (torch's equal_nan=True).
   * Resolves to {status: 'pass'|'fail'|'no_reference', rtol, atol, equal_nan, outputs: [{path, pass, max_abs, max_rel, …}]}.
   */
  async check({ rtol = 1e-4, atol = 1e-5, equalNan = false } = {}) {
    return this.#rt.call('fx_check', this.#live(), rtol, atol, !!equalNan).report;
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

  /** A new GraphModule with an empty graph (the same as fxwasm.create()). */
  static async empty() {
    const rt = await getRuntime();
    return GraphModule._empty(rt, await threadsEnvironment(threadsStartError()));
  }

  /** @internal a new module with an empty graph; `threadsEnv`: threadsEnvironment() */
  static _empty(rt, threadsEnv) {
    const { handle } = rt.call('fx_new');
    return new GraphModule(rt, handle, '<new>', { requested: undefined, env: threadsEnv });
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
    finalizer?.unregister(this);
    try {
      this.#rt.call('fx_dispose', handle);
    } catch {
      // A broken runtime already lost the model; nothing is left to free.
    }
  }
}
