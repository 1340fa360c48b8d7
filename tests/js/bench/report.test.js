// The benchmark's arithmetic (bench/lib/report.mjs, bench/lib/npy.mjs): wrong statistics or error
// measures would make every number it prints wrong.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { compare, Footnotes, median, summarize, table } from '../../../bench/lib/report.mjs';
import { readNpyFile } from '../../../bench/lib/npy.mjs';
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
