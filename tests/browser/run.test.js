// Running in the playground: seeded random inputs, .npy inputs, the stored reference inputs, top-k for
// classifier-shaped outputs, and the sortable per-node profile (with shapes filled into the table).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, openExample, screenshot, startPlayground, tableCells, waitFor } from './helpers.js';
import { fxwasm, passesDemo } from './fixtures.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

const outputTexts = (page) => page.$$eval('[data-testid="outputs"] .output pre', (ps) => ps.map((p) => p.textContent));

async function run(page) {
  await byTestId(page, 'run-button').click();
  return waitFor(page, 'outputs', 1);
}

describe('run', () => {
  test('random inputs follow the seed: same seed, same outputs; another seed, others', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    await byTestId(page, 'seed').fill('7');
    await run(page);
    const first = await outputTexts(page);
    await run(page);
    expect(await outputTexts(page)).toEqual(first);
    expect(await page.locator('#inputs-note').textContent()).toMatch(/seed 7/);
    await byTestId(page, 'seed').fill('8');
    await run(page);
    expect((await outputTexts(page))[1]).not.toEqual(first[1]);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a .npy input is used as given', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    const a = [-3, -1, 0, 1, 3, 7, -7, 0.5, 2, -2];
    await byTestId(page, 'input-source-l_a_').selectOption('npy');
    await byTestId(page, 'input-file-l_a_').setInputFiles({
      name: 'a.npy', mimeType: 'application/octet-stream',
      buffer: Buffer.from(fxwasm.writeNpy(fxwasm.tensor(new Float32Array(a), [10]))),
    });
    await page.waitForFunction(() => /a\.npy/.test(document.querySelector('tr[data-input="l_a_"]').textContent));
    await run(page);
    const x = (await outputTexts(page))[1].slice(1, -1).split(',').map(Number);
    a.forEach((v, i) => expect(x[i]).toBeCloseTo(v / (Math.abs(v) + 1), 5));
    expect(await page.locator('#inputs-note').textContent()).toMatch(/l_a_: a\.npy \[10\] float32/);
    await page.close();
  });

  test('the stored reference inputs can be chosen', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    await byTestId(page, 'input-source-l_a_').selectOption('reference');
    await byTestId(page, 'input-source-l_b_').selectOption('reference');
    await run(page);
    const ref = await page.evaluate(async () => {
      const fx = await import('/web/src/index.js');
      const gm = await fx.load('/examples/seed/toy_example.fxw');
      const r = gm.reference();
      gm.dispose();
      return Array.from(r.outputs[1].data);
    });
    const x = (await outputTexts(page))[1].slice(1, -1).split(',').map(Number);
    ref.forEach((v, i) => expect(x[i]).toBeCloseTo(v, 5));
    await page.close();
  });

  test('after a run: a per-node profile, sortable, and every node\'s shape in the table', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    await run(page);
    const profile = byTestId(page, 'profile');
    const rows = () => page.$$eval('[data-testid="profile"] tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.cells, (c) => c.textContent)));
    const head = await page.$$eval('[data-testid="profile"] th', (ths) => ths.map((t) => t.dataset.sort));
    expect(head).toEqual(['index', 'ms', 'share', 'name', 'op', 'target', 'shape', 'dtype']);
    let r = await rows();
    expect(r).toHaveLength(8);
    // Default order: slowest first; shares add up to 100 %.
    const ms = r.map((c) => Number(c[1]));
    expect(ms).toEqual([...ms].sort((p, q) => q - p));
    const share = r.reduce((s, c) => s + Number(c[2].replace('%', '')), 0);
    expect(share).toBeGreaterThan(99);
    expect(share).toBeLessThan(101);
    expect(r.find((c) => c[3] === 'x').slice(6, 8)).toEqual(['[10]', 'float32']);
    expect(r.find((c) => c[3] === 'lt').slice(6, 8)).toEqual(['[]', 'bool']);

    await profile.locator('th[data-sort="name"]').click();
    r = await rows();
    expect(r.map((c) => c[3])).toEqual([...r.map((c) => c[3])].sort((p, q) => p.localeCompare(q)));
    await profile.locator('th[data-sort="index"]').click();
    r = await rows();
    expect(r.map((c) => c[3])).toEqual(['l_a_', 'l_b_', 'abs_1', 'add', 'x', 'sum_1', 'lt', 'output']);
    await profile.locator('th[data-sort="index"]').click();
    expect((await rows()).map((c) => c[3])[0]).toBe('output');
    expect(await profile.locator('th[data-sort="index"]').getAttribute('aria-sort')).toBe('descending');

    // Clicking a profile row selects that node everywhere.
    await profile.locator('tr[data-node="add"]').click();
    expect(await page.$$eval('[data-testid="graph"] g.node.selected', (gs) => gs.map((g) => g.dataset.node))).toEqual(['add']);
    const cells = await tableCells(page);
    expect(cells.find((c) => c[1] === 'sum_1').slice(5)).toEqual(['[]', 'float32']);
    await screenshot(page, 'profile');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a classifier-shaped output ([N, K]) shows its top-k classes', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    await byTestId(page, 'file-input').setInputFiles({ name: 'demo.fxw', mimeType: 'application/octet-stream', buffer: Buffer.from(await passesDemo()) });
    await waitFor(page, 'rows', 1);
    await byTestId(page, 'input-source-x').selectOption('npy');
    await byTestId(page, 'input-file-x').setInputFiles({
      name: 'x.npy', mimeType: 'application/octet-stream',
      buffer: Buffer.from(fxwasm.writeNpy(fxwasm.tensor(new Float32Array([0, 0, 0, 0]), [1, 4]))),
    });
    await page.waitForFunction(() => /x\.npy/.test(document.querySelector('tr[data-input="x"]').textContent));
    await run(page);
    // logits = (0 + |w|) * 2 = [2, 4, 6, 8]: class 3 first.
    const top = await page.$$eval('[data-testid="topk"] li', (lis) => lis.map((l) => Number(l.dataset.class)));
    expect(top).toEqual([3, 2, 1, 0]);
    expect(await page.locator('[data-testid="topk"] li').first().textContent()).toMatch(/class 3\s+86\.5%/);
    await screenshot(page, 'topk');
    await page.close();
  });
});
