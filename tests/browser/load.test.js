// Loading in the playground: every bundled example, the file picker, drag-and-drop, the URL field, the
// progress bar, bad files (clear message in the page, page still usable) and no request leaving the server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  byTestId, dropFile, newPage, openExample, repoRoot, screenshot, startPlayground, tableCells, waitFor, waitForError,
} from './helpers.js';

const TOY = path.join(repoRoot, 'examples', 'seed', 'toy_example.fxw');

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

async function examples() {
  const res = await fetch(new URL('examples.json', pg.url));
  return res.json();
}

describe('loading', () => {
  async function openEach(page, list) {
    for (const ex of list) {
      const rows = await openExample(page, pg.url, ex.name);
      // A box per node, except get_attr nodes drawn inside the calls that use them.
      const boxes = new Set(await page.$$eval('[data-testid="graph"] g.node', (gs) => gs.map((g) => g.dataset.node)));
      const notBoxes = (await tableCells(page)).filter((r) => !boxes.has(r[1]));
      expect({ name: ex.name, notBoxes: notBoxes.filter((r) => r[0] !== 'get_attr') }).toEqual({ name: ex.name, notBoxes: [] });
      expect(boxes.size + notBoxes.length).toBe(rows);
      const info = await byTestId(page, 'info').textContent();
      expect(info).toMatch(new RegExp(`nodes\\s*${rows}`));
      expect(info).toMatch(/parameters/);
      expect(await byTestId(page, 'code').textContent()).toMatch(/def forward\(self/);
      expect(await byTestId(page, 'progress').getAttribute('data-seen')).toBe('true');
      await screenshot(page, `example-${ex.name.replace(/\W/g, '_')}`);
    }
  }

  test('every bundled example opens: summary, one row and one drawn box per node, code; all served locally', async () => {
    const page = await newPage(pg.context);
    const requests = [];
    page.on('request', (req) => requests.push(req.url()));
    const list = (await examples()).filter((e) => !e.corpus);
    expect(list.map((e) => e.name)).toEqual(expect.arrayContaining(['toy_example', 'digits_cnn', 'decoder_block']));
    await openEach(page, list);
    // Offline: the page, the package, the wasm, the layout library and the models all come from this server.
    const foreign = requests.filter((u) => !u.startsWith(pg.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(foreign).toEqual([]);
    expect(requests.some((u) => u.endsWith('/vendor/dagre.js'))).toBe(true);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('the corpus models built locally (MLP, resnet18, mobilenet_v2…) are listed and open', async () => {
    const list = (await examples()).filter((e) => e.corpus);
    // npm test builds the corpus first (scripts/test.sh).
    expect(list.map((e) => e.name)).toEqual(expect.arrayContaining(['mlp', 'resnet18', 'mobilenet_v2']));
    const page = await newPage(pg.context);
    const options = await page.goto(pg.url).then(() => waitFor(page, 'rows', 0))
      .then(() => page.$$eval('[data-testid="model-select"] option', (os) => os.map((o) => o.textContent)));
    for (const ex of list) expect(options).toContain(`${ex.name} (built, ${(ex.bytes / 1e6).toFixed(1)} MB)`);
    await openEach(page, list);
    expect(page.problems).toEqual([]);
    await page.close();
  }, 600000);

  test('a model with unsupported ops says which, in the summary', async () => {
    const page = await newPage(pg.context);
    await openExample(page, pg.url, 'decoder_block');
    const info = await byTestId(page, 'info').textContent();
    // Which ops are missing depends on the core's build; the summary lists them when there are any.
    const unsupported = await page.evaluate(() => {
      const dt = Array.from(document.querySelectorAll('[data-testid="info"] dt')).find((d) => d.textContent === 'unsupported');
      return dt ? dt.nextElementSibling.textContent : null;
    });
    if (unsupported !== null) expect(unsupported).toMatch(/\(\w+/);
    expect(info).toMatch(/parameters/);
    await page.close();
  });

  test('the file picker opens a .fxw', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    await byTestId(page, 'file-input').setInputFiles(TOY);
    expect(await waitFor(page, 'rows', 1)).toBe(8);
    expect(await page.locator('#model-name').textContent()).toBe('toy_example.fxw');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('drag-and-drop opens a .fxw; a dropped non-model shows an error and the page recovers', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    await dropFile(page, 'toy_example.fxw', fs.readFileSync(TOY));
    expect(await waitFor(page, 'rows', 1)).toBe(8);
    expect(await page.locator('#model-name').textContent()).toBe('toy_example.fxw');
    await screenshot(page, 'dropped');

    // A failed open keeps the model that was open (edits and all) and says why.
    await dropFile(page, 'notes.txt', Buffer.from('just some notes, not a model'));
    expect(await waitForError(page)).toMatch(/^could not open notes\.txt: not an \.fxw file: \S/);
    expect(await tableCells(page)).toHaveLength(8);
    expect(await page.locator('#model-name').textContent()).toBe('toy_example.fxw');
    expect(await page.locator('[data-testid="graph"] g.node').count()).toBe(8);
    await dropFile(page, 'again.fxw', fs.readFileSync(TOY));
    expect(await waitFor(page, 'rows', 1)).toBe(8);
    expect(await byTestId(page, 'error').isVisible()).toBe(false);
    await page.close();
  });

  test('the URL field opens a model by URL; a missing URL is an error', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    await byTestId(page, 'url-input').fill(`${pg.url}examples/seed/toy_example.fxw`);
    await byTestId(page, 'url-open').click();
    expect(await waitFor(page, 'rows', 1)).toBe(8);
    expect(await page.locator('#model-name').textContent()).toBe('toy_example.fxw');

    await byTestId(page, 'url-input').fill(`${pg.url}examples/nope/missing.fxw`);
    await byTestId(page, 'url-open').click();
    expect(await waitForError(page)).toMatch(/could not open missing\.fxw: .*404/);
    page.problems = page.problems.filter((p) => !p.includes('missing.fxw')); // the 404 was the point
    await byTestId(page, 'model-select').selectOption('toy_example');
    expect(await waitFor(page, 'rows', 1)).toBe(8);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a truncated file shows a clear message; the page stays usable', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    const bytes = fs.readFileSync(TOY);
    await byTestId(page, 'file-input').setInputFiles({
      name: 'truncated.fxw', mimeType: 'application/octet-stream', buffer: bytes.subarray(0, bytes.length >> 1),
    });
    const message = await waitForError(page);
    expect(message).toMatch(/^could not open truncated\.fxw: \S/);
    expect(message).not.toMatch(/abort|RuntimeError|wasm-function/i);
    await screenshot(page, 'truncated-file');
    await byTestId(page, 'file-input').setInputFiles(TOY);
    expect(await waitFor(page, 'rows', 1)).toBe(8);
    await byTestId(page, 'run-button').click();
    expect(await waitFor(page, 'outputs', 1)).toBe(2);
    expect(page.problems).toEqual([]);
    await page.close();
  });
});
