// The playground's static server, over HTTP (no browser): routes, MIME types, isolation headers,
// the examples listing and refusal of paths outside the served folders.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer } from '../../web/playground/server.js';
import { repoRoot } from './helpers.js';

// FXWASM_DIST: another wasm build in place of web/dist/ (as in helpers.js).
const distDir = () => (process.env.FXWASM_DIST ? path.resolve(repoRoot, process.env.FXWASM_DIST) : undefined);

let server;
beforeAll(async () => {
  server = await startServer({ port: 0, distDir: distDir() });
});
afterAll(async () => {
  await server?.close();
});

// Sends the path exactly as written (fetch would normalise away `..`).
function rawGet(rawPath, method = 'GET') {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function expectIsolation(headers) {
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
}

describe('playground server', () => {
  test('picks a free port with port 0 and reports its URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(server.port).toBeGreaterThan(0);
  });

  test('serves the page with isolation headers', async () => {
    const res = await rawGet('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expectIsolation(res.headers);
    expect(res.body.toString()).toContain('data-testid="tabular"');
    const js = await rawGet('/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    const css = await rawGet('/style.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  test('serves the package sources and the wasm build with their MIME types', async () => {
    const src = await rawGet('/web/src/index.js');
    expect(src.status).toBe(200);
    expect(src.headers['content-type']).toMatch(/^text\/javascript/);
    expectIsolation(src.headers);
    const wasmFile = path.join(distDir() ?? path.join(repoRoot, 'web', 'dist'), 'fxwasm.wasm');
    expect(fs.existsSync(wasmFile)).toBe(true);
    const wasm = await rawGet('/web/dist/fxwasm.wasm');
    expect(wasm.status).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.body.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    const mjs = await rawGet('/web/dist/fxwasm.mjs');
    expect(mjs.headers['content-type']).toMatch(/^text\/javascript/);
  });

  test('lists the bundled examples and serves them', async () => {
    const res = await rawGet('/examples.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectIsolation(res.headers);
    const list = JSON.parse(res.body.toString());
    const toy = list.find((e) => e.name === 'toy_example');
    expect(toy).toMatchObject({ path: '/examples/seed/toy_example.fxw' });
    const file = await rawGet(toy.path);
    expect(file.status).toBe(200);
    expect(file.body.length).toBe(toy.bytes);
    const head = await rawGet(toy.path, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(toy.bytes);
    expect(head.body.length).toBe(0);
  });

  test('serves the layout library from node_modules under /vendor/, and only the files it maps', async () => {
    const res = await rawGet('/vendor/dagre.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expectIsolation(res.headers);
    expect(res.body.toString()).toMatch(/export\s*\{[^}]*layout/);
    for (const p of ['/vendor/', '/vendor/dagre', '/vendor/../package.json', '/vendor/%2e%2e/package.json',
      '/vendor/@dagrejs/dagre/package.json', '/vendor/constructor', '/vendor/__proto__']) {
      expect([403, 404]).toContain((await rawGet(p)).status);
    }
  });

  test('refuses paths outside the served folders', async () => {
    for (const p of [
      '/../package.json',
      '/web/src/../../package.json',
      '/%2e%2e/package.json',
      '/web/src/%2e%2e/%2e%2e/package.json',
      '/examples/..%2f..%2fpackage.json',
      '/web/dist/..%5c..%5cpackage.json',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/web/src/%00index.js',
    ]) {
      const res = await rawGet(p);
      expect([400, 403, 404]).toContain(res.status);
      expect(res.body.toString()).not.toContain('"name": "fxwasm"');
      expectIsolation(res.headers);
    }
    // Only model files are published from examples/, and the server does not serve itself.
    expect((await rawGet('/server.js')).status).toBe(404);
  });

  test('does not serve its own source under any spelling of the path', async () => {
    const source = fs.readFileSync(path.join(repoRoot, 'web', 'playground', 'server.js'), 'utf8');
    for (const p of [
      '/server.js', '/server.js/', '//server.js', '/./server.js', '/lib/../server.js', '/%73erver.js',
      '/server%2ejs', '/server.js%2f', '/%2fserver.js', '/lib%2f..%2fserver.js', '/server.js//', '/SERVER.JS',
      '/server.js?x=1', '/server.js#x', '/server.js%00',
    ]) {
      const res = await rawGet(p);
      expect([400, 403, 404]).toContain(res.status);
      expect(res.body.toString()).not.toContain(source.slice(0, 200));
    }
    expect((await rawGet('/app.js')).status).toBe(200);  // the page's own scripts still are
  });

  test('answers 404 for missing files and 405 for other methods', async () => {
    expect((await rawGet('/nope.js')).status).toBe(404);
    expect((await rawGet('/', 'POST')).status).toBe(405);
  });
});
