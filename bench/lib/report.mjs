// Numbers and text for bench/run.mjs: statistics, output comparison and the printed tables.

export function median(xs) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarize(times) {
  if (!times.length) return null;
  return {
    runs: times.length,
    median_ms: median(times),
    min_ms: Math.min(...times),
    max_ms: Math.max(...times),
    mean_ms: times.reduce((a, b) => a + b, 0) / times.length,
    times_ms: times,
  };
}

/**
 * max_abs: largest |a - ref|. max_rel: max_abs divided by the largest |ref| (a scale-free number that
 * does not blow up where ref crosses zero, unlike an elementwise ratio). NaN/Inf mismatches count as Inf.
 */
export function compare(actual, ref) {
  if (!actual || !ref) return null;
  if (actual.length !== ref.length) return { error: `size ${actual.length} vs ${ref.length}` };
  let maxAbs = 0;
  let scale = 0;
  for (let i = 0; i < ref.length; ++i) {
    const a = Number(actual[i]);
    const r = Number(ref[i]);
    if (Number.isFinite(r)) scale = Math.max(scale, Math.abs(r));
    const d = Math.abs(a - r);
    if (Number.isNaN(d)) {
      if (!(Number.isNaN(a) && Number.isNaN(r)) && a !== r) maxAbs = Infinity;
    } else if (d > maxAbs) {
      maxAbs = d;
    }
  }
  return { max_abs: maxAbs, max_rel: scale > 0 ? maxAbs / scale : maxAbs, numel: ref.length };
}

// --- text ------------------------------------------------------------------------------------------------
export function fmtMs(ms) {
  if (ms == null) return '—';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
}

export function fmtErr(e) {
  if (!e) return '—';
  if (e.error) return e.error;
  return `${e.max_abs.toExponential(1)} / ${e.max_rel.toExponential(1)}`;
}

export function fmtMB(bytes) {
  return bytes == null ? '—' : (bytes / 1e6).toFixed(1);
}

/** A plain-text table: first column left-aligned, others right-aligned. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => headers.map((_, j) => String(r[j] ?? '—')));
  const widths = headers.map((_, j) => Math.max(...cells.map((r) => r[j].length)));
  const line = (r) => r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** Errors are too long for a cell: the cell says "error [k]" and the k-th footnote holds the message. */
export class Footnotes {
  constructor() { this.notes = []; }

  cell(message) {
    const short = message.split('\n')[0];
    let k = this.notes.indexOf(short);
    if (k < 0) { this.notes.push(short); k = this.notes.length - 1; }
    return `error [${k + 1}]`;
  }

  text(limit = 300) {
    return this.notes.map((n, i) => `[${i + 1}] ${n.length > limit ? `${n.slice(0, limit)}…` : n}`).join('\n');
  }
}
