// The benchmark's arithmetic (bench/lib/report.mjs, bench/lib/npy.mjs, the browser/Node comparison of
// bench/lib/transformers.mjs): wrong statistics or error measures would make every number it prints wrong.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { compare, fmtMs, Footnotes, median, summarize, table } from '../../../bench/lib/report.mjs';
import { readNpyFile } from '../../../bench/lib/node_io.mjs';
import { browserNodeReport } from '../../../bench/lib/transformers.mjs';
import { writeNpy, tensor } from '../../../web/src/index.js';

test('median of odd and even counts, empty is null', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(median([])).toBeNull();
  expect(summarize([2, 4, 9])).toMatchObject({ runs: 3, median_ms: 4, min_ms: 2, max_ms: 9, mean_ms: 5 });
});

test('compare: max abs, rel against the largest |reference|, NaN and size mismatches', () => {
  const e = compare(new Float32Array([1, 2.5, -4]), new Float32Array([1, 2, -4.5]));
  expect(e.max_abs).toBeCloseTo(0.5);
  expect(e.max_rel).toBeCloseTo(0.5 / 4.5);
  expect(compare(new Float32Array([NaN]), new Float32Array([1])).max_abs).toBe(Infinity);
  expect(compare(new Float32Array([NaN]), new Float32Array([NaN])).max_abs).toBe(0);
  expect(compare(new Float32Array(2), new Float32Array(3)).error).toMatch(/size/);
  expect(compare(null, new Float32Array(1))).toBeNull();
});

test('table aligns columns; footnotes number distinct messages once', () => {
  const notes = new Footnotes();
  expect(notes.cell('boom\nstack')).toBe('error [1]');
  expect(notes.cell('other')).toBe('error [2]');
  expect(notes.cell('boom')).toBe('error [1]');
  expect(notes.text()).toBe('[1] boom\n[2] other');
  expect(table(['a', 'bb'], [['xyz', 1]]).split('\n')).toEqual(['a    bb', '---  --', 'xyz   1']);
});

test('the benchmark reads .npy files as the package writes them', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fxbench-')), 'x.npy');
  fs.writeFileSync(file, writeNpy(tensor(new Float32Array([1, -2, 3.5, 4, 5, 6]), [2, 3])));
  const t = readNpyFile(file);
  expect(t.shape).toEqual([2, 3]);
  expect(t.dtype).toBe('float32');
  expect(Array.from(t.data)).toEqual([1, -2, 3.5, 4, 5, 6]);
  fs.writeFileSync(file, writeNpy(tensor(new BigInt64Array([7n, -1n]), [2])));
  expect(Array.from(readNpyFile(file).data)).toEqual([7n, -1n]);
});

test('browser/Node: browser ms over Node ms per engine, fx/ort in each and its move, the verdict at 1 thread', () => {
  const v = (engine, weights, threads, x) => ({ engine, weights, threads, ...x });
  const dec = (a, b) => ({ past: { 32: { step_ms: a }, 512: { step_ms: b } } });
  const prompts = { 32: {}, 512: {} };
  const node = {
    decode: { meta: { prompts }, variants: { fxwasm_fp32_1t: v('fxwasm', 'fp32', 1, dec(10, 20)),
      ort_fp32_1t: v('ort', 'fp32', 1, dec(8, 20)), fxwasm_fp32_2t: v('fxwasm', 'fp32', 2, dec(5, 10)),
      ort_fp32_2t: v('ort', 'fp32', 2, dec(5, 10)) } },
    encoder: { meta: {}, variants: { fxwasm_int4_1t: v('fxwasm', 'int4', 1, { median_ms: 100 }),
      ort_q4_1t: v('ort', 'q4', 1, { median_ms: 200 }) } },
  };
  const browser = {
    decode: { meta: { prompts }, variants: { fxwasm_fp32_1t: v('fxwasm', 'fp32', 1, dec(12, 22)),
      ort_fp32_1t: v('ort', 'fp32', 1, dec(9, 20)), fxwasm_fp32_2t: v('fxwasm', 'fp32', 2, dec(9, 10)),
      ort_fp32_2t: v('ort', 'fp32', 2, dec(5, 10)), fxwasm_int8_1t: v('fxwasm', 'int8', 1, dec(1, 1)) } },
    encoder: { meta: {}, variants: { fxwasm_int4_1t: v('fxwasm', 'int4', 1, { median_ms: 103 }),
      ort_q4_1t: v('ort', 'q4', 1, { median_ms: 200 }) } },
  };
  const lines = browserNodeReport(node, browser, { table, fmtMs }).split('\n');
  // decode: fx/ort 1.25 -> 1.33 and 1.00 -> 1.10 at 1 thread; the 2-thread move (+0.80) is shown, not judged
  expect(lines[0]).toMatch(/^browser\/Node, decode: .*largest \|Δ\| at 1 thread 0\.100 \(of 2\), goal within 0\.05: not met$/);
  const row = (name) => lines.find((l) => l.startsWith(name)).split(/\s{2,}/).slice(1);
  expect(row('fxwasm fp32 1t')).toEqual(['10.0', '12.0', '1.20', '20.0', '22.0', '1.10', '1.25', '1.33', '+0.08', '1.00', '1.10', '+0.10']);
  expect(row('ort fp32 1t')).toEqual(['8.00', '9.00', '1.13', '20.0', '20.0', '1.00', '—', '—', '—', '—', '—', '—']);
  expect(row('fxwasm fp32 2t').slice(6)).toEqual(['1.00', '1.80', '+0.80', '1.00', '1.00', '+0.00']);
  expect(lines.some((l) => l.startsWith('fxwasm int8'))).toBe(false);  // measured in one place only
  // encoder: 0.50 -> 0.515
  const enc = lines.findIndex((l) => l.startsWith('browser/Node, encoder'));
  expect(lines[enc]).toMatch(/largest \|Δ\| at 1 thread 0\.015 \(of 1\), goal within 0\.05: met$/);
  expect(row('fxwasm int4 1t')).toEqual(['100', '103', '1.03', '0.50', '0.52', '+0.02']);
  // an engine that failed in the page: no ratio, no verdict
  browser.encoder.variants.ort_q4_1t = v('ort', 'q4', 1, { error: 'boom' });
  expect(browserNodeReport(node, browser, { table, fmtMs })).toMatch(/encoder: .*no fx\/ort pair at 1 thread in both/);
});
