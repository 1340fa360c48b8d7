// Summary statistics of a weight for the details panel: min, max, mean, std, NaN/Inf counts and a
// histogram of the finite values. Half-precision bits are decoded; int64 goes through Number (exact
// enough for a summary).
import { decodeHalf } from './half.js';

/** Plain numbers of a Tensor's data (float16/bfloat16 decoded). */
function values(t) {
  if (t.dtype === 'float16' || t.dtype === 'bfloat16') return decodeHalf(t.data, t.dtype);
  if (t.data instanceof BigInt64Array) return Float64Array.from(t.data, Number);
  return t.data;
}

/**
 * {count, min, max, mean, std, nan, inf, bins: [counts], lo, hi} over the tensor's finite values
 * (`bins` equal-width bins from min to max; one bin when all values are equal). min/max/mean are null
 * when no value is finite.
 */
export function weightStats(t, binCount = 24) {
  const v = values(t);
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let nan = 0;
  let inf = 0;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const x = Number(v[i]);
    if (Number.isNaN(x)) nan++;
    else if (!Number.isFinite(x)) inf++;
    else {
      n++;
      sum += x;
      if (x < min) min = x;
      if (x > max) max = x;
    }
  }
  if (!n) return { count: v.length, min: null, max: null, mean: null, std: null, nan, inf, bins: [], lo: null, hi: null };
  const mean = sum / n;
  let sq = 0;
  for (let i = 0; i < v.length; i++) {
    const x = Number(v[i]);
    if (Number.isFinite(x)) sq += (x - mean) ** 2;
  }
  const bins = new Array(max > min ? binCount : 1).fill(0);
  const width = (max - min) / bins.length;
  for (let i = 0; i < v.length; i++) {
    const x = Number(v[i]);
    if (!Number.isFinite(x)) continue;
    bins[width > 0 ? Math.min(bins.length - 1, Math.floor((x - min) / width)) : 0]++;
  }
  return { count: v.length, min, max, mean, std: Math.sqrt(sq / n), nan, inf, bins, lo: min, hi: max };
}

/** A number in a short readable form (4 significant digits). */
export function shortNumber(x) {
  if (x === null || x === undefined) return '—';
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a >= 1e5 || a < 1e-3 ? x.toExponential(3) : String(Number(x.toPrecision(4)));
}
