// Worker mode in Chromium: fxwasm.load(url, {worker: true}) starts web/src/worker.js as a module Worker,
// streams the model into that worker's wasm heap and runs it there; outputs equal the page's own run.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { newPage, startPlayground } from './helpers.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

test('the seed and the corpus MLP run in a Worker: same outputs as in the page, FxError, dispose', async () => {
  const page = await newPage(pg.context);
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(pg.url);
  const result = await page.evaluate(async () => {
    const fx = await import('/web/src/index.js');
    const flat = (x) => (x instanceof fx.Tensor ? [x.dtype, x.shape, Array.from(x.data)] : x.map(flat));
    const out = {};
    for (const [name, url] of [['toy', '/examples/seed/toy_example.fxw'], ['mlp', 'corpus/mlp.fxw']]) {
      const here = await fx.load(url);
      const progress = [];
      const gm = await fx.load(url, { worker: true, onProgress: (p) => progress.push(p) });
      const inputs = here.reference().inputs;
      out[name] = {
        proxy: gm instanceof fx.WorkerGraphModule,
        table: (await gm.printTabular()) === here.printTabular(),
        code: (await gm.code) === here.code,
        same: JSON.stringify(flat(await gm.run(inputs))) === JSON.stringify(flat(await here.run(inputs))),
        check: (await gm.check()).status,
        progressed: progress.length > 0 && progress.at(-1).loaded === progress.at(-1).total,
      };
      if (name === 'toy') {
        const wrong = fx.tensor(new Int32Array([1, 2]), [2]);
        const e = await gm.run([wrong, wrong]).catch((x) => x);
        out.error = { fx: e instanceof fx.FxError, node: e.node };
      }
      here.dispose();
      await gm.dispose();
      out[name].afterDispose = await gm.printTabular().then(() => 'resolved', (e) => e instanceof fx.FxError);
    }
    return out;
  });
  for (const name of ['toy', 'mlp']) {
    expect({ name, ...result[name] }).toEqual({
      name, proxy: true, table: true, code: true, same: true, check: 'pass', progressed: true, afterDispose: true,
    });
  }
  expect(result.error).toEqual({ fx: true, node: 'l_a_' });
  expect(workers.filter((u) => u.endsWith('/web/src/worker.js')).length).toBe(2);
  expect(page.problems).toEqual([]);
  await page.close();
});
