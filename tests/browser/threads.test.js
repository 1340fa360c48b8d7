// The pthreads build in Chromium: the playground page is crossOriginIsolated (the server sends COOP/COEP),
// so load(url, {threads: 2}) starts fxwasm-threads.wasm with a worker; outputs equal one thread's.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { newPage, startPlayground } from './helpers.js';

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
