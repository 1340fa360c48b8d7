// Shared set-up for the browser tests: the playground server in-process on a free port and Debian's
// Chromium through playwright-core, with a fresh profile per launch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/playground/server.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const artifactsDir = path.join(repoRoot, 'test-artifacts', 'browser');

export const CHROMIUM = process.env.FXWASM_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Starts the server and a browser; returns {url, context, close}. `corpusDir` serves a test's own models
 * as the corpus; `viewport` sizes the page.
 */
export async function startPlayground({ corpusDir, viewport = { width: 1280, height: 900 } } = {}) {
  // FXWASM_DIST serves another wasm build (e.g. build/<dir>) in place of web/dist/.
  const distDir = process.env.FXWASM_DIST ? path.resolve(repoRoot, process.env.FXWASM_DIST) : undefined;
  const server = await startServer({ port: 0, distDir, corpusDir });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-chromium-'));
  let context;
  try {
    // launch() refuses --user-data-dir in args; a persistent context on a fresh folder is the same thing.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
    });
  } catch (err) {
    await server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }
  fs.mkdirSync(artifactsDir, { recursive: true });
  return {
    url: server.url,
    context,
    async close() {
      await context.close();
      await server.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A new page that records uncaught page errors and failed requests (for assertions). */
export async function newPage(context) {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => page.problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) page.problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return page;
}

export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });
}

/** Waits until the status element says `ready`. */
export async function waitReady(page, timeout = 60000) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="status"]')?.textContent === 'ready', null, { timeout });
}

/**
 * Waits until the page is idle with at least `n` table rows (what = 'rows') or output cards
 * (what = 'outputs'). Fails at once, with the page's message, when the error box shows instead.
 */
export async function waitFor(page, what, n, timeout = 60000) {
  const handle = await page.waitForFunction(
    ({ what, n }) => {
      const error = document.querySelector('[data-testid="error"]');
      if (error && !error.hidden) return { error: error.textContent };
      if (document.querySelector('[data-testid="status"]')?.textContent !== 'ready') return false;
      const selector = what === 'rows' ? '[data-testid="tabular"] tbody tr' : '[data-testid="outputs"] .output';
      const count = document.querySelectorAll(selector).length;
      return count >= n ? { count } : false;
    },
    { what, n },
    { timeout },
  );
  const result = await handle.jsonValue();
  if (result.error !== undefined) throw new Error(`the page shows an error: ${result.error}`);
  return result.count;
}

/** Waits until the error box shows and the page is idle again; returns the message. */
export async function waitForError(page, timeout = 60000) {
  const error = page.locator('[data-testid="error"]');
  await error.waitFor({ state: 'visible', timeout });
  await waitReady(page, timeout);
  return error.textContent();
}

export const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);

/** The table's rows as arrays of cell texts (print_tabular's five columns, then shape and dtype). */
export function tableCells(page) {
  return page.$$eval('[data-testid="tabular"] tbody tr', (rows) =>
    rows.map((tr) => Array.from(tr.cells, (td) => td.textContent)));
}

/** Drops a file on the page as a drag-and-drop from the desktop would (dragenter, dragover, drop). */
export async function dropFile(page, name, bytes) {
  await page.evaluate(({ name, b64 }) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], name, { type: 'application/octet-stream' }));
    const target = document.querySelector('main');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, { name, b64: Buffer.from(bytes).toString('base64') });
}

/** Opens `?model=NAME` and waits for its table. */
export async function openExample(page, url, name) {
  await page.goto(`${url}?model=${encodeURIComponent(name)}`);
  return waitFor(page, 'rows', 1);
}
