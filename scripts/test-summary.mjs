// Adds up the reports of every suite into one closing line, "tests: N passed, N failed".
// A suite whose report is missing (it crashed before writing one) counts as a failure.
import fs from 'node:fs';
import path from 'node:path';

const [dir, ...suites] = process.argv.slice(2);

function fromJunit(text) {
  // Sum over <testsuite> elements (pytest nests one inside <testsuites>, ctest writes one).
  let tests = 0, failures = 0, errors = 0, skipped = 0;
  for (const m of text.matchAll(/<testsuite\b([^>]*)>/g)) {
    const attr = (k) => Number((m[1].match(new RegExp(`\\b${k}="(\\d+)"`)) || [0, 0])[1]);
    tests += attr('tests'); failures += attr('failures'); errors += attr('errors'); skipped += attr('skipped');
  }
  return { passed: tests - failures - errors - skipped, failed: failures + errors, skipped };
}

function fromJest(text) {
  const r = JSON.parse(text);
  return { passed: r.numPassedTests, failed: r.numFailedTests + r.numRuntimeErrorTestSuites,
           skipped: r.numPendingTests + r.numTodoTests };
}

let passed = 0, failed = 0, skipped = 0, missing = 0;
for (const spec of suites) {
  const [name, file] = spec.split(':');
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) {
    console.log(`${name.padEnd(8)} no report (the suite did not run to the end)`);
    missing++;
    continue;
  }
  const text = fs.readFileSync(full, 'utf8');
  const r = file.endsWith('.json') ? fromJest(text) : fromJunit(text);
  console.log(`${name.padEnd(8)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  passed += r.passed; failed += r.failed; skipped += r.skipped;
}
if (missing) failed += missing;
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed || skipped ? 1 : 0);
