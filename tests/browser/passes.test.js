// The Transform panel: passes change the graph (table, drawing, code), the panel compares the tables and
// node counts before and after, and the edited module downloads as a .fxw that loads and runs the same.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, openExample, screenshot, startPlayground, tableCells, waitFor } from './helpers.js';
import { fxwasm, inspect, passesDemo } from './fixtures.js';

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

const names = async (page) => (await tableCells(page)).map((r) => r[1]);
const summary = (page) => byTestId(page, 'pass-summary').evaluate((el) => ({ ...el.dataset, text: el.textContent }));

async function applyPass(page, name) {
  await byTestId(page, `pass-${name}`).click();
  await page.waitForFunction((n) => document.querySelector('[data-testid="pass-summary"]')?.dataset.pass === n &&
    document.querySelector('[data-testid="status"]').textContent === 'ready', name);
  return summary(page);
}

describe('passes', () => {
  test('dce and constant folding: before/after tables and counts, then download the result', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    await byTestId(page, 'file-input').setInputFiles({ name: 'demo.fxw', mimeType: 'application/octet-stream', buffer: Buffer.from(await passesDemo()) });
    await waitFor(page, 'rows', 1);
    expect(await names(page)).toEqual(['x', 'w', 'abs_1', 'neg', 'add', 'mul', 'output']);

    let s = await applyPass(page, 'dce');
    expect(s).toMatchObject({ before: '7', after: '6', changed: 'true' });
    expect(s.text).toMatch(/nodes 7 → 6; removed neg/);
    expect(await names(page)).toEqual(['x', 'w', 'abs_1', 'add', 'mul', 'output']);
    // The weight w (a get_attr) is drawn inside abs_1, its user, not as a box of its own.
    expect(await page.locator('[data-testid="graph"] g.node').count()).toBe(5);
    expect(await page.locator('[data-testid="graph"] g.node[data-node="abs_1"] text.weight').textContent()).toBe('w [4]');
    expect(await page.$$eval('[data-testid="pass-before"] tr.removed', (trs) => trs.map((t) => t.dataset.node))).toEqual(['neg']);
    expect(await byTestId(page, 'code').textContent()).not.toMatch(/neg/);

    s = await applyPass(page, 'constant_fold');
    expect(s).toMatchObject({ before: '6', after: '5', changed: 'true' });
    expect(await names(page)).toEqual(['x', '_folded_abs_1', 'add', 'mul', 'output']);
    expect(await page.$$eval('[data-testid="pass-after"] tr.added', (trs) => trs.map((t) => t.dataset.node))).toEqual(['_folded_abs_1']);
    expect(await page.$$eval('[data-testid="pass-after"] tr.changed', (trs) => trs.map((t) => t.dataset.node))).toEqual(['add']);

    s = await applyPass(page, 'dce');
    expect(s).toMatchObject({ before: '5', after: '5', changed: 'false' });
    expect(await byTestId(page, 'pass-history').textContent()).toBe('Applied: dce → constant_fold → dce (no change)');
    await screenshot(page, 'passes');

    // The edited graph runs: (x + |w|) * 2 with x = ones from a .npy.
    await byTestId(page, 'input-source-x').selectOption('npy');
    await byTestId(page, 'input-file-x').setInputFiles({
      name: 'x.npy', mimeType: 'application/octet-stream',
      buffer: Buffer.from(fxwasm.writeNpy(fxwasm.tensor(new Float32Array([1, 1, 1, 1]), [1, 4]))),
    });
    await page.waitForFunction(() => /x\.npy/.test(document.querySelector('tr[data-input="x"]').textContent));
    await byTestId(page, 'run-button').click();
    await waitFor(page, 'outputs', 1);
    expect(await page.locator('[data-testid="outputs"] .output pre').first().textContent()).toBe('[4, 6, 8, 10]');

    const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'download').click()]);
    expect(download.suggestedFilename()).toBe('demo.edited.fxw');
    const bytes = fs.readFileSync(await download.path());
    await inspect(bytes, async (gm) => {
      expect(Array.from(gm.graph.nodes, (n) => n.name)).toEqual(['x', '_folded_abs_1', 'add', 'mul', 'output']);
      const out = await gm.run([fxwasm.tensor(new Float32Array([1, 1, 1, 1]), [1, 4])]);
      expect(Array.from(out.data)).toEqual([4, 6, 8, 10]);
    });
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('shape propagation fills the shape column; conv-bn folding on a graph without conv changes nothing', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'toy_example');
    let s = await applyPass(page, 'shape_prop');
    expect(s.before).toBe('8');
    expect(s.after).toBe('8');
    expect((await tableCells(page)).find((r) => r[1] === 'x').slice(5)).toEqual(['[10]', 'float32']);
    s = await applyPass(page, 'fold_conv_bn');
    expect(s).toMatchObject({ before: '8', after: '8', changed: 'false' });
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a failing pass shows its error and leaves the model usable', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'decoder_block');
    // shape_prop runs the graph; when the core cannot run it the message says why, and the page stays usable.
    await byTestId(page, 'pass-shape_prop').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'ready');
    const error = byTestId(page, 'error');
    if (await error.isVisible()) {
      expect(await error.textContent()).toMatch(/^pass shape_prop failed: \S/);
    }
    const rows = (await tableCells(page)).length;
    expect(rows).toBeGreaterThan(10);
    const s = await applyPass(page, 'dce');
    expect(s.after).toBe(String(rows));
    expect(await byTestId(page, 'error').isVisible()).toBe(false);
    await page.close();
  });

  test('resnet18 (when built): conv-bn folding removes every BatchNorm; an image runs through it', async () => {
    const list = await (await fetch(new URL('examples.json', pg.url))).json();
    expect(list.some((e) => e.name === 'resnet18')).toBe(true);  // npm test builds the corpus first
    const page = await newPage(pg.context);
    const rows = await openExample(page, pg.url, 'resnet18');
    // BatchNorm modules: bn1, layer1.0.bn2, layer2.0.downsample.1 … (call_module targets are module paths).
    const isBn = (r) => r[0] === 'call_module' && /(^|\.)bn\d$|downsample\.1$/.test(r[2]);
    const bns = (await tableCells(page)).filter(isBn).length;
    expect(bns).toBe(20);
    const s = await applyPass(page, 'fold_conv_bn');
    expect(s.changed).toBe('true');
    expect(Number(s.after)).toBeLessThan(rows);
    expect(rows - Number(s.after)).toBe(bns);
    const after = await tableCells(page);
    expect(after.filter(isBn)).toEqual([]);
    expect(await page.locator('[data-testid="graph"] g.node').count()).toBe(after.length);

    const png = await page.evaluate(() => {
      const c = Object.assign(document.createElement('canvas'), { width: 96, height: 64 });
      const ctx = c.getContext('2d');
      const g = ctx.createLinearGradient(0, 0, 96, 64);
      g.addColorStop(0, '#c33');
      g.addColorStop(1, '#33c');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 96, 64);
      return c.toDataURL('image/png').split(',')[1];
    });
    const input = (await page.$eval('[data-testid="inputs"] tr[data-input]', (tr) => tr.dataset.input));
    await byTestId(page, `input-source-${input}`).selectOption('image');
    await byTestId(page, `input-file-${input}`).setInputFiles({ name: 'grad.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    await page.waitForFunction((n) => /grad\.png \[\d+, 3, 224, 224\]/.test(document.querySelector(`tr[data-input="${n}"]`).textContent), input);
    await byTestId(page, 'run-button').click();
    await waitFor(page, 'outputs', 1, 120000);
    expect(await page.locator('[data-testid="topk"] li').count()).toBe(5);
    expect(await page.locator('[data-testid="profile"] tbody tr').count()).toBe(after.length);
    await screenshot(page, 'resnet18-folded');
    expect(page.problems).toEqual([]);
    await page.close();
  }, 300000);

  test('fusions: conv/linear + relu become fxwasm.fused_* nodes; the fused model runs the same and downloads', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'digits_cnn');
    const numbers = async () => (await page.$$eval('[data-testid="outputs"] .output pre', (ps) => ps.map((p) => p.textContent)))
      .join(' ').match(/-?\d+(\.\d+)?(e[-+]?\d+)?/g).map(Number);
    const runReference = async () => {
      await byTestId(page, 'input-source-x').selectOption('reference');
      await byTestId(page, 'run-button').click();
      await waitFor(page, 'outputs', 1);
      return numbers();
    };
    const unfused = await runReference();

    const s = await applyPass(page, 'fuse');
    // conv1, conv2, fc1 absorb their relus (3 calls fewer); each fused node reads its weight and bias
    // through get_attr nodes (6 more nodes), as FX's functional graphs do.
    expect(s).toMatchObject({ before: '11', after: '14', callsBefore: '9', callsAfter: '6', changed: 'true' });
    expect(s.text).toMatch(/calls 9 → 6/);
    const rows = await tableCells(page);
    expect(rows.filter((r) => r[2] === 'fxwasm.fused_conv2d').map((r) => r[1])).toEqual(['conv1', 'conv2']);
    expect(rows.filter((r) => r[2] === 'fxwasm.fused_linear').map((r) => r[1])).toEqual(['fc1']);
    expect(await page.$$eval('[data-testid="pass-before"] tr.removed', (trs) => trs.map((t) => t.dataset.node)))
      .toEqual(['relu', 'relu_1', 'relu_2']);
    expect(await byTestId(page, 'code').textContent()).toMatch(/conv1 = fxwasm\.fused_conv2d\(x, conv1_weight, conv1_bias/);
    // The six get_attr nodes are drawn inside the fused calls that read them: 14 nodes, 8 boxes.
    expect(await page.locator('[data-testid="graph"] g.node').count()).toBe(8);
    expect(await page.locator('[data-testid="graph"] g.node[data-node="conv1"] text.weight').count()).toBe(2);
    await screenshot(page, 'fusions');

    const fused = await runReference();
    expect(fused.length).toBe(unfused.length);
    fused.forEach((v, i) => expect(Math.abs(v - unfused[i])).toBeLessThanOrEqual(1e-3 * (1 + Math.abs(unfused[i]))));
    expect(await page.locator('[data-testid="profile"] tbody tr').count()).toBe(14);

    const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'download').click()]);
    await inspect(fs.readFileSync(await download.path()), async (gm) => {
      expect(gm.graph.find('conv2').target).toBe('fxwasm.fused_conv2d');
      expect((await gm.check({ rtol: 1e-4, atol: 1e-5 })).status).toBe('pass');
    });
    expect(page.problems).toEqual([]);
    await page.close();
  }, 120000);
});
