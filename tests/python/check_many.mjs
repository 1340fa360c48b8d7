// Checks many .fxw files in one Node process (one wasm instance), for suites with hundreds of small files
// (tests/python/test_opinfo.py), where a CLI process per file would spend most of its time starting up.
// Usage: node tests/python/check_many.mjs LIST.json  — LIST is a JSON array of file paths.
// Prints one JSON line per file: {file, status, ...} with status
//   "pass" | "mismatch" (the stored reference disagrees: the outputs' report)
//   | "unsupported" (the runtime lacks ops: their targets) | "error" (FxError at load or run: its message)
// Options as `fxwasm check`: FXWASM_RTOL, FXWASM_ATOL (1e-4, 1e-5); NaN counts equal to NaN.
import fs from 'node:fs';
import { load, FxError } from '../../web/src/index.js';

const rtol = Number(process.env.FXWASM_RTOL ?? 1e-4);
const atol = Number(process.env.FXWASM_ATOL ?? 1e-5);

async function checkOne(file) {
  let gm;
  try {
    gm = await load(new Uint8Array(fs.readFileSync(file)), { allowUnsupported: true });
  } catch (err) {
    return { status: 'error', message: err instanceof FxError ? err.message : `internal error: ${err.message}` };
  }
  try {
    const missing = gm.info().unsupported;
    if (missing.length) return { status: 'unsupported', targets: missing.map((u) => `${u.kind}:${u.target}`) };
    const report = await gm.check({ rtol, atol, equalNan: true });
    if (report.status === 'pass') return { status: 'pass' };
    return { status: 'mismatch', outputs: report.outputs.filter((o) => !o.pass) };
  } catch (err) {
    return { status: 'error', message: err instanceof FxError ? err.message : `internal error: ${err.message}` };
  } finally {
    gm.dispose();
  }
}

const files = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
for (const file of files) {
  const result = await checkOne(file);
  process.stdout.write(`${JSON.stringify({ file, ...result })}\n`);
}
