// Text from a file reaches the playground as text, never as markup: a file whose targets, module types and
// argument strings hold HTML (an <img onerror> that would run script, a <b>) shows them literally in the
// table, the code view, the graph and error messages, and no element of the file's making appears.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byTestId, newPage, startPlayground, tableCells, waitFor, waitForError } from './helpers.js';
import { makeFxw } from '../js/helpers.js';

const HTML = '<img src=x onerror="window.__pwned=1"><b id="injected">bold</b>';

function evilFxw() {
  return makeFxw({
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {},
        meta: { shape: { $size: [2] }, dtype: { $dtype: 'float32' } } },
      { op: 'call_function', name: 'evil', target: `torch.evil${HTML}`, args: [{ $node: 'x' }], kwargs: { s: HTML } },
      { op: 'call_module', name: 'mod', target: 'm', args: [{ $node: 'evil' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'mod' }], kwargs: {} },
    ],
    modules: {
      '': { type: 'torch.nn.modules.module.Module', hparams: {} },
      m: { type: `Evil${HTML}`, hparams: { note: HTML } },
    },
  });
}

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

describe('playground hygiene', () => {
  test('HTML in a file is shown as text in every view and never becomes elements', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitFor(page, 'rows', 0);
    await byTestId(page, 'file-input').setInputFiles({
      name: 'evil.fxw', mimeType: 'application/octet-stream', buffer: Buffer.from(evilFxw()),
    });
    expect(await waitFor(page, 'rows', 1)).toBe(4);
    const rows = await tableCells(page);
    expect(rows[1][2]).toBe(`torch.evil${HTML}`);  // the target, literally
    expect(rows.flat().join(' ')).toContain(HTML);
    expect(await byTestId(page, 'code').textContent()).toContain('torch.evil');
    // Running fails (unsupported op and module): the message quotes the target as text.
    await byTestId(page, 'run-button').click();
    const message = await waitForError(page);
    expect(message).toContain('torch.evil<img');
    // The details panel of the module and of the call: the module type, hyperparameter and kwarg as text.
    await page.click('[data-testid="graph"] g.node[data-node="mod"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-details"]').dataset.node === 'mod');
    const hp = await page.$$eval('[data-testid="module-hparams"] dd', (dds) => Object.fromEntries(dds.map((d) => [d.dataset.key, d.textContent])));
    expect(hp.type).toBe(`Evil${HTML}`);
    expect(hp.note).toBe(`'${HTML}'`);
    await page.click('[data-testid="graph"] g.node[data-node="evil"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-details"]').dataset.node === 'evil');
    expect(await byTestId(page, 'graph-details').textContent()).toContain(HTML);
    await byTestId(page, 'graph-search').fill('<img');
    const found = await page.evaluate(() => ({
      pwned: globalThis.__pwned ?? null,
      injected: document.querySelectorAll('#injected, img[src="x"]').length,
      graphText: document.querySelector('[data-testid="graph"]')?.textContent ?? '',
    }));
    expect(found.pwned).toBeNull();
    expect(found.injected).toBe(0);
    // Filter out the one expected problem (the failed run's console message), if any.
    expect(page.problems.filter((p) => !/evil|unsupported/i.test(p))).toEqual([]);
    await page.close();
  });
});
