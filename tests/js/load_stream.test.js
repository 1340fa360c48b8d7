// load() streams files, Blobs and fetches straight into the wasm heap (no whole copy in JS): sizes known
// or not, compressed transfers, failures half-way; and the FinalizationRegistry behind dispose().
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as fxwasm from '../../web/src/index.js';
import { ROOT, makeFxw, toyBytes, TOY_TABLE } from './helpers.js';

const N = 600000;  // a 2.4 MB parameter: several chunks for every source kind
let big;
let tmp;
let server;
let base;

function bigFxw() {
  const w = Float32Array.from({ length: N }, (_, i) => (i % 7) - 3);
  const program = {
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {},
        meta: { shape: { $size: [N] }, dtype: { $dtype: 'float32' } } },
      { op: 'get_attr', name: 'w', target: 'w', args: [], kwargs: {} },
      { op: 'call_function', name: 'add', target: 'operator.add', args: [{ $node: 'x' }, { $node: 'w' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'add' }], kwargs: {} },
    ],
    modules: { '': { type: 'torch.nn.modules.module.Module', hparams: {} } },
  };
  return makeFxw(program, { w: { dtype: 'F32', shape: [N], data: w, kind: 'parameter' } });
}

beforeAll(async () => {
  big = bigFxw();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-stream-'));
  fs.writeFileSync(path.join(tmp, 'big.fxw'), big);
  server = http.createServer((req, res) => {
    if (req.url === '/chunked') {  // no Content-Length: the heap block must grow
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let at = 0; at < big.length; at += 100000) res.write(big.subarray(at, at + 100000));
      res.end();
    } else if (req.url === '/gzip') {  // Content-Length is the compressed size, smaller than the body
      const gz = zlib.gzipSync(big);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': gz.length });
      res.end(gz);
    } else if (req.url === '/cut') {  // promises more than it sends, then drops the connection
      res.writeHead(200, { 'content-length': big.length });
      res.write(big.subarray(0, 1000), () => res.destroy());
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

afterAll(async () => {
  fs.rmSync(tmp, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
});

async function expectBig(source) {
  const events = [];
  const gm = await fxwasm.load(source, { onProgress: (p) => events.push(p) });
  try {
    const y = await gm.run([fxwasm.tensor(new Float32Array(N).fill(1), [N])]);
    expect([y.data[0], y.data[1], y.data[N - 1]]).toEqual([-2, -1, ((N - 1) % 7) - 2]);
  } finally {
    gm.dispose();
  }
  expect(events.at(-1).loaded).toBe(big.length);
  for (let i = 1; i < events.length; i++) expect(events[i].loaded).toBeGreaterThanOrEqual(events[i - 1].loaded);
  return events;
}

test('a file path is read in chunks with progress against the file size', async () => {
  const events = await expectBig(path.join(tmp, 'big.fxw'));
  expect(events.length).toBeGreaterThan(1);
  expect(events.every((e) => e.total === big.length)).toBe(true);
});

test('a Blob is streamed in with its size as the total', async () => {
  const events = await expectBig(new Blob([big]));
  expect(events.at(-1)).toEqual({ loaded: big.length, total: big.length });
});

test('a fetch without Content-Length grows the heap block; total is null', async () => {
  const events = await expectBig(`${base}/chunked`);
  expect(events.length).toBeGreaterThan(1);
  expect(events.every((e) => e.total === null)).toBe(true);
});

test('a gzip transfer (Content-Length smaller than the body) loads whole', async () => {
  const events = await expectBig(`${base}/gzip`);
  expect(events.every((e) => e.total === null)).toBe(true);
});

test('a connection dropped half-way is an FxError, and the runtime stays usable', async () => {
  await expect(fxwasm.load(`${base}/cut`)).rejects.toThrow(fxwasm.FxError);
  const gm = await fxwasm.load(toyBytes());
  expect(gm.printTabular()).toBe(TOY_TABLE);
  gm.dispose();
});

test('an onProgress that throws fails the load cleanly', async () => {
  const err = await fxwasm.load(new Blob([big]), { onProgress: () => { throw new Error('stop'); } }).catch((e) => e);
  expect(err).toBeInstanceOf(fxwasm.FxError);
  expect(err.message).toMatch(/stop/);
});

test('an empty file is an FxError naming the file', async () => {
  const empty = path.join(tmp, 'empty.fxw');
  fs.writeFileSync(empty, '');
  await expect(fxwasm.load(empty)).rejects.toThrow(/empty\.fxw/);
});

test('models dropped without dispose() are freed by the FinalizationRegistry', () => {
  // In a child with --expose-gc: load a 2.4 MB model 60 times without dispose(), collecting garbage as we
  // go. Without the registry the heap would have to hold all 60 (> 140 MB); with it, freed blocks are reused.
  const script = `
    import * as fxwasm from ${JSON.stringify(path.join(ROOT, 'web/src/index.js'))};
    import { getRuntime } from ${JSON.stringify(path.join(ROOT, 'web/src/runtime.js'))};
    import fs from 'node:fs';
    const bytes = new Uint8Array(fs.readFileSync(${JSON.stringify(path.join(tmp, 'big.fxw'))}));
    for (let i = 0; i < 60; i++) {
      await fxwasm.load(bytes);
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 0));
    }
    console.log((await getRuntime()).heap.length);
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  const heapBytes = Number(r.stdout.trim());
  expect(heapBytes).toBeGreaterThan(0);
  expect(heapBytes).toBeLessThan(60 * big.length / 2);
});
