// The npm package as outsiders get it: `npm pack`, then `npm install fxwasm-x.y.z.tgz` into fresh
// temporary projects (offline-safe: the only dependency, commander, comes from the npm cache), then used
// from Node ESM, through its bin, from TypeScript, and bundled by Vite into a page run in headless Chromium.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, sh, packProject, freshProject as install, serve, launchChromium } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, 'fixtures');
const MLP = path.join(ROOT, '.cache', 'corpus', 'mlp.fxw');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

let tmp;
let tarball;
const freshProject = (name, extra) => install(tmp, tarball, name, extra);

beforeAll(() => {
  ({ tmp, tarball, files: globalThis.packed } = packProject('fxwasm-package-'));
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the tarball holds the ESM sources, types, bin, wasm build and seed example — no tests', () => {
  const files = globalThis.packed;
  for (const f of ['package.json', 'README.md', 'web/src/index.js', 'web/src/index.d.ts', 'web/bin/fxwasm.js',
    'web/dist/fxwasm.mjs', 'web/dist/fxwasm.wasm', 'web/dist/fxwasm-threads.mjs',
    'web/dist/fxwasm-threads.wasm', 'web/dist/fxwasm-threads.worker.cjs', 'examples/seed/toy_example.fxw', 'web/src/worker.js']) {
    expect(files).toContain(f);
  }
  expect(files.filter((f) => /^(tests|cpp|python|build|node_modules)\//.test(f))).toEqual([]);
  // Few runtime dependencies, each pinned to an exact version (they install from the npm cache offline).
  expect(Object.keys(pkg.dependencies)).toContain('commander');
  for (const v of Object.values(pkg.dependencies)) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
});

test('installed into a fresh project, imported as ESM: loads and runs the seed example and the corpus MLP', () => {
  const dir = freshProject('esm');
  expect(fs.readdirSync(path.join(dir, 'node_modules')).sort()).toEqual(expect.arrayContaining(['commander', 'fxwasm']));
  fs.copyFileSync(path.join(FIXTURES, 'consumer.mjs'), path.join(dir, 'consumer.mjs'));
  const report = JSON.parse(sh(process.execPath, ['consumer.mjs', MLP], dir).trim().split('\n').at(-1));
  for (const name of ['load', 'save', 'create', 'tensor', 'Tensor', 'FxError', 'GraphModule', 'readNpy', 'writeNpz']) {
    expect(report.exports).toContain(name);
  }
  expect(report.seedTable).toContain('call_function  abs_1   torch.abs');
  expect(report.seedProgress.loaded).toBe(report.seedProgress.total);
  expect(report.seedOut.slice(0, 2)).toEqual(['bool', []]);
  expect(report.seedNamed).toEqual([10]);
  expect(report.seedCheck).toBe('pass');
  expect(report.workerTable).toBe(true);
  expect(report.roundTrip).toBe(true);
  expect(report.disposedError).toBe(true);

  // npm test builds the corpus (scripts/test.sh) before this suite.
  expect(fs.existsSync(MLP)).toBe(true);
  expect(report.mlp.nodes).toBe(7);
  expect(report.mlp.tableLines).toBe(2 + 7);
  expect(report.mlp.unsupported).toEqual([]);
  expect(report.mlp.out).toEqual(['float32', [64, 10]]);
  expect(report.mlp.check).toBe('pass');

  // The bin works from the installed package.
  const bin = path.join(dir, 'node_modules', '.bin', 'fxwasm');
  const toy = path.join(dir, 'node_modules', 'fxwasm', 'examples', 'seed', 'toy_example.fxw');
  expect(sh(bin, ['table', toy], dir)).toBe(report.seedTable);
  expect(sh(bin, ['check', toy], dir)).toMatch(/check: pass/);
  expect(sh(bin, ['--version'], dir).trim()).toBe(pkg.version);
});

test('installs without engine warnings on the Node the package declares', () => {
  const declared = pkg.engines.node;
  const major = Number(process.versions.node.split('.')[0]);
  expect(declared).toBe('>=20');
  expect(major).toBeGreaterThanOrEqual(20);
  const log = fs.readFileSync(path.join(freshProject('engines'), 'npm-install.log'), 'utf8');
  expect(log).not.toMatch(/EBADENGINE/);
  // and every runtime dependency (installed with it) accepts that range too
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const acceptsNode20 = (range) => {  // the forms npm packages use here: ">=N", ">=N.M.P"
    const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
    return m !== null && (Number(m[1]) < 20 || (Number(m[1]) === 20 && !Number(m[2] ?? 0) && !Number(m[3] ?? 0)));
  };
  const narrower = Object.entries(lock.packages)
    .filter(([name, p]) => name && !p.dev && p.engines?.node && !acceptsNode20(p.engines.node))
    .map(([name, p]) => `${name} ${p.engines.node}`);
  expect(narrower).toEqual([]);
});

test('`fxwasm serve` from the installed package serves the playground, its wasm, layout library and examples', async () => {
  const dir = freshProject('serve');
  const bin = path.join(dir, 'node_modules', '.bin', 'fxwasm');
  const child = spawn(bin, ['serve', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /fxwasm playground: (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`fxwasm serve exited ${code}`)));
    });
    const get = async (p) => {
      const res = await fetch(new URL(p, url));
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
    };
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('data-testid="tabular"');
    const examples = JSON.parse((await get('/examples.json')).body.toString());
    expect(examples.map((e) => e.name)).toEqual(expect.arrayContaining(['toy_example', 'digits_cnn', 'decoder_block']));
    const example = await get(examples.find((e) => e.name === 'digits_cnn').path);
    expect(example.body.length).toBe(examples.find((e) => e.name === 'digits_cnn').bytes);
    const wasm = await get('/web/dist/fxwasm.wasm');
    expect(wasm.body.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    expect((await get('/vendor/dagre.js')).status).toBe(200);
    expect((await get('/web/src/index.js')).status).toBe(200);
  } finally {
    child.kill();
  }
});

test('a TypeScript consumer type-checks against the installed package', () => {
  const dir = freshProject('ts');
  for (const f of ['consumer.ts', 'tsconfig.json']) fs.copyFileSync(path.join(FIXTURES, 'ts', f), path.join(dir, f));
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', dir], { cwd: dir, encoding: 'utf8' });
  expect(`${r.stdout}${r.stderr}`).toBe('');
  expect(r.status).toBe(0);
});

test('a Vite-built app using the package runs in headless Chromium', async () => {
  const dir = freshProject('vite');
  for (const f of ['index.html', 'main.js']) fs.copyFileSync(path.join(FIXTURES, 'vite-app', f), path.join(dir, f));
  fs.mkdirSync(path.join(dir, 'public'));
  fs.copyFileSync(path.join(ROOT, 'examples', 'seed', 'toy_example.fxw'), path.join(dir, 'public', 'toy.fxw'));
  // The project's pinned Vite (a devDependency), run on the consumer's folder.
  sh(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], dir);
  const assets = fs.readdirSync(path.join(dir, 'dist', 'assets'));
  expect(assets.some((f) => f.endsWith('.wasm'))).toBe(true);

  const server = await serve(path.join(dir, 'dist'));
  const context = await launchChromium(tmp);
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.getElementById('result').textContent !== 'loading', null, { timeout: 60000 });
    const report = JSON.parse(await page.textContent('#result'));
    expect(errors).toEqual([]);
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ ok: true, lines: 2 + 8, check: 'pass', sameCode: true, fromBytes: true, badFile: true });
    expect(report.out[0]).toBe('bool');
    expect(report.out[2]).toEqual([10]);
    expect(report.npy).toEqual([10]);
    expect(report.progress.loaded).toBe(report.progress.total);
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
