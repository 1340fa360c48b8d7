#!/usr/bin/env node
// Static server for the fxwasm playground: Node's http module only, so `npm start` needs no framework.
//
// Routes (GET and HEAD only):
//   /                    web/playground/index.html
//   /examples.json       [{ name, path, bytes }] for every examples/**/*.fxw
//   /examples/**.fxw     the bundled example files
//   /corpus/*.fxw        the bigger corpus models, when built (tests/corpus/build_corpus.py writes the MLP,
//                        resnet18, mobilenet_v2… to .cache/corpus/, not committed); listed after examples/
//   /web/src/**          the package's JS sources (the page imports /web/src/index.js)
//   /web/dist/**         the wasm build (fxwasm.mjs + fxwasm.wasm, found via import.meta.url)
//   /vendor/<name>       a fixed list of files from npm packages (VENDOR below), e.g. the graph layout
//                        library: everything the page needs comes from this server (no CDN)
//   /**                  anything else under web/playground/ (app.js, style.css, lib/…)
//
// Every response carries COOP same-origin + COEP require-corp, so the page is cross-origin isolated
// and SharedArrayBuffer (wasm threads) is available once the package uses it.
import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

const DEFAULT_ROOTS = {
  playground: here,
  src: path.join(repoRoot, 'web', 'src'),
  dist: path.join(repoRoot, 'web', 'dist'),
  examples: path.join(repoRoot, 'examples'),
  corpus: path.join(repoRoot, '.cache', 'corpus'),
};

// /vendor/<name> -> [npm package, file inside it]. Only these files are served from node_modules; the
// package is found the way Node finds it (so a hoisted install works too).
const VENDOR = {
  'dagre.js': ['@dagrejs/dagre', 'dist/dagre.esm.js'],
  'dagre.esm.js.map': ['@dagrejs/dagre', 'dist/dagre.esm.js.map'], // named by the file's sourceMappingURL
  'dagre.LICENSE.txt': ['@dagrejs/dagre', 'LICENSE'],
};
const require = createRequire(import.meta.url);

function vendorFile(name) {
  const entry = Object.hasOwn(VENDOR, name) ? VENDOR[name] : null;
  if (!entry) return null;
  try {
    const pkgDir = path.dirname(require.resolve(`${entry[0]}/package.json`));
    return path.join(pkgDir, entry[1]);
  } catch {
    return null; // not installed: 404
  }
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',  // the pthread worker of fxwasm-threads.mjs
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.fxw': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.d.ts': 'text/plain; charset=utf-8',
};

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

function mimeFor(file) {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

// Maps a URL path to [root, path relative to it], or null when no route serves it.
function route(roots, urlPath) {
  if (urlPath === '/' || urlPath === '/index.html') return [roots.playground, 'index.html'];
  const prefixes = [
    ['/web/src/', roots.src],
    ['/web/dist/', roots.dist],
    ['/examples/', roots.examples],
    ['/corpus/', roots.corpus],
  ];
  for (const [prefix, root] of prefixes) {
    if (urlPath.startsWith(prefix)) {
      const rel = urlPath.slice(prefix.length);
      // Only the model files are published from examples/ and the corpus (not the scripts that made them).
      if ((root === roots.examples || root === roots.corpus) && !rel.endsWith('.fxw')) return null;
      return [root, rel];
    }
  }
  // server.js is the server, not part of the page.
  if (urlPath === '/server.js') return null;
  return [roots.playground, urlPath.slice(1)];
}

// Resolves rel inside root; null when the result would leave root (`..`, absolute paths, NUL,
// backslashes, or a symlink pointing outside), or when rel has an empty segment (`a//b`, a trailing `/`):
// path.resolve would drop it, so `/server.js/` would name the file `/server.js` is refused as.
async function safeResolve(root, rel) {
  if (rel.includes('\0') || rel.includes('\\')) return null;
  const segments = rel.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return null;
  const full = path.resolve(root, rel);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    const [realRoot, realFull] = await Promise.all([fsp.realpath(root), fsp.realpath(full)]);
    if (realFull !== realRoot && !realFull.startsWith(realRoot + path.sep)) return null;
    return realFull;
  } catch {
    return full; // does not exist: the caller answers 404
  }
}

const SERVER_SOURCE = fileURLToPath(import.meta.url);
let serverSourceReal = null;

async function isServerSource(file) {
  serverSourceReal ??= await fsp.realpath(SERVER_SOURCE).catch(() => SERVER_SOURCE);
  const real = await fsp.realpath(file).catch(() => path.resolve(file));
  return real === serverSourceReal;
}

async function findModels(root) {
  const found = [];
  async function walk(dir) {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && e.name.endsWith('.fxw')) found.push(full);
    }
  }
  await walk(root);
  return found.sort();
}

async function listExamples(roots) {
  // Name is the file's stem; when two folders hold the same stem, the later ones get their
  // folder-qualified name so every `?model=NAME` stays unambiguous. Corpus models whose name an
  // example already has are left out (the corpus rebuilds the small ones too).
  const seen = new Set();
  const list = [];
  for (const full of await findModels(roots.examples)) {
    const rel = path.relative(roots.examples, full).split(path.sep).join('/');
    let name = path.basename(full, '.fxw');
    if (seen.has(name)) name = rel.slice(0, -'.fxw'.length);
    seen.add(name);
    const { size } = await fsp.stat(full);
    list.push({ name, path: `/examples/${rel}`, bytes: size });
  }
  for (const full of await findModels(roots.corpus)) {
    const rel = path.relative(roots.corpus, full).split(path.sep).join('/');
    const name = rel.slice(0, -'.fxw'.length);
    if (seen.has(name)) continue;
    seen.add(name);
    const { size } = await fsp.stat(full);
    list.push({ name, path: `/corpus/${rel}`, bytes: size, corpus: true });
  }
  return list.sort((a, b) => a.name.localeCompare(b.name));
}

function send(res, status, body, type = 'text/plain; charset=utf-8', head = false) {
  const buf = Buffer.from(body);
  res.writeHead(status, {
    ...ISOLATION_HEADERS,
    'Content-Type': type,
    'Content-Length': buf.length,
    'Cache-Control': 'no-cache',
  });
  res.end(head ? undefined : buf);
}

async function handle(roots, req, res) {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n', undefined, head);
  }
  let urlPath;
  try {
    // Prefixed, not resolved against a base: `//server.js` would parse as a host name, not a path.
    const raw = req.url.startsWith('/') ? `http://localhost${req.url}` : req.url;
    urlPath = decodeURIComponent(new URL(raw, 'http://localhost').pathname);
  } catch {
    return send(res, 400, 'bad request\n', undefined, head);
  }
  if (urlPath === '/examples.json') {
    const list = await listExamples(roots);
    return send(res, 200, JSON.stringify(list, null, 2) + '\n', MIME['.json'], head);
  }
  let file;
  if (urlPath.startsWith('/vendor/')) {
    file = vendorFile(urlPath.slice('/vendor/'.length));
    if (!file) return send(res, 404, 'not found\n', undefined, head);
  } else {
    const target = route(roots, urlPath);
    if (!target) return send(res, 404, 'not found\n', undefined, head);
    file = await safeResolve(...target);
  }
  if (!file) return send(res, 403, 'forbidden\n', undefined, head);
  // Whatever spelling reached it (`/server.js/`, `//server.js`, `%2e`, encoded slashes), the server's own
  // source is not part of the page.
  if (await isServerSource(file)) return send(res, 404, 'not found\n', undefined, head);
  let stat;
  try {
    stat = await fsp.stat(file);
  } catch {
    return send(res, 404, 'not found\n', undefined, head);
  }
  if (!stat.isFile()) return send(res, 404, 'not found\n', undefined, head);
  res.writeHead(200, {
    ...ISOLATION_HEADERS,
    'Content-Type': file.endsWith('.d.ts') ? MIME['.d.ts'] : mimeFor(file),
    'Content-Length': stat.size,
    'Cache-Control': 'no-cache',
  });
  if (head) return res.end();
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * Starts the playground server. `port: 0` picks a free port. `distDir` / `examplesDir` / `corpusDir`
 * serve another wasm build, examples folder or corpus folder (e.g. a test's own build) in place of
 * web/dist/, examples/ and .cache/corpus/.
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>}>}
 */
export function startServer({ port = 8080, host = '127.0.0.1', distDir, examplesDir, corpusDir } = {}) {
  const roots = {
    ...DEFAULT_ROOTS,
    ...(distDir ? { dist: path.resolve(distDir) } : {}),
    ...(examplesDir ? { examples: path.resolve(examplesDir) } : {}),
    ...(corpusDir ? { corpus: path.resolve(corpusDir) } : {}),
  };
  const server = http.createServer((req, res) => {
    handle(roots, req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, `internal error: ${err.message}\n`);
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = server.address().port;
      const url = `http://${host}:${actual}/`;
      const close = () =>
        new Promise((done) => {
          server.close(() => done());
          server.closeAllConnections?.();
        });
      resolve({ url, port: actual, close, server });
    });
  });
}

function parsePort(argv, env) {
  const i = argv.indexOf('--port');
  const fromArg = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--port='))?.slice(7);
  const raw = fromArg ?? env.PORT ?? '8080';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port '${raw}' (expected 0-65535; 0 picks a free port)`);
  }
  return port;
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  try {
    const port = parsePort(process.argv.slice(2), process.env);
    const { url } = await startServer({ port, host: process.env.HOST || '127.0.0.1' });
    console.log(`fxwasm playground: ${url}`);
  } catch (err) {
    const why = err.code === 'EADDRINUSE' ? `port ${err.port} is in use (set PORT=… or pass --port 0 for a free one)` : err.message;
    console.error(`fxwasm: error: ${why}`);
    process.exit(2);
  }
}
