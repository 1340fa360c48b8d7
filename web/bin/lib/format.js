// Text formatting for the CLI: plain tables (tabulate's "simple" style), value previews, number formats.
import { Tensor, Node } from '../../src/index.js';

/** A table in tabulate's "simple" format: headers, a rule of dashes, rows; columns two spaces apart. */
export function table(headers, rows, { align = [] } = {}) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c)));
  // A loop, not Math.max(...column): spreading a 200k-row column overflows the JS stack.
  const widths = headers.map(() => 0);
  for (const r of cells) r.forEach((c, i) => { if (c.length > widths[i]) widths[i] = c.length; });
  const line = (r) => r.map((c, i) => (align[i] === 'right' ? c.padStart(widths[i]) : c.padEnd(widths[i])))
    .join('  ').trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function formatNumber(x) {
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'string') return x;  // "inf"/"nan" from JSON reports
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-4 || a >= 1e6)) return x.toExponential(3);
  return String(Number(x.toPrecision(5)));
}

export function shapeText(shape) {
  return `[${shape.join(', ')}]`;
}

function element(t, i) {
  if (t.dtype === 'complex64' || t.dtype === 'complex128') {  // as Python prints a complex: (1+2j)
    const re = t.data[2 * i], im = t.data[2 * i + 1];
    return `(${formatNumber(re)}${im < 0 || Object.is(im, -0) ? '-' : '+'}${formatNumber(Math.abs(im))}j)`;
  }
  const v = t.data[i];
  if (t.dtype === 'bool') return v ? 'true' : 'false';
  if (t.dtype === 'float16' || t.dtype === 'bfloat16') return `0x${v.toString(16)}`;
  return formatNumber(v);
}

/** The first few values of a tensor: "[0.1, -2.3, … ] (100 values)", a 0-d tensor as its value. */
export function preview(t, max = 8) {
  if (t.shape.length === 0) return element(t, 0);
  const n = t.size;
  const shown = [];
  for (let i = 0; i < Math.min(n, max); i++) shown.push(element(t, i));
  return n > max ? `[${shown.join(', ')}, …] (${n} values)` : `[${shown.join(', ')}]`;
}

/** Flattens an output structure to [path, leaf] pairs: "[0]", "[1]['x']"; a bare leaf has path "". */
export function leaves(value, path = '') {
  if (value instanceof Tensor || value === null || typeof value !== 'object') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  return Object.entries(value).flatMap(([k, v]) => leaves(v, `${path}['${k}']`));
}

export function bytesText(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** A JSON-safe copy of an output leaf (tensor data as numbers; int64 as numbers; non-finite as strings). */
export function jsonLeaf(v) {
  const num = (x) => (typeof x === 'bigint' ? Number(x) : Number.isFinite(x) ? x : formatNumber(x));
  if (v instanceof Tensor) {
    const data = v.dtype === 'bool' ? Array.from(v.data, (x) => !!x) : Array.from(v.data, num);
    return { dtype: v.dtype, shape: v.shape, data };
  }
  return typeof v === 'number' ? num(v) : v;
}

/**
 * A JSON-safe copy of a node's args/kwargs in the format's value language (docs/format.md §3): node
 * references as {"$node": name}, non-finite floats as {"$float": "inf"}, tagged values kept as they are.
 */
export function jsonArg(v) {
  if (v instanceof Node) return { $node: v.name };
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return { $float: formatNumber(v) };
  if (Array.isArray(v)) return v.map(jsonArg);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonArg(x)]));
  return v;
}

/**
 * A model's threads (GraphModule.threadInfo) in words: "2 threads", "2 threads (auto: 2 cores, at most 4)",
 * "1 thread (asked for 2: the pthreads build did not start (…): one thread)", "3 threads (more threads than
 * the 2 cores here, as asked)".
 */
export function threadsText({ requested, threads, reason }) {
  const n = `${threads} thread${threads === 1 ? '' : 's'}`;
  if (!reason) return n;
  return typeof requested === 'number' && requested !== threads ? `${n} (asked for ${requested}: ${reason})` : `${n} (${reason})`;
}

/** The JSON form of threadInfo the run, check and bench commands print: threads, threads_requested, threads_note. */
export function threadsJson({ requested, threads, reason }) {
  return { threads, threads_requested: requested, ...(reason ? { threads_note: reason } : {}) };
}
