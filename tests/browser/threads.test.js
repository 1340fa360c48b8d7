// The pthreads build in Chromium: the playground page is crossOriginIsolated (the server sends COOP/COEP),
// so load(url, {threads: 2}) starts fxwasm-threads.wasm with a worker; outputs equal one thread's.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { byTestId, newPage, screenshot, startPlayground, waitFor } from './helpers.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

test('a crossOriginIsolated page runs the corpus MLP and resnet18 on 2 threads: same outputs as 1 thread', async () => {
  const page = await newPage(pg.context);
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(pg.url);
  const result = await page.evaluate(async () => {
    const fx = await import('/web/src/index.js');
    const { getRuntime, threadsStartError } = await import('/web/src/runtime.js');
    const out = { isolated: globalThis.crossOriginIsolated };
    const flat = (x) => (x instanceof fx.Tensor ? [x.dtype, x.shape, Array.from(x.data)] : x.map(flat));
    for (const [name, url] of [['mlp', 'corpus/mlp.fxw'], ['resnet18', 'corpus/resnet18.fxw']]) {
      const gm = await fx.load(url, { threads: 2 });
      const threads = (await getRuntime()).threads;
      const inputs = gm.reference().inputs;
      const two = JSON.stringify(flat(await gm.run(inputs)));
      await getRuntime({ threads: 1 });
      const one = JSON.stringify(flat(await gm.run(inputs)));
      out[name] = { threads, same: two === one, check: (await gm.check({ rtol: 1e-3, atol: 1e-4 })).status };
      gm.dispose();
    }
    out.error = threadsStartError();
    return out;
  });
  expect(result).toEqual({
    isolated: true,
    mlp: { threads: 2, same: true, check: 'pass' },
    resnet18: { threads: 2, same: true, check: 'pass' },
    error: null,
  });
  expect(workers.filter((u) => u.endsWith('/web/dist/fxwasm-threads.worker.cjs')).length).toBeGreaterThanOrEqual(1);
  expect(page.problems).toEqual([]);
  await page.close();
});

// The same server's responses without COOP/COEP: the page is not cross-origin isolated (no SharedArrayBuffer).
async function withoutIsolation(page) {
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response, headers });
  });
}

const note = (page) => byTestId(page, 'threads-note').textContent();

test('the playground says what a model runs on: a page without cross-origin isolation asked for 2 threads runs 1, and says why', async () => {
  const page = await newPage(pg.context);
  await withoutIsolation(page);
  await page.goto(`${pg.url}?model=digits_cnn&threads=2`);
  await waitFor(page, 'rows', 1);
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(false);
  expect(await byTestId(page, 'threads-select').inputValue()).toBe('2');
  expect(await note(page)).toBe('runs on 1 thread — asked for 2: the page is not cross-origin isolated ' +
    '(it needs COOP/COEP headers), so no SharedArrayBuffer: one thread');
  expect(await byTestId(page, 'threads-note').getAttribute('class')).toMatch(/\bwarn\b/);
  await byTestId(page, 'run-button').click();
  await waitFor(page, 'outputs', 1);  // it still runs, on one thread
  await screenshot(page, 'threads-not-isolated');
  expect(page.problems).toEqual([]);
  await page.close();
});

test('the playground on its own (isolated) server: picking 2 threads reopens the model on 2, edits kept', async () => {
  const page = await newPage(pg.context);
  await page.goto(`${pg.url}?model=digits_cnn`);
  await waitFor(page, 'rows', 1);
  expect(await note(page)).toBe('runs on 1 thread');
  await byTestId(page, 'run-button').click();
  await waitFor(page, 'outputs', 1);
  const values = async () => (await byTestId(page, 'outputs').textContent()).replace(/ in [\d.]+ ms$/, '');
  const one = await values();
  // an edit first: the fuse pass turns conv1 + relu into fxwasm.fused_conv2d
  await byTestId(page, 'pass-fuse').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="graph-marks"]').dataset.pass === 'fuse');
  await waitFor(page, 'rows', 1);
  const targets = () => page.$$eval('[data-testid="tabular"] tbody tr', (trs) => trs.map((tr) => tr.cells[2].textContent));
  const edited = await targets();
  expect(edited).toContain('fxwasm.fused_conv2d');
  await byTestId(page, 'threads-select').selectOption('2');
  await page.waitForFunction(() => document.querySelector('[data-testid="threads-note"]').dataset.threads === '2');
  await waitFor(page, 'rows', 1);
  expect(await note(page)).toBe('runs on 2 threads');
  expect(new URL(page.url()).searchParams.get('threads')).toBe('2');
  expect(await targets()).toEqual(edited);
  await byTestId(page, 'run-button').click();
  await waitFor(page, 'outputs', 1);
  // the seed-0 random inputs again: the same outputs on 2 threads
  expect(await values()).toBe(one);
  await byTestId(page, 'threads-select').selectOption('auto');
  await page.waitForFunction(() => /^runs on \d+ threads? — auto: \d+ cores?, at most 4$/.test(document.querySelector('[data-testid="threads-note"]').textContent));
  await screenshot(page, 'threads-isolated-auto');
  expect(page.problems).toEqual([]);
  await page.close();
});
