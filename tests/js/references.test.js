// Every committed model file with a stored reference (examples/**, tests/golden/modules/*) matches it in
// WebAssembly, as the C++ suite checks natively: the wasm build links libc++, not the native build's
// libstdc++, and is compiled at other optimisation levels, so a bug can live on one side only (an
// interpolate scale factor read from freed memory did). Each model runs twice: the second run reuses the
// first one's buffers and shape-static values (runtime/shape_static.h).
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { ROOT } from './helpers.js';

function fxwFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...fxwFiles(p));
    else if (entry.name.endsWith('.fxw')) out.push(p);
  }
  return out.sort();
}

const files = [...fxwFiles(path.join(ROOT, 'examples')), ...fxwFiles(path.join(ROOT, 'tests', 'golden', 'modules'))];

test('there are committed models to check', () => {
  expect(files.length).toBeGreaterThan(20);
});

describe.each(files.map((f) => [path.relative(ROOT, f), f]))('%s', (name, file) => {
  test('matches its stored reference, twice', async () => {
    const gm = await fxwasm.load(new Uint8Array(fs.readFileSync(file)));
    try {
      expect(gm.info().has_reference).toBe(true);
      for (let run = 0; run < 2; ++run) {
        const report = await gm.check({ rtol: 1e-4, atol: 1e-5 });
        const failed = report.outputs.filter((o) => !o.pass).map((o) => `${o.path}: ${JSON.stringify(o)}`);
        expect(failed).toEqual([]);
        expect(report.status).toBe('pass');
      }
    } finally {
      gm.dispose();
    }
  });
});
