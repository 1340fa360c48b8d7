// The package's types serve a TypeScript consumer: tests/js/consumer is type-checked with the installed tsc.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './helpers.js';

test('a TypeScript consumer type-checks against index.d.ts', () => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(ROOT, 'tests', 'js', 'consumer')],
    { encoding: 'utf8', cwd: ROOT });
  expect(`${r.stdout}${r.stderr}`).toBe('');
  expect(r.status).toBe(0);
});
