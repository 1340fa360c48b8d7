// Honest threads: when a run gets fewer threads than asked (or more than the cores, as asked), the reason
// is said — no SharedArrayBuffer, a page that is not cross-origin isolated, a pthreads build that did not
// start, the cap — and `bench` prints it and puts it in its JSON.
import { spawnSync } from 'node:child_process';
import { explainThreads, MAX_THREADS, MAX_AUTO_THREADS } from '../../web/src/threads.js';
import { CLI, TOY } from './helpers.js';

const node = { sab: true, isolated: false, node: true, cores: 2, startError: null };
const page = { ...node, node: false };

test('explainThreads says why a run has the threads it has', () => {
  expect(explainThreads(undefined, 1, node)).toBe('');
  expect(explainThreads(2, 2, node)).toBe('');
  expect(explainThreads(4, 4, node)).toBe('more threads than the 2 cores here, as asked');
  expect(explainThreads(2, 1, { ...node, sab: false })).toBe('no SharedArrayBuffer here, so one thread');
  expect(explainThreads(2, 1, page)).toMatch(/^the page is not cross-origin isolated \(it needs COOP\/COEP headers\), so no SharedArrayBuffer: one thread$/);
  expect(explainThreads(2, 2, { ...page, isolated: true })).toBe('');
  expect(explainThreads(3, 1, { ...node, startError: 'boom' })).toBe('the pthreads build did not start (boom): one thread');
  expect(explainThreads(MAX_THREADS + 1, MAX_THREADS, node)).toBe(`at most ${MAX_THREADS} threads; more threads than the 2 cores here, as asked`);
  expect(explainThreads('auto', 2, node)).toBe(`auto: 2 cores, at most ${MAX_AUTO_THREADS}`);
  expect(explainThreads('auto', 1, page)).toMatch(/^auto: 2 cores, at most \d+; the page is not cross-origin isolated/);
});

test('bench reports the threads it ran, what was asked, and why they differ', () => {
  const r = spawnSync(process.execPath, [CLI, 'bench', TOY, '--runs', '1', '--warmup', '0', '--threads', '1', '--json'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  const j = JSON.parse(r.stdout);
  expect(j).toMatchObject({ threads: 1, threads_requested: 1 });
  expect(j.threads_note).toBeUndefined();
  const auto = spawnSync(process.execPath, [CLI, 'bench', TOY, '--runs', '1', '--warmup', '0', '--threads', 'auto'], { encoding: 'utf8' });
  expect(auto.status).toBe(0);
  // 'auto' is accepted as the API accepts it, and the line says what it became and why.
  expect(auto.stdout).toMatch(/\d+ threads? \(auto: \d+ cores?, at most \d+/);
});
