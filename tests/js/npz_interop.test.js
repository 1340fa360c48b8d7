// .npy/.npz interop with NumPy itself (the reference Python's numpy): what numpy writes — np.save,
// np.savez, np.savez_compressed, int64 and bool included — fxwasm reads, and what fxwasm writes numpy reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { ROOT } from './helpers.js';

const PYTHON = spawnSync('bash', ['-c', 'source scripts/env.sh && echo "$FXWASM_PYTHON"'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
let tmp;
beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-npz-')); });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function python(code) {
  const r = spawnSync(PYTHON, ['-c', code], { cwd: tmp, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

const read = (f) => new Uint8Array(fs.readFileSync(path.join(tmp, f)));

test('reads what numpy writes: .npy, np.savez and np.savez_compressed', async () => {
  python(`
import numpy as np
a = np.arange(12, dtype=np.float32).reshape(3, 4)
ids = np.array([1, -2, 2**40], dtype=np.int64)
m = np.array([[True, False]])
np.save('a.npy', a); np.save('ids.npy', ids); np.save('scalar.npy', np.float64(2.5))
np.savez('plain.npz', a=a, ids=ids, m=m)
np.savez_compressed('packed.npz', a=a, ids=ids, m=m)
`);
  const a = fxwasm.readNpy(read('a.npy'));
  expect([a.dtype, a.shape, a.data[11]]).toEqual(['float32', [3, 4], 11]);
  const ids = fxwasm.readNpy(read('ids.npy'));
  expect(ids.data).toBeInstanceOf(BigInt64Array);
  expect(Array.from(ids.data)).toEqual([1n, -2n, 2n ** 40n]);
  const s = fxwasm.readNpy(read('scalar.npy'));
  expect([s.dtype, s.shape, s.data[0]]).toEqual(['float64', [], 2.5]);

  const plain = fxwasm.readNpz(read('plain.npz'));
  const packed = await fxwasm.readNpzAsync(read('packed.npz'));
  expect(await fxwasm.readNpzAsync(read('plain.npz'))).toEqual(plain);
  for (const z of [plain, packed]) {
    expect(Object.keys(z).sort()).toEqual(['a', 'ids', 'm']);
    expect(Array.from(z.a.data)).toEqual(Array.from(a.data));
    expect(Array.from(z.ids.data)).toEqual(Array.from(ids.data));
    expect([z.m.dtype, z.m.shape, Array.from(z.m.data)]).toEqual(['bool', [1, 2], [1, 0]]);
  }
  expect(() => fxwasm.readNpz(read('packed.npz'))).toThrow(/readNpzAsync/);
});

test('numpy reads what fxwasm writes', () => {
  fs.writeFileSync(path.join(tmp, 'w.npz'), fxwasm.writeNpz({
    x: fxwasm.tensor(new Float32Array([1.5, -2, 3]), [3, 1]),
    ids: fxwasm.tensor(new BigInt64Array([5n, -(2n ** 50n)]), [2]),
    flag: fxwasm.tensor([true, false, true]),
  }));
  fs.writeFileSync(path.join(tmp, 'w.npy'), fxwasm.writeNpy(fxwasm.tensor(new Float64Array([7]), [])));
  const out = python(`
import numpy as np, json
z = np.load('w.npz'); s = np.load('w.npy')
print(json.dumps({k: [str(z[k].dtype), list(z[k].shape), z[k].ravel().tolist()] for k in sorted(z.files)} | {'s': [str(s.dtype), list(s.shape), float(s)]}))
`);
  expect(JSON.parse(out)).toEqual({
    flag: ['bool', [3], [true, false, true]],
    ids: ['int64', [2], [5, -(2 ** 50)]],
    x: ['float32', [3, 1], [1.5, -2, 3]],
    s: ['float64', [], 7],
  });
});

test('a damaged deflate entry is an FxError naming the entry', async () => {
  const good = fxwasm.writeNpz({ a: fxwasm.tensor([1, 2, 3]) });
  // Turn the stored entry into a "deflated" one whose data is not deflate: method 8 in both headers.
  const bad = good.slice();
  const view = new DataView(bad.buffer);
  view.setUint16(8, 8, true);
  const central = bad.length - 22 - (46 + 'a.npy'.length);
  view.setUint16(central + 10, 8, true);
  await expect(fxwasm.readNpzAsync(bad, 'bad.npz')).rejects.toThrow(/bad\.npz:a\.npy: cannot decompress/);
});
