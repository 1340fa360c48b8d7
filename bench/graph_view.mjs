// How smooth the playground's graph view is on a large graph: opens MODEL.fxw (any folder) in headless
// Chromium and reports the time from load to a drawn graph, then the frame times while panning (drags)
// and zooming (wheel) — the median and the worst frame, measured with requestAnimationFrame in the page.
//
//   node bench/graph_view.mjs DIR NAME [NAME...]     e.g. node bench/graph_view.mjs /tmp/big resnet50 vit_b_16
//
// DIR is served as the corpus (tests/browser/make_graph_fixtures.py --big writes resnet50 and vit_b_16).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../web/playground/server.js';

const [dir, ...names] = process.argv.slice(2);
if (!dir || !names.length) {
  console.error('usage: node bench/graph_view.mjs DIR NAME [NAME...]');
  process.exit(2);
}
const server = await startServer({ port: 0, corpusDir: dir });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.FXWASM_CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'], viewport: { width: 1280, height: 900 },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function frames(page, act) {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__frames.length < 10000 && !window.__stop) requestAnimationFrame(tick);
    };
    window.__stop = false;
    requestAnimationFrame(tick);
  });
  await act();
  return page.evaluate(() => {
    window.__stop = true;
    return window.__frames.slice(1);
  });
}

try {
  for (const name of names) {
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(`${server.url}?model=${encodeURIComponent(name)}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="graph"] g.node') &&
      document.querySelector('[data-testid="status"]').textContent === 'ready', null, { timeout: 600000 });
    const loadMs = Date.now() - t0;
    const drawn = await page.$eval('[data-testid="graph"]', (s) => ({ nodes: s.dataset.nodes, boxes: s.dataset.boxes }));
    const box = await page.locator('[data-testid="graph"]').boundingBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // Zoom in to reading size first: panning at 100 % (text drawn) is the expensive case.
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -200);
    const pan = await frames(page, async () => {
      for (let r = 0; r < 3; r++) {
        await page.mouse.move(cx, cy);
        await page.mouse.down();
        await page.mouse.move(cx + 300, cy - 300, { steps: 30 });
        await page.mouse.up();
      }
    });
    const zoom = await frames(page, async () => {
      for (let i = 0; i < 20; i++) await page.mouse.wheel(0, i < 10 ? 120 : -120);
    });
    const t1 = Date.now();
    await page.locator('[data-testid="graph-fold-depth"]').selectOption('1');
    await page.waitForFunction(() => document.querySelector('[data-testid="graph"] g.node[data-group]'));
    const foldMs = Date.now() - t1;
    console.log(`${name}: ${drawn.nodes} nodes drawn; opened and drawn in ${loadMs} ms; ` +
      `pan frames median ${median(pan).toFixed(1)} ms, worst ${Math.max(...pan).toFixed(1)} ms (${pan.length}); ` +
      `zoom frames median ${median(zoom).toFixed(1)} ms, worst ${Math.max(...zoom).toFixed(1)} ms (${zoom.length}); ` +
      `fold to depth 1 in ${foldMs} ms`);
    await page.close();
  }
} finally {
  await context.close();
  await server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
