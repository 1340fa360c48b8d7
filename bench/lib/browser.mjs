// `npm run bench -- --browser`: the transformer workloads in headless Chromium, on a cross-origin isolated
// page (COOP/COEP, as web/playground/server.js serves the playground, so SharedArrayBuffer and wasm threads
// are there), with the same measuring code as in Node (bench/lib/transformers.mjs), the same files, variants
// and rounds. Chromium is Debian's (/usr/bin/chromium, or FXWASM_CHROMIUM), driven by playwright-core as the
// browser tests do (tests/browser/helpers.js).
//
// The server publishes only what the page needs, at the repository's own paths so that relative imports
// work as in Node: /bench/browser/ (the page), /bench/lib/, /web/src/, /web/dist/ (fxwasm),
// /node_modules/onnxruntime-web/dist/ (ORT's browser bundle and its wasm), and /data/ for
// .cache/bench/transformers/ (the models, .npy inputs, meta.json).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.FXWASM_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.cjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };

/** A static server of `routes` ([URL prefix, folder]) on 127.0.0.1, a free port: { url, close }. */
export function serveIsolated(routes) {
  const server = http.createServer((req, res) => {
    const fail = (status) => { res.writeHead(status, ISOLATION_HEADERS); res.end(); };
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return fail(400);
    }
    const hit = routes.find(([prefix]) => urlPath.startsWith(prefix));
    const rel = hit ? urlPath.slice(hit[0].length) : '';
    if (!hit || rel.split('/').some((s) => s === '..' || s === '') || rel.includes('\\') || rel.includes('\0')) return fail(404);
    const file = path.join(hit[1], ...rel.split('/'));
    let stat;
    try { stat = fs.statSync(file); } catch { return fail(404); }
    if (!stat.isFile()) return fail(404);
    res.writeHead(200, { ...ISOLATION_HEADERS, 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': stat.size, 'Cache-Control': 'no-store' });
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}`,
      close: () => new Promise((done) => { server.close(() => done()); server.closeAllConnections?.(); }),
    }));
  });
}

/**
 * measureTransformers(names, variants, {rounds}) in Chromium, once per entry of `pages` (a variant list
 * each, in a fresh page: ORT reads its thread count once per page as once per Node process). Resolves to
 * { environment: {userAgent, crossOriginIsolated, hardwareConcurrency, chromium}, transformers } with the
 * pages' variants merged, or throws when the browser or the page cannot start.
 */
export async function measureTransformersInBrowser(root, names, pages, { rounds, log = () => {} } = {}) {
  const require = createRequire(import.meta.url);
  const ortDist = path.dirname(require.resolve('onnxruntime-web'));  // its dist/ (the require build's folder)
  const server = await serveIsolated([
    ['/bench/browser/', path.join(root, 'bench', 'browser')],
    ['/bench/lib/', path.join(root, 'bench', 'lib')],
    ['/web/src/', path.join(root, 'web', 'src')],
    ['/web/dist/', path.join(root, 'web', 'dist')],
    ['/node_modules/onnxruntime-web/dist/', ortDist],
    ['/data/', path.join(root, '.cache', 'bench', 'transformers')],
  ]);
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    let merged = null;
    for (const variants of pages) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(0);  // a measuring call takes minutes
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`); });
      await page.exposeFunction('benchLog', (m) => log(`  [chromium] ${m.replace(/^\s+/, '')}`));
      await page.goto(`${server.url}/bench/browser/index.html`);
      await page.waitForFunction(() => globalThis.benchReady === true, null, { timeout: 60000 }).catch(() => {
        throw new Error(`the bench page did not start: ${problems.join(' | ') || 'no error reported'}`);
      });
      const r = await page.evaluate(({ names, variants, rounds }) => globalThis.benchTransformers(names, variants, { rounds }),
        { names, variants, rounds });
      if (problems.length) log(`  [chromium] page errors: ${problems.join(' | ')}`);
      await context.close();
      if (!merged) {
        merged = r;
      } else {
        for (const [w, x] of Object.entries(r.transformers)) {
          if (x?.variants && merged.transformers[w]?.variants) Object.assign(merged.transformers[w].variants, x.variants);
        }
      }
    }
    merged.environment.chromium = browser.version();
    return merged;
  } finally {
    await browser?.close();
    await server.close();
  }
}
