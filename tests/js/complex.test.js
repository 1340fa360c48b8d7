// complex64 / complex128 tensors in JS: interleaved (real, imaginary) values in a Float32Array /
// Float64Array, given to a graph and returned by it, counted by `size` as elements, written to and read
// from .npy as numpy's <c8 / <c16.
import * as fxwasm from '../../web/src/index.js';

// x (complex64 [4]) → fft → (the spectrum, view_as_real of it, its abs)
async function fftGraph() {
  const gm = await fxwasm.create();
  const g = gm.graph;
  const x = g.placeholder('x');
  const y = g.callFunction('torch.fft.fft', [x]);
  const parts = g.callFunction('torch.view_as_real', [y]);
  const mag = g.callFunction('torch.abs', [y]);
  g.output([y, parts, mag]);
  return gm;
}

function dft(re, im) {
  const n = re.length;
  const out = [];
  for (let k = 0; k < n; k++) {
    let a = 0, b = 0;
    for (let t = 0; t < n; t++) {
      const w = (-2 * Math.PI * k * t) / n;
      a += re[t] * Math.cos(w) - im[t] * Math.sin(w);
      b += re[t] * Math.sin(w) + im[t] * Math.cos(w);
    }
    out.push(a, b);
  }
  return out;
}

test('a complex64 input runs through fft and comes back as interleaved pairs', async () => {
  const g = await fftGraph();
  try {
    const data = Float32Array.of(1, 0.5, -2, 0, 0.25, 3, 4, -1);
    const x = fxwasm.tensor(data, [4], 'complex64');
    expect(x.size).toBe(4);
    const [y, parts, mag] = await g.run([x]);
    expect(y.dtype).toBe('complex64');
    expect(y.shape).toEqual([4]);
    expect(y.size).toBe(4);
    expect(y.data).toBeInstanceOf(Float32Array);
    const want = dft([1, -2, 0.25, 4], [0.5, 0, 3, -1]);
    Array.from(y.data).forEach((v, i) => expect(v).toBeCloseTo(want[i], 5));
    expect(parts.dtype).toBe('float32');
    expect(parts.shape).toEqual([4, 2]);
    expect(Array.from(parts.data)).toEqual(Array.from(y.data));
    for (let k = 0; k < 4; k++) expect(mag.data[k]).toBeCloseTo(Math.hypot(want[2 * k], want[2 * k + 1]), 5);
  } finally {
    g.dispose();
  }
});

test('complex data must hold two values per element', () => {
  expect(() => fxwasm.tensor(new Float32Array(3), [2], 'complex64')).toThrow(/3 values \(real, imaginary pairs\) but shape \[2\] needs 4/);
  const r = fxwasm.randomTensor([5], 'complex128', fxwasm.seededRandom(1));
  expect(r.data).toBeInstanceOf(Float64Array);
  expect(r.data.length).toBe(10);
  expect(r.size).toBe(5);
});

test('complex tensors round-trip through .npy as <c8 and <c16', () => {
  for (const [dtype, Ctor, descr] of [['complex64', Float32Array, '<c8'], ['complex128', Float64Array, '<c16']]) {
    const t = fxwasm.tensor(Ctor.of(1, -2, 3.5, 0, -0.25, 8), [3], dtype);
    const bytes = fxwasm.writeNpy(t);
    expect(new TextDecoder().decode(bytes.subarray(0, 80))).toContain(`'descr': '${descr}'`);
    const back = fxwasm.readNpy(bytes);
    expect(back.dtype).toBe(dtype);
    expect(back.shape).toEqual([3]);
    expect(Array.from(back.data)).toEqual(Array.from(t.data));
  }
});
