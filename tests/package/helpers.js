// Shared by the package suite's files: pack the project once per file, install the tarball into fresh
// projects outside the repository, serve a folder over HTTP, start Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = process.env.FXWASM_CHROMIUM || '/usr/bin/chromium';

/** Runs a command; its stdout, or throws with both streams. */
export function sh(cmd, args, cwd, extraEnv = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...extraEnv }, maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/**
 * `npm pack` of the project into a new temporary folder (outside the repository): {tmp, tarball, files}.
 * The wasm build runs first (incremental) unless FXWASM_SKIP_BUILD packs the web/dist/ already there.
 */
export function packProject(prefix) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (!process.env.FXWASM_SKIP_BUILD) sh('bash', ['scripts/build-wasm.sh'], ROOT);
  const json = JSON.parse(sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT));
  return { tmp, tarball: path.join(tmp, json[0].filename), filename: json[0].filename, files: json[0].files.map((f) => f.path) };
}

/** A fresh project folder `tmp/name` with the tarball installed; npm's warnings are kept in `<dir>/npm-install.log`. */
export function freshProject(tmp, tarball, name, extra = {}) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'),
    JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module', ...extra }, null, 2));
  const r = spawnSync('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`npm install ${tarball} (in ${dir}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  fs.writeFileSync(path.join(dir, 'npm-install.log'), r.stderr);
  return dir;
}

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript',
  '.wasm': 'application/wasm', '.fxw': 'application/octet-stream', '.css': 'text/css' };

/** A static HTTP server for `dir` on a free port (resolves to the http.Server). */
export function serve(dir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const file = path.join(dir, decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    const bytes = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': MIME[path.extname(file)] || 'application/octet-stream', 'content-length': bytes.length });
    res.end(bytes);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Headless Chromium with a fresh profile under `tmp`. */
export function launchChromium(tmp) {
  const userDataDir = fs.mkdtempSync(path.join(tmp, 'chromium-'));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
