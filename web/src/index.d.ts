// Types of the fxwasm JavaScript API (web/src/index.js).

export type DType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int64' | 'int32' | 'int16' | 'int8' | 'uint8' | 'bool' | 'complex64' | 'complex128';

/**
 * The TypedArray holding each dtype (float16/bfloat16: raw bits in a Uint16Array; complex64/complex128:
 * interleaved (real, imaginary) pairs in a Float32Array/Float64Array, twice numel values).
 */
export type TensorData =
  | Float32Array | Float64Array | Uint16Array | BigInt64Array | Int32Array | Int16Array | Int8Array | Uint8Array;

export class Tensor {
  constructor(data: ArrayLike<number | bigint | boolean>, shape: number[], dtype: DType);
  readonly data: TensorData;
  readonly shape: number[];
  readonly dtype: DType;
  /** Number of elements. */
  readonly size: number;
  /** The raw little-endian bytes (a view of data). */
  bytes(): Uint8Array;
  toString(): string;
}

/**
 * A run's output kept in the WebAssembly runtime (run(inputs, {resident: true})): given back as an input it
 * is not copied, and a cache the graph grows with torch.cat is appended to in place (a decoder's KV caches).
 * Belongs to the runtime that made it (one per thread count); not available in worker mode.
 */
export class ResidentTensor {
  readonly shape: number[];
  readonly dtype: DType;
  /** Number of elements. */
  readonly size: number;
  /** Whether dispose() was called. */
  readonly disposed: boolean;
  /** The values as a TypedArray (a copy): toTensor().data. */
  readonly data: TensorData;
  /** A JS copy of the values. */
  toTensor(): Tensor;
  /** Frees the runtime's memory now (garbage collection frees it too, eventually). Twice is harmless. */
  dispose(): void;
}

type NestedArray<T> = T | NestedArray<T>[];

/**
 * Makes a Tensor from a TypedArray, a (nested) array or a scalar. `shape` defaults to the data's own,
 * `dtype` to the data's (Float32Array → float32, BigInt64Array → int64, numbers → float32, booleans → bool).
 */
export function tensor(
  data: TensorData | NestedArray<number> | NestedArray<boolean> | NestedArray<bigint> | number | boolean | bigint | Tensor,
  shape?: number[],
  dtype?: DType,
): Tensor;

/**
 * A random tensor: standard normal floats (torch.randn's distribution; float16/bfloat16 rounded from it),
 * integers 0..9, coin flips for bool. With `random` = seededRandom(seed), the same tensors as the CLI's
 * `run --random --seed N` and the playground's seeded inputs (one generator, inputs in placeholder order).
 */
export function randomTensor(shape: number[], dtype?: DType, random?: () => number): Tensor;
/** A seeded generator of numbers in [0, 1) (mulberry32), e.g. randomTensor's `random`. */
export function seededRandom(seed: number): () => number;

/** Every failure of the package: a bad file, an unsupported op, a wrong input, use after dispose… */
export class FxError extends Error {
  constructor(message: string, options?: { node?: string | null; cause?: unknown });
  readonly name: 'FxError';
  /** The graph node the failure concerns, when there is one. */
  readonly node: string | null;
}

/** What a run takes and returns: FX's values with tensors as Tensor. */
export type RunValue =
  | Tensor | ResidentTensor | number | boolean | string | null
  | RunValue[]
  | { [key: string]: RunValue };

export type Op = 'placeholder' | 'get_attr' | 'call_function' | 'call_module' | 'call_method' | 'output';

/** A Python list among node arguments; a plain Array stands for a tuple. */
export class FxList<T = ArgValue> extends Array<T> {}
/** Marks items as a Python list (not a tuple) in node arguments. */
export function list<T extends ArgValue>(items: Iterable<T>): FxList<T>;
/** A float argument whose value is integral (2 → 2.0): a JS number 2 becomes the int 2. */
export function float(x: number): { $float: number | 'inf' | '-inf' | 'nan' };

/**
 * An argument value as the graph holds it (docs/format.md §3, decoded: nodes as Node, tuples as arrays,
 * lists as FxList, dicts as objects). When setting args, an Array is a tuple and a number is an int when
 * integral, else a float.
 */
export type ArgValue =
  | Node | number | boolean | string | null
  | ArgValue[]
  | { [key: string]: ArgValue }
  | { $dtype: string } | { $device: string } | { $memory_format: string } | { $layout: string }
  | { $size: ArgValue[] } | { $slice: ArgValue[] } | { $ellipsis: null } | { $float: number | string };

/**
 * One node of a Graph: a handle the core keeps consistent — every property is read from the current
 * graph, so it reflects edits made anywhere (including passes). Reading an erased node throws FxError.
 */
export class Node {
  readonly graph: Graph;
  readonly name: string;
  readonly op: Op;
  /** call_function: canonical qualified name ("torch.abs"); call_method: method name; others: a path. */
  target: string;
  /** Type annotation as FX code prints it, or null. */
  readonly type: string | null;
  /** Setting replaces all args; users of old and new inputs stay in sync. */
  get args(): ArgValue[];
  set args(args: ArgValue[]);
  get kwargs(): { [key: string]: ArgValue };
  set kwargs(kwargs: { [key: string]: ArgValue });
  readonly users: Node[];
  /** shape ({$size}), dtype ({$dtype}), stack_trace, … when known. */
  readonly meta: { [key: string]: ArgValue };
  /** The node exactly as encoded in the format (format.md §3). */
  readonly raw: unknown;
  readonly allInputNodes: Node[];
  /** The next / previous node in the graph, or null at the ends. */
  readonly next: Node | null;
  readonly prev: Node | null;
  /** Whether the node was erased from its graph. */
  readonly erased: boolean;
  updateArg(index: number, value: ArgValue): void;
  updateKwarg(key: string, value: ArgValue): void;
  /** Every user (or those passing filter) uses `replacement` instead; returns the users that changed. */
  replaceAllUsesWith(replacement: Node, options?: { filter?: (user: Node) => boolean }): Node[];
  replaceInputWith(oldInput: Node, newInput: Node): void;
  /** Moves x to just before this node. */
  prepend(x: Node): void;
  /** Moves x to just after this node. */
  append(x: Node): void;
  toString(): string;
}

/** FX's Graph: the nodes in order and the editing API. Every edit is applied by the core. */
export class Graph implements Iterable<Node> {
  /** The nodes in order (a fresh array: editing while walking it is safe). */
  readonly nodes: Node[];
  find(name: string): Node | undefined;
  readonly placeholders: Node[];
  readonly outputNode: Node | undefined;
  [Symbol.iterator](): Iterator<Node>;
  /** An input of forward; the node's name derives from `name` as FX derives it. */
  placeholder(name: string, options?: { typeExpr?: string | null }): Node;
  getAttr(qualifiedName: string): Node;
  callFunction(target: string, args?: ArgValue[], kwargs?: { [key: string]: ArgValue }): Node;
  callMethod(method: string, args?: ArgValue[], kwargs?: { [key: string]: ArgValue }): Node;
  callModule(modulePath: string, args?: ArgValue[], kwargs?: { [key: string]: ArgValue }): Node;
  /** What forward returns (an Array is a tuple). */
  output(result: ArgValue, options?: { typeExpr?: string | null }): Node;
  createNode(op: Op, target: string, args?: ArgValue[], kwargs?: { [key: string]: ArgValue },
             name?: string | null, typeExpr?: string | null): Node;
  /** Runs fn with new nodes going just before `node` (null: at the start); returns fn's result. */
  insertingBefore<T>(node: Node | null, fn: (graph: Graph) => T): T;
  /** Runs fn with each new node going just after `node` (null: at the end); returns fn's result. */
  insertingAfter<T>(node: Node | null, fn: (graph: Graph) => T): T;
  /** FxError (naming the node) when it still has users. */
  eraseNode(node: Node): void;
  /** FxError naming the offending node when the graph is malformed. */
  lint(): void;
  /** Returns whether anything was removed. */
  eliminateDeadCode(): boolean;
  printTabular(): string;
}

export type PassName = 'dce' | 'constant_fold' | 'fold_conv_bn' | 'fuse' | 'grow_caches' | 'shape_prop';

export interface PatternMatch {
  /** The graph node matched by the pattern's (first) anchor. */
  anchor: Node | string;
  /** Pattern node name → the graph node it matched (or a literal's repr for a placeholder bound to one). */
  nodesMap: { [patternNode: string]: Node | string };
  /** The nodes copied in from the replacement. */
  replacements: Node[];
}

export interface TensorInfo {
  name: string;
  target: string;
  /** From the node's meta when the exporter recorded it. */
  shape: number[] | null;
  dtype: DType | string | null;
}

export interface RunMemory {
  peak_bytes: number;
  arena_bytes: number;
  fresh_blocks: number;
}

export type OutputStructure = null | OutputStructure[] | { [field: string]: OutputStructure };

export interface ModelInfo {
  format: string;
  format_version: string;
  producer: { torch: string; exporter: string; tracer: string };
  nodes: number;
  /** Node count per op kind, e.g. {placeholder: 2, call_function: 4, …}. */
  ops: { [op: string]: number };
  /** Node count per call target, e.g. {"torch.abs": 1, …}. */
  targets: { [target: string]: number };
  inputs: TensorInfo[];
  outputs: { name: string; shape: unknown; dtype: unknown }[];
  /**
   * Present for graphs whose code rebuilds a structure around the flat outputs (torch.export, concrete_args):
   * arrays for tuples/lists, objects for dicts and ModelOutputs, null for each flat output in order (null
   * alone: one output). run() returns its outputs in this nesting, as torch's GraphModule does.
   */
  output_structure?: OutputStructure;
  parameters: { count: number; tensors: number; bytes: number };
  buffers: { count: number; tensors: number; bytes: number };
  has_reference: boolean;
  /** Ops the runtime cannot run, with the nodes using them. */
  unsupported: { kind: 'function' | 'method' | 'module' | 'attribute'; target: string; nodes: string[] }[];
  [key: string]: unknown;
}

export interface ProfileEntry {
  op: Op;
  name: string;
  target: string;
  shape: unknown;
  dtype: string | null;
  /** What the node produced, e.g. "Tensor(float32, [10])". */
  result: string;
  ms: number;
  /** Only for a node the runtime ran inside another at load (epilogue fusion): that node's name. Its
   * time (ms 0 here) is counted there. */
  fused_into?: string;
}

/** A profile entry with the median over timed runs (profileRuns / medianProfile). */
export interface MedianProfileEntry extends ProfileEntry {
  /** The median of runs_ms. */
  ms: number;
  min_ms: number;
  max_ms: number;
  runs_ms: number[];
}

/** One row of groupProfile (torch.profiler's key_averages). */
export interface ProfileGroup {
  key: string;
  count: number;
  total_ms: number;
  mean_ms: number;
  /** Of the profile's total time, 0..1. */
  share: number;
}

export interface CheckOutput {
  path: string;
  pass: boolean;
  max_abs: number | 'inf' | 'nan';
  max_rel: number | 'inf' | 'nan';
  mismatched: number;
  numel: number;
  expected: string;
  actual: string;
  message?: string;
}

export interface CheckReport {
  status: 'pass' | 'fail' | 'no_reference';
  rtol: number;
  atol: number;
  /** Whether NaN counted as equal to NaN (the `equalNan` option). */
  equal_nan: boolean;
  outputs: CheckOutput[];
}

export interface RunOptions {
  profile?: boolean;
  /**
   * Keep the output tensors in the runtime as ResidentTensors (when the graph's output holds only tensors in
   * tuples and lists, and None; other outputs come back as Tensors). Not with profile; not in worker mode.
   */
  resident?: boolean;
}

export type RunInputs = RunValue[] | { [name: string]: RunValue };

/** The threads a model's runs get, and why when they are not the ones asked for. */
export interface ThreadInfo {
  /** load()'s `threads` option; null when it was not given. */
  requested: number | 'auto' | null;
  /** The kernels' thread count the model's runs get (1 where the pthreads build cannot run). */
  threads: number;
  /** This machine's cores (navigator.hardwareConcurrency, os.availableParallelism()). */
  cores: number;
  /**
   * '' when `threads` is what was asked; otherwise why: "the page is not cross-origin isolated (it needs
   * COOP/COEP headers), so no SharedArrayBuffer: one thread", "no SharedArrayBuffer here…", "the pthreads
   * build did not start (…): one thread", "at most 16 threads", "more threads than the 2 cores here, as
   * asked"; for 'auto', what it became ("auto: 2 cores, at most 4").
   */
  reason: string;
}

export class GraphModule {
  /** Where the model came from (path, URL, "<bytes>"…). */
  readonly source: string;
  /**
   * The kernels' thread count this model's runs get now: its runtime's (models loaded into one runtime
   * share it; a later load with another `threads` may change it).
   */
  readonly threads: number;
  /** The threads asked for, those the runs get, the cores, and why they differ. */
  readonly threadInfo: ThreadInfo;
  /** The graph as torch.fx.Graph.print_tabular prints it. */
  printTabular(): string;
  /** The Python source of forward, as GraphModule.code. */
  readonly code: string;
  /** FX's Graph API over this module's graph; edits show in printTabular, code and the next run. */
  readonly graph: Graph;
  info(): ModelInfo;
  /**
   * The runtime's tensor arena after the last run: the most tensor bytes that run held at once, the arena's
   * size, and the buffers it had to allocate (0 when it reused earlier runs' buffers). Zeros before a run.
   */
  runMemory(): RunMemory;
  /** The module tree as stored: qualified name ('' = root) → class and constructor hyperparameters. */
  modules(): Record<string, ModuleEntry>;
  /** The named tensors, by name. */
  tensors(): TensorEntry[];
  /** A copy of one named tensor. */
  getTensor(name: string): Tensor;
  /** Runs a pass in the core (graph linted before and after); returns whether it changed anything. */
  applyPass(name: PassName, options?: { inputs?: RunInputs }): boolean;
  /** Stores the weights quantized (docs/format.md §7), as `fxwasm quantize`; counts of tensors stored each way. */
  quantizeWeights(weights: 'int8' | 'int4' | 'fp16' | 'fp32'): { int8: number; int4: number; fp16: number; fp32: number };
  /** torch.fx replace_pattern with two GraphModules (e.g. from fxwasm.create()); returns the matches. */
  replacePattern(pattern: GraphModule, replacement: GraphModule): PatternMatch[];
  /** Adds (or replaces) a tensor for get_attr nodes or a module's parameters ("fc.weight"). */
  addTensor(name: string, tensor: Tensor, kind?: 'parameter' | 'buffer' | 'constant'): void;
  /** Adds (or replaces) a submodule for call_module nodes: qualified class name and hyperparameters. */
  addModule(name: string, type: string, hparams?: { [key: string]: ArgValue }): void;
  /** As torch's recompile(); views are always current here, so this only lints the graph. */
  recompile(): void;
  /** A new module with an empty graph (the same as fxwasm.create()). */
  static empty(): Promise<GraphModule>;
  /** Placeholder names, in the order run() takes inputs. */
  readonly inputNames: string[];
  run(inputs: RunInputs, options?: { profile?: false; resident?: boolean }): Promise<RunValue>;
  run(inputs: RunInputs, options: { profile: true }): Promise<{ outputs: RunValue; profile: ProfileEntry[] }>;
  runSync(inputs: RunInputs, options?: { profile?: false; resident?: boolean }): RunValue;
  runSync(inputs: RunInputs, options: { profile: true }): { outputs: RunValue; profile: ProfileEntry[] };
  /** The reference inputs/outputs stored in the file, or null. */
  reference(): { inputs: RunValue[]; outputs: RunValue } | null;
  check(options?: { rtol?: number; atol?: number; equalNan?: boolean }): Promise<CheckReport>;
  save(): Uint8Array;
  readonly disposed: boolean;
  /** Frees wasm memory; later use throws FxError. */
  dispose(): void;
}

export interface LoadOptions {
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
  /**
   * Load for inspection even when the graph uses ops the runtime cannot run (print, code, info, graph
   * editing work; run/check then throw). Without it, such a file is rejected at load with one FxError
   * naming every unsupported target and the nodes using it.
   */
  allowUnsupported?: boolean;
  /**
   * Run the model off the main thread: it loads and runs in a Worker of its own (worker_threads in Node),
   * and load() resolves to a WorkerGraphModule, whose calls are all async.
   */
  worker?: boolean;
  /**
   * Threads for the kernels (GEMM, convolution): a count, or 'auto' (the machine's cores, at most 4).
   * Above 1 the pthreads build (fxwasm-threads.wasm) runs where the environment allows it — Node, and
   * crossOriginIsolated pages — and one thread otherwise. Outputs do not depend on the count. Unset: the
   * runtime's current setting (1 at first). A count above the cores is honoured (and said in
   * gm.threadInfo.reason); 'auto' never exceeds them. gm.threads / gm.threadInfo say what the runs get.
   */
  threads?: number | 'auto';
}

/**
 * A model in a Worker (fxwasm.load(source, {worker: true})): GraphModule's calls, all async — `await`
 * works the same on both. Not available: the Graph API (graph and editing) and runSync.
 */
export class WorkerGraphModule {
  readonly source: string;
  /** The kernels' threads in the worker's runtime (the model's alone). */
  readonly threads: number;
  /** As GraphModule.threadInfo, for the worker's runtime. */
  readonly threadInfo: ThreadInfo;
  printTabular(): Promise<string>;
  /** A Promise of the Python source of forward. */
  readonly code: Promise<string>;
  info(): Promise<ModelInfo>;
  modules(): Promise<Record<string, ModuleEntry>>;
  tensors(): Promise<TensorEntry[]>;
  getTensor(name: string): Promise<Tensor>;
  runMemory(): Promise<RunMemory>;
  /** A Promise of the placeholder names. */
  readonly inputNames: Promise<string[]>;
  /** As GraphModule.run; with `transfer: true` the input tensors' buffers move to the worker (detached here). */
  run(inputs: RunInputs, options?: { profile?: false; transfer?: boolean }): Promise<RunValue>;
  run(inputs: RunInputs, options: { profile: true; transfer?: boolean }): Promise<{ outputs: RunValue; profile: ProfileEntry[] }>;
  reference(): Promise<{ inputs: RunValue[]; outputs: RunValue } | null>;
  check(options?: { rtol?: number; atol?: number; equalNan?: boolean }): Promise<CheckReport>;
  applyPass(name: PassName, options?: { inputs?: RunInputs }): Promise<boolean>;
  quantizeWeights(weights: 'int8' | 'int4' | 'fp16' | 'fp32'): Promise<{ int8: number; int4: number; fp16: number; fp32: number }>;
  save(): Promise<Uint8Array>;
  /** Throws FxError: the Graph API needs the model on this thread. */
  readonly graph: never;
  /** Throws FxError: use `await gm.run()`. */
  runSync(inputs: RunInputs, options?: RunOptions): never;
  readonly disposed: boolean;
  /** Stops the worker (freeing its memory); pending and later calls reject with FxError. */
  dispose(): Promise<void>;
}

export type Source = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | Response | URL | string;

export function load(source: Source, options: LoadOptions & { worker: true }): Promise<WorkerGraphModule>;
export function load(source: Source, options?: LoadOptions & { worker?: false }): Promise<GraphModule>;
export function load(source: Source, options?: LoadOptions): Promise<GraphModule | WorkerGraphModule>;
export function save(gm: GraphModule): Uint8Array;
export function save(gm: WorkerGraphModule): Promise<Uint8Array>;
/** A new GraphModule with an empty graph, to build a program from scratch. */
export function create(): Promise<GraphModule>;
export interface ModuleEntry { type: string; hparams: Record<string, unknown> }
export interface TensorEntry {
  name: string; kind: 'parameter' | 'buffer' | 'constant'; shape: number[]; dtype: DType; bytes: number;
}
/** Every call_function target, call_method name and leaf module type the runtime runs, each sorted. */
export interface SupportedOps { functions: string[]; methods: string[]; modules: string[] }
export function supportedOps(): Promise<SupportedOps>;

export function readNpy(bytes: Uint8Array, name?: string): Tensor;
export function writeNpy(t: Tensor): Uint8Array;
export function readNpz(bytes: Uint8Array, name?: string): { [name: string]: Tensor };
/** Reads any .npz, np.savez_compressed's too (deflate, decompressed with DecompressionStream). */
export function readNpzAsync(bytes: Uint8Array, name?: string): Promise<{ [name: string]: Tensor }>;
export function writeNpz(tensors: { [name: string]: Tensor }): Uint8Array;

/** Runs `warmup` times untimed, then `runs` times profiled; the profile holds each node's median. */
export function profileRuns(gm: GraphModule | WorkerGraphModule, inputs: RunInputs, options?: { runs?: number; warmup?: number }):
  Promise<{ outputs: RunValue; profile: MedianProfileEntry[]; runs: ProfileEntry[][]; wall_ms: number[]; warmup: number }>;
/** The per-node median of several profiles of one graph. */
export function medianProfile(profiles: ProfileEntry[][]): MedianProfileEntry[];
/** Sums a profile by op type (by: 'op', the default) or module class ('module'), slowest first. */
export function groupProfile(profile: ProfileEntry[], modules?: Record<string, ModuleEntry>, by?: 'op' | 'module'): ProfileGroup[];
/** The group key of one profile entry: as groupProfile keys it. */
export function profileKey(entry: ProfileEntry, modules?: Record<string, ModuleEntry>, by?: 'op' | 'module'): string;
/** Profiles as a Chrome trace (Trace Event Format JSON: "X" events, ts/dur in µs) that Perfetto opens. */
export function chromeTrace(runs: ProfileEntry[][], options?: { name?: string; modules?: Record<string, ModuleEntry> }):
  { traceEvents: object[]; displayTimeUnit: 'ms' };
