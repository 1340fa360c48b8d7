// Honest threads: when a run gets fewer threads than asked (or more than the cores, as asked), the reason
// is said — no SharedArrayBuffer, a page that is not cross-origin isolated, a pthreads build that did not
// start, the cap — on the GraphModule (gm.threads, gm.threadInfo), and `run`, `check` and `bench` print it
// and put it in their JSON. (A page without cross-origin isolation: tests/browser/threads.test.js.)
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import * as fxwasm from '../../web/src/index.js';
import { explainThreads, MAX_THREADS, MAX_AUTO_THREADS } from '../../web/src/threads.js';
import { CLI, TOY } from './helpers.js';

const CORES = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

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
  expect(explainThreads(3, 2, node)).toBe('the runtime was set to 2 after this model loaded (a later load or getRuntime with another threads value)');
});

test('gm.threads and gm.threadInfo: what was asked, what the runs get, and why they differ', async () => {
  const auto = await fxwasm.load(TOY, { threads: 'auto' });
  const n = Math.min(MAX_AUTO_THREADS, CORES);
  expect(auto.threads).toBe(n);  // never more than the cores unless asked
  expect(auto.threadInfo).toEqual({ requested: 'auto', threads: n, cores: CORES,
    reason: `auto: ${CORES} core${CORES === 1 ? '' : 's'}, at most ${MAX_AUTO_THREADS}` });
  const more = await fxwasm.load(TOY, { threads: CORES + 1 });
  expect(more.threadInfo).toEqual({ requested: CORES + 1, threads: CORES + 1, cores: CORES,
    reason: `more threads than the ${CORES} cores here, as asked` });
  // Models of one runtime share its thread count: a later load with fewer sets it for both, and says so.
  const two = await fxwasm.load(TOY, { threads: 2 });
  expect(two.threadInfo).toEqual({ requested: 2, threads: 2, cores: CORES, reason: '' });
  expect(more.threads).toBe(2);
  expect(more.threadInfo.reason).toMatch(/^the runtime was set to 2 after this model loaded/);
  const created = await fxwasm.create();
  expect(created.threadInfo).toMatchObject({ requested: null, threads: 2, reason: '' });
  const worker = await fxwasm.load(TOY, { worker: true, threads: 2 });
  expect(worker.threads).toBe(2);
  expect(worker.threadInfo).toEqual({ requested: 2, threads: 2, cores: CORES, reason: '' });
  await worker.dispose();
  for (const gm of [auto, more, two, created]) gm.dispose();
});

test('run and check take --threads as load() does and say what ran', () => {
  let r = cli('run', TOY, '--threads', '2');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^ran on 2 threads$/m);
  r = cli('run', TOY);
  expect(r.stdout).toMatch(/^ran on 1 thread$/m);
  r = cli('run', TOY, '--threads', 'auto', '--json');
  expect(JSON.parse(r.stdout)).toMatchObject({ threads: Math.min(MAX_AUTO_THREADS, CORES), threads_requested: 'auto',
    threads_note: expect.stringMatching(/^auto: /) });
  r = cli('run', TOY, '--threads', String(CORES + 1));
  expect(r.stdout).toMatch(new RegExp(`^ran on ${CORES + 1} threads \\(more threads than the ${CORES} cores here, as asked\\)$`, 'm'));
  r = cli('run', TOY, '--threads', String(MAX_THREADS + 1));
  expect(r.stdout).toMatch(new RegExp(`^ran on ${MAX_THREADS} threads \\(asked for ${MAX_THREADS + 1}: at most ${MAX_THREADS} threads; more threads than`, 'm'));
  r = cli('check', TOY, '--threads', 'auto', '--json');
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ status: 'pass', threads_requested: 'auto' });
  r = cli('check', TOY, '--threads', '2');
  expect(r.status).toBe(0);
  expect(r.stdout).not.toMatch(/ran on/);  // said only when the threads differ from what was asked
  expect(cli('run', TOY, '--threads', '0').status).toBe(2);
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
