// Shows a run's result: one card per leaf of the output structure (Tensor, number, boolean, None),
// labelled with its path in that structure (out[0], out.logits …), with shape, dtype, a preview of
// the values and min/max/mean.

import { decodeHalf } from './half.js';

const PREVIEW = 12;

function isTensor(v) {
  return v !== null && typeof v === 'object' && Array.isArray(v.shape) && v.data !== undefined && 'dtype' in v;
}

/** Leaves of a nested output as [{label, value}], in FX output order. */
export function flattenOutputs(value, label = 'out') {
  if (isTensor(value) || value === null || typeof value !== 'object') return [{ label, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => flattenOutputs(v, `${label}[${i}]`));
  return Object.entries(value).flatMap(([k, v]) =>
    flattenOutputs(v, /^[A-Za-z_$][\w$]*$/.test(k) ? `${label}.${k}` : `${label}[${JSON.stringify(k)}]`));
}

function formatNumber(x, dtype) {
  if (typeof x === 'bigint') return x.toString();
  if (dtype === 'bool') return x ? 'True' : 'False';
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && !/^float|^bfloat/.test(dtype)) return String(x);
  return Number(x.toPrecision(6)).toString();
}

/** min, max and mean over a tensor's values (bools as 0/1); null for an empty tensor. */
export function tensorStats(data) {
  const n = data.length;
  if (!n) return null;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = Number(data[i]);
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
  }
  return { min, max, mean: sum / n };
}

// A complex tensor's elements as Python prints them, (1.5-2j), and the statistics of their magnitudes.
function describeComplex(value) {
  const { shape, dtype, data } = value;
  const count = data.length / 2;
  const shown = [];
  const magnitudes = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const re = data[2 * i], im = data[2 * i + 1];
    magnitudes[i] = Math.hypot(re, im);
    if (i < PREVIEW) shown.push(`(${formatNumber(re, 'float64')}${im < 0 ? '-' : '+'}${formatNumber(Math.abs(im), 'float64')}j)`);
  }
  const stats = tensorStats(magnitudes);
  return {
    meta: `Tensor shape [${shape.join(', ')}] ${dtype}`,
    preview: `[${shown.join(', ')}${count > PREVIEW ? `, … (${count} values)` : ''}]`,
    stats: stats
      ? `|z| min ${formatNumber(stats.min, 'float64')}  max ${formatNumber(stats.max, 'float64')}  mean ${formatNumber(stats.mean, 'float64')}`
      : 'empty',
    shape,
    dtype,
  };
}

/** {meta, preview, stats, shape, dtype} of one output leaf, as its card shows it. */
export function describeOutput(value) {
  if (isTensor(value) && (value.dtype === 'complex64' || value.dtype === 'complex128')) return describeComplex(value);
  if (isTensor(value)) {
    const { shape, dtype } = value;
    const data = decodeHalf(value.data, dtype);
    const shown = Array.from(data.slice(0, PREVIEW), (x) => formatNumber(dtype === 'bool' ? Boolean(x) : x, dtype));
    const more = data.length > PREVIEW ? `, … (${data.length} values)` : '';
    const stats = tensorStats(data);
    return {
      meta: `Tensor shape [${shape.join(', ')}] ${dtype}`,
      preview: `[${shown.join(', ')}${more}]`,
      stats: stats
        ? `min ${formatNumber(stats.min, 'float64')}  max ${formatNumber(stats.max, 'float64')}  mean ${formatNumber(stats.mean, 'float64')}`
        : 'empty',
      shape,
      dtype,
    };
  }
  if (value === null || value === undefined) return { meta: 'None', preview: 'None' };
  if (typeof value === 'boolean') return { meta: 'bool', preview: value ? 'True' : 'False' };
  if (typeof value === 'number' || typeof value === 'bigint') {
    return { meta: Number.isInteger(Number(value)) ? 'int' : 'float', preview: formatNumber(value, 'float64') };
  }
  return { meta: typeof value, preview: String(value) };
}

/**
 * Top-k classes of a classifier-like output (a [N, K] float tensor, K ≥ 2): softmax over the first row,
 * the k most likely class indices with their probabilities; null for other outputs.
 */
export function topK(value, k = 5) {
  if (!isTensor(value) || value.shape.length !== 2 || value.shape[1] < 2 || !/float/.test(value.dtype)) return null;
  const n = value.shape[1];
  const row = Array.from(decodeHalf(value.data, value.dtype).slice(0, n), Number);
  if (!row.every(Number.isFinite)) return null;
  const m = row.reduce((a, b) => (b > a ? b : a), -Infinity);  // not Math.max(...row): a long row overflows the stack
  const e = row.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e
    .map((x, cls) => ({ cls, p: x / s, logit: row[cls] }))
    .sort((a, b) => b.p - a.p || a.cls - b.cls)
    .slice(0, Math.min(k, n));
}

/** Renders the outputs into `container`; `ms` is the run's wall time. */
export function renderOutputs(container, result, ms) {
  const leaves = flattenOutputs(result);
  const frag = document.createDocumentFragment();
  for (const { label, value } of leaves) {
    const d = describeOutput(value);
    const card = document.createElement('div');
    card.className = 'output';
    card.dataset.output = label;
    if (d.shape) card.dataset.shape = JSON.stringify(d.shape);
    if (d.dtype) card.dataset.dtype = d.dtype;
    const head = document.createElement('div');
    const name = Object.assign(document.createElement('span'), { className: 'label', textContent: label });
    const meta = Object.assign(document.createElement('span'), { className: 'meta', textContent: `  ${d.meta}` });
    head.append(name, meta);
    const preview = Object.assign(document.createElement('pre'), { className: 'preview', textContent: d.preview });
    card.append(head, preview);
    if (d.stats) card.append(Object.assign(document.createElement('div'), { className: 'stats', textContent: d.stats }));
    const top = topK(value);
    if (top) {
      const list = Object.assign(document.createElement('ol'), { className: 'topk' });
      list.dataset.testid = 'topk';
      list.title = `top ${top.length} classes of row 0 (softmax)`;
      for (const t of top) {
        const li = document.createElement('li');
        li.dataset.class = String(t.cls);
        li.textContent = `class ${t.cls}  ${(t.p * 100).toFixed(1)}%  (logit ${formatNumber(t.logit, 'float64')})`;
        list.append(li);
      }
      card.append(Object.assign(document.createElement('div'), { className: 'meta', textContent: `top ${top.length} of row 0:` }), list);
    }
    frag.append(card);
  }
  const footer = Object.assign(document.createElement('div'), {
    className: 'hint',
    textContent: `${leaves.length} output${leaves.length === 1 ? '' : 's'} in ${ms.toFixed(1)} ms`,
  });
  frag.append(footer);
  container.replaceChildren(frag);
}
