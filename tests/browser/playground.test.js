// The playground in Chromium: examples list, ?model=, the tabular view, code, Run and error handling.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { newPage, screenshot, startPlayground, tableCells as allCells, waitFor, waitForError, waitReady } from './helpers.js';

// Dynamo's toy_example graph (examples/seed/toy_example.fxw) as print_tabular shows it, with targets as
// canonical qualified names.
const TOY_TABLE = [
  ['placeholder', 'l_a_', 'L_a_', '()', '{}'],
  ['placeholder', 'l_b_', 'L_b_', '()', '{}'],
  ['call_function', 'abs_1', 'torch.abs', '(l_a_,)', '{}'],
  ['call_function', 'add', 'operator.add', '(abs_1, 1)', '{}'],
  ['call_function', 'x', 'operator.truediv', '(l_a_, add)', '{}'],
  ['call_method', 'sum_1', 'sum', '(l_b_,)', '{}'],
  ['call_function', 'lt', 'operator.lt', '(sum_1, 0)', '{}'],
  ['output', 'output', 'output', '((lt, x),)', '{}'],
];

let pg;
beforeAll(async () => {
  pg = await startPlayground();
});
afterAll(async () => {
  await pg?.close();
});

const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);

// print_tabular's five columns of each row (the page adds output shape and dtype after them).
async function tableCells(page) {
  return (await allCells(page)).map((r) => r.slice(0, 5));
}

function outputCards(page) {
  return page.$$eval('[data-testid="outputs"] .output', (cards) =>
    cards.map((c) => ({
      label: c.dataset.output,
      shape: c.dataset.shape && JSON.parse(c.dataset.shape),
      dtype: c.dataset.dtype,
      text: c.textContent,
    })));
}

async function openToy(page) {
  await page.goto(`${pg.url}?model=toy_example`);
  await waitFor(page, 'rows', 1);
}

describe('playground', () => {
  test('loads idle, cross-origin isolated, and lists the bundled examples', async () => {
    const page = await newPage(pg.context);
    await page.goto(pg.url);
    await waitReady(page);
    expect(await byTestId(page, 'status').textContent()).toBe('ready');
    const options = await page.$$eval('[data-testid="model-select"] option', (os) => os.map((o) => o.value));
    expect(options).toContain('toy_example');
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    expect(await byTestId(page, 'error').isVisible()).toBe(false);
    expect(await byTestId(page, 'run-button').isDisabled()).toBe(true);
    await screenshot(page, 'home');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('?model=toy_example shows the tabular view and the code', async () => {
    const page = await newPage(pg.context);
    await openToy(page);
    const head = await page.$$eval('[data-testid="tabular"] thead tr', (rows) =>
      rows.map((tr) => Array.from(tr.cells, (c) => c.textContent)));
    expect(head).toEqual([['opcode', 'name', 'target', 'args', 'kwargs', 'shape', 'dtype']]);
    expect(await tableCells(page)).toEqual(TOY_TABLE);
    // Output shape and dtype come from the exporter's meta: known before any run.
    const cells = await allCells(page);
    expect(cells[2].slice(5)).toEqual(['[10]', 'float32']);
    expect(cells[6].slice(5)).toEqual(['[]', 'bool']);
    expect(cells[7].slice(5)).toEqual(['([], [10])', '(bool, float32)']);
    expect(await byTestId(page, 'model-select').inputValue()).toBe('toy_example');

    const code = byTestId(page, 'code');
    expect(await code.isVisible()).toBe(true);
    expect(await code.evaluate((el) => el.tagName)).toBe('PRE');
    const text = await code.textContent();
    expect(text).toMatch(/def forward\(self, L_a_/);
    expect(text).toMatch(/return \(lt, x\)/);
    expect(await byTestId(page, 'run-button').isEnabled()).toBe(true);
    await screenshot(page, 'toy_example');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('Run shows both outputs of toy_example with shape, dtype, preview and stats', async () => {
    const page = await newPage(pg.context);
    await openToy(page);
    await byTestId(page, 'run-button').click();
    await waitFor(page, 'outputs', 1);
    const outputs = await outputCards(page);
    expect(outputs).toHaveLength(2);
    expect(outputs[0]).toMatchObject({ label: 'out[0]', shape: [], dtype: 'bool' });
    expect(outputs[0].text).toMatch(/\[(True|False)\]/);
    expect(outputs[1]).toMatchObject({ label: 'out[1]', shape: [10], dtype: 'float32' });
    expect(outputs[1].text).toMatch(/min -?\d.*max -?\d.*mean -?\d/);
    // x = a / (|a| + 1) lies in (-1, 1).
    const values = outputs[1].text.match(/\[([^\]]*)\]\s*min/)?.[1].split(',').map(Number);
    expect(values).toHaveLength(10);
    for (const v of values) expect(Math.abs(v)).toBeLessThan(1);
    await screenshot(page, 'toy_example-run');
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('a garbage file shows an error and keeps the open model, which still runs; the page opens the example again', async () => {
    const page = await newPage(pg.context);
    await openToy(page); // the runtime is up, so the error below is about the file
    await byTestId(page, 'file-input').setInputFiles({
      name: 'garbage.fxw',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('this is not a safetensors file, just some text that goes on for a while'),
    });
    const message = await waitForError(page);
    expect(message).toMatch(/^could not open garbage\.fxw: not an \.fxw file: \S/);
    expect(message.length).toBeGreaterThan('could not open garbage.fxw: '.length + 10);
    expect(message).not.toMatch(/abort|RuntimeError|wasm-function|WebAssembly build/i);
    expect(await byTestId(page, 'status').textContent()).toBe('ready');
    // The model that was open stays open, as it was.
    expect(await tableCells(page)).toEqual(TOY_TABLE);
    expect(await byTestId(page, 'run-button').isDisabled()).toBe(false);
    expect(new URL(page.url()).searchParams.get('model')).toBe('toy_example');
    await screenshot(page, 'garbage-file');
    await byTestId(page, 'run-button').click();
    expect(await waitFor(page, 'outputs', 1)).toBe(2);

    await byTestId(page, 'model-select').selectOption('toy_example');
    await waitFor(page, 'rows', 1);
    expect(await byTestId(page, 'error').isVisible()).toBe(false);
    expect(await tableCells(page)).toEqual(TOY_TABLE);
    expect(new URL(page.url()).searchParams.get('model')).toBe('toy_example');
    await byTestId(page, 'run-button').click();
    expect(await waitFor(page, 'outputs', 1)).toBe(2);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  test('an unknown ?model= names the examples and leaves the page usable', async () => {
    const page = await newPage(pg.context);
    await page.goto(`${pg.url}?model=no_such_model`);
    expect(await waitForError(page)).toMatch(/no_such_model.*toy_example/);
    await byTestId(page, 'model-select').selectOption('toy_example');
    expect(await waitFor(page, 'rows', 1)).toBe(TOY_TABLE.length);
    expect(await byTestId(page, 'error').isVisible()).toBe(false);
    await page.close();
  });
});
