// load() from every kind of source, with progress.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import * as fxwasm from '../../web/src/index.js';
import { TOY, TOY_TABLE, toyBytes } from './helpers.js';

let server;
let baseUrl;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/toy.fxw') {
      const bytes = toyBytes();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
      res.end(bytes);
    } else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function expectToy(source, options) {
  const gm = await fxwasm.load(source, options);
  try {
    expect(gm.printTabular()).toBe(TOY_TABLE);
  } finally {
    gm.dispose();
  }
}

test('Uint8Array', () => expectToy(toyBytes()));
test('ArrayBuffer', () => expectToy(toyBytes().buffer));
test('a view into a larger buffer', async () => {
  const bytes = toyBytes();
  const big = new Uint8Array(bytes.length + 16);
  big.set(bytes, 7);
  await expectToy(new DataView(big.buffer, 7, bytes.length));
});
test('Blob', () => expectToy(new Blob([toyBytes()])));
test('Response', () => expectToy(new Response(toyBytes())));
test('file path', () => expectToy(TOY));
test('file: URL object', () => expectToy(pathToFileURL(TOY)));
test('http URL string and URL object', async () => {
  await expectToy(`${baseUrl}/toy.fxw`);
  await expectToy(new URL('/toy.fxw', baseUrl));
});

test('onProgress reports loaded bytes up to the total', async () => {
  const events = [];
  await expectToy(`${baseUrl}/toy.fxw`, { onProgress: (p) => events.push(p) });
  const size = toyBytes().length;
  expect(events.length).toBeGreaterThan(0);
  expect(events.at(-1)).toEqual({ loaded: size, total: size });
  const blobEvents = [];
  await expectToy(new Blob([toyBytes()]), { onProgress: (p) => blobEvents.push(p) });
  expect(blobEvents.at(-1).loaded).toBe(size);
});

test('missing file, HTTP 404 and wrong source type are FxError', async () => {
  await expect(fxwasm.load('/no/such/file.fxw')).rejects.toThrow(/no such file/);
  await expect(fxwasm.load(`${baseUrl}/missing.fxw`)).rejects.toThrow(fxwasm.FxError);
  await expect(fxwasm.load(`${baseUrl}/missing.fxw`)).rejects.toThrow(/404/);
  await expect(fxwasm.load(42)).rejects.toThrow(fxwasm.FxError);
});
