// Types of the fxwasm JavaScript API (web/src/index.js).

export type DType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int64' | 'int32' | 'int16' | 'int8' | 'uint8' | 'bool';

/** The TypedArray holding each dtype (float16/bfloat16: raw bits in a Uint16Array). */
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

/** Uniform in [-1, 1) for floats, 0..9 for integers, coin flips for bool. */
export function randomTensor(shape: number[], dtype?: DType, random?: () => number): Tensor;

/** Every failure of the package: a bad file, an unsupported op, a wrong input, use after dispose… */
export class FxError extends Error {
  constructor(message: string, options?: { node?: string | null; cause?: unknown });
  readonly name: 'FxError';
  /** The graph node the failure concerns, when there is one. */
  readonly node: string | null;
}

/** What a run takes and returns: FX's values with tensors as Tensor. */
export type RunValue =
  | Tensor | number | boolean | string | null
  | RunValue[]
  | { [key: string]: RunValue };

export type Op = 'placeholder' | 'get_attr' | 'call_function' | 'call_module' | 'call_method' | 'output';

/** An argument value as the graph holds it (docs/format.md §3, decoded: nodes resolved, tuples as arrays). */
export type ArgValue =
  | Node | number | boolean | string | null
  | ArgValue[]
  | { [key: string]: ArgValue }
  | { $dtype: string } | { $device: string } | { $memory_format: string } | { $layout: string }
  | { $size: ArgValue[] } | { $slice: ArgValue[] } | { $ellipsis: null };

export class Node {
  readonly op: Op;
  readonly name: string;
  /** call_function: canonical qualified name ("torch.abs"); call_method: method name; others: a path. */
  readonly target: string;
  /** Type annotation as FX code prints it, or null. */
  readonly type: string | null;
  readonly args: ArgValue[];
  readonly kwargs: { [key: string]: ArgValue };
  readonly users: Node[];
  /** shape ({$size}), dtype ({$dtype}), stack_trace, … when the exporter knew them. */
  readonly meta: { [key: string]: ArgValue };
  /** The node exactly as encoded in the format (format.md §3). */
  readonly raw: unknown;
  readonly allInputNodes: Node[];
}

export class Graph implements Iterable<Node> {
  readonly nodes: readonly Node[];
  find(name: string): Node | undefined;
  readonly placeholders: Node[];
  readonly outputNode: Node | undefined;
  [Symbol.iterator](): Iterator<Node>;
}

export interface TensorInfo {
  name: string;
  target: string;
  /** From the node's meta when the exporter recorded it. */
  shape: number[] | null;
  dtype: DType | string | null;
}

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
  outputs: CheckOutput[];
}

export interface RunOptions {
  profile?: boolean;
}

export type RunInputs = RunValue[] | { [name: string]: RunValue };

export class GraphModule {
  /** Where the model came from (path, URL, "<bytes>"…). */
  readonly source: string;
  /** The graph as torch.fx.Graph.print_tabular prints it. */
  printTabular(): string;
  /** The Python source of forward, as GraphModule.code. */
  readonly code: string;
  readonly graph: Graph;
  info(): ModelInfo;
  /** Placeholder names, in the order run() takes inputs. */
  readonly inputNames: string[];
  run(inputs: RunInputs, options?: { profile?: false }): Promise<RunValue>;
  run(inputs: RunInputs, options: { profile: true }): Promise<{ outputs: RunValue; profile: ProfileEntry[] }>;
  runSync(inputs: RunInputs, options?: { profile?: false }): RunValue;
  runSync(inputs: RunInputs, options: { profile: true }): { outputs: RunValue; profile: ProfileEntry[] };
  /** The reference inputs/outputs stored in the file, or null. */
  reference(): { inputs: RunValue[]; outputs: RunValue } | null;
  check(options?: { rtol?: number; atol?: number }): Promise<CheckReport>;
  save(): Uint8Array;
  readonly disposed: boolean;
  /** Frees wasm memory; later use throws FxError. */
  dispose(): void;
}

export interface LoadOptions {
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
}

export type Source = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | Response | URL | string;

export function load(source: Source, options?: LoadOptions): Promise<GraphModule>;
export function save(gm: GraphModule): Uint8Array;

export function readNpy(bytes: Uint8Array, name?: string): Tensor;
export function writeNpy(t: Tensor): Uint8Array;
export function readNpz(bytes: Uint8Array, name?: string): { [name: string]: Tensor };
export function writeNpz(tensors: { [name: string]: Tensor }): Uint8Array;
