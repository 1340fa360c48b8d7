// Tensors and the .npy/.npz helpers.
import * as fxwasm from '../../web/src/index.js';

test('tensor(): dtypes from data, shapes from nesting, validation', () => {
  expect(fxwasm.tensor(new Float32Array(6), [2, 3]).dtype).toBe('float32');
  expect(fxwasm.tensor(new BigInt64Array([1n, 2n])).dtype).toBe('int64');
  const b = fxwasm.tensor([[true, false], [false, true]]);
  expect(b.dtype).toBe('bool');
  expect(b.shape).toEqual([2, 2]);
  expect(b.data).toBeInstanceOf(Uint8Array);
  expect(Array.from(b.data)).toEqual([1, 0, 0, 1]);
  const i = fxwasm.tensor([1, 2, 3], [3], 'int64');
  expect(i.data).toBeInstanceOf(BigInt64Array);
  expect(fxwasm.tensor(2.5).shape).toEqual([]);
  expect(() => fxwasm.tensor(new Float32Array(5), [2, 3])).toThrow(fxwasm.FxError);
  expect(() => fxwasm.tensor([[1, 2], [3]])).toThrow(/rectangular/);
  expect(() => fxwasm.tensor([1], [1], 'complex32')).toThrow(/unknown dtype/);
});

test('.npy round trip for every numpy dtype', () => {
  const cases = [
    fxwasm.tensor(new Float32Array([1.5, -2, 3, 4, 5, 6]), [2, 3]),
    fxwasm.tensor(new Float64Array([Math.PI]), []),
    fxwasm.tensor(new BigInt64Array([-(2n ** 40n), 7n]), [2]),
    fxwasm.tensor(new Int32Array([1, -1]), [1, 2]),
    fxwasm.tensor(new Uint8Array([0, 1, 1]), [3], 'bool'),
    fxwasm.tensor(new Int8Array([-3]), [1]),
    fxwasm.tensor(new Float32Array(0), [0, 4]),
  ];
  for (const t of cases) {
    const bytes = fxwasm.writeNpy(t);
    expect((10 + new DataView(bytes.buffer).getUint16(8, true)) % 64).toBe(0);
    const back = fxwasm.readNpy(bytes);
    expect(back.dtype).toBe(t.dtype);
    expect(back.shape).toEqual(t.shape);
    expect(Array.from(back.data)).toEqual(Array.from(t.data));
  }
});

test('.npy header is what numpy writes', () => {
  const text = new TextDecoder().decode(fxwasm.writeNpy(fxwasm.tensor(new Float32Array(3), [3])).subarray(10, 70));
  expect(text).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(3,\), \} *$/);
});

test('.npy reader rejects bad files clearly', () => {
  expect(() => fxwasm.readNpy(new Uint8Array([1, 2, 3]), 'x.npy')).toThrow(/x.npy: not a readable .npy file/);
  const good = fxwasm.writeNpy(fxwasm.tensor(new Float32Array(4), [4]));
  expect(() => fxwasm.readNpy(good.subarray(0, good.length - 1))).toThrow(/truncated/);
  const big = good.slice();
  big.set(new TextEncoder().encode('>f4'), 21);
  expect(() => fxwasm.readNpy(big)).toThrow(/unsupported dtype/);
});

test('.npz round trip', () => {
  const a = fxwasm.tensor(new Float32Array([1, 2]), [2]);
  const b = fxwasm.tensor(new BigInt64Array([3n]), [1]);
  const back = fxwasm.readNpz(fxwasm.writeNpz({ a, b }));
  expect(Object.keys(back)).toEqual(['a', 'b']);
  expect(Array.from(back.a.data)).toEqual([1, 2]);
  expect(back.b.data[0]).toBe(3n);
});

test('.npy and .npz read from a Node Buffer in a shared pool (fs.readFileSync of a small file)', () => {
  const a = fxwasm.tensor(new Float32Array([1, 2, 3]), [3]);
  const b = fxwasm.tensor(new Uint16Array([0x3c00, 0xc000]), [2], 'float16');
  // Buffer.from(string) of a small text lands in Node's 8 KiB pool at an offset; Buffer#slice is a view there.
  const pooled = (bytes) => {
    const buf = Buffer.from(Buffer.from(bytes).toString('latin1'), 'latin1');
    expect(buf.byteOffset > 0 || buf.buffer.byteLength > buf.length).toBe(true);
    return buf;
  };
  expect(Array.from(fxwasm.readNpy(pooled(fxwasm.writeNpy(a))).data)).toEqual([1, 2, 3]);
  const z = fxwasm.readNpz(pooled(fxwasm.writeNpz({ a, b })));
  expect(Array.from(z.a.data)).toEqual([1, 2, 3]);
  expect(Array.from(z.b.data)).toEqual([0x3c00, 0xc000]);
});
