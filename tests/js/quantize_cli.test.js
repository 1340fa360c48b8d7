// `fxwasm quantize IN OUT --weights int8|int4|fp16|fp32` (docs/format.md §7) and GraphModule.quantizeWeights:
// the file shrinks, loads, and computes what the float32 one does within the scheme's error; errors are
// `fxwasm: error:` lines with exit 2. (tests/python/test_quantize.py checks models against torch and the
// exporter's save(weights=...) byte for byte.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, makeFxw } from './helpers.js';

const N = 70, K = 100;  // K crosses an int4 block boundary (32·3 + 4)

function cli(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FXWASM_PROGRESS: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// y = F.linear(x, w, b) with w, b get_attr tensors; x [3, K].
function linearFile() {
  const w = Float32Array.from({ length: N * K }, (_, i) => Math.sin(i * 0.37) * (1 + (i % 7)));
  const b = Float32Array.from({ length: N }, (_, i) => Math.cos(i));
  const program = {
    producer: { torch: '2.15.0', exporter: '0.1.0', tracer: 'graph' },
    nodes: [
      { op: 'placeholder', name: 'x', target: 'x', args: [], kwargs: {} },
      { op: 'get_attr', name: 'w', target: 'w', args: [], kwargs: {} },
      { op: 'get_attr', name: 'b', target: 'b', args: [], kwargs: {} },
      { op: 'call_function', name: 'linear', target: 'torch._C._nn.linear', args: [{ $node: 'x' }, { $node: 'w' }, { $node: 'b' }], kwargs: {} },
      { op: 'output', name: 'output', target: 'output', args: [{ $node: 'linear' }], kwargs: {} },
    ],
    modules: { '': { type: 'torch.nn.modules.module.Module' } },
  };
  const bytes = makeFxw(program, { w: { dtype: 'F32', shape: [N, K], data: w, kind: 'parameter' },
    b: { dtype: 'F32', shape: [N], data: b, kind: 'parameter' } });
  return { bytes, w, b };
}

function expected(w, b, x, rows) {
  const y = new Float64Array(rows * N);
  for (let r = 0; r < rows; ++r) for (let n = 0; n < N; ++n) {
    let s = b[n];
    for (let k = 0; k < K; ++k) s += x[r * K + k] * w[n * K + k];
    y[r * N + n] = s;
  }
  return y;
}

let dir;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-quantize-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The most the stored weights can be off, per output: Σ_k |x_k| · (largest error of w[n][k]) — int8: half a
// step of max|row|/127; int4: a step of max|block|/8 (the block's far end may be clamped: Q4_0); fp16: 2^-11
// relative — plus the int16 activations' rounding (Σ|w| · max|x| / 16382) and float32 rounding.
function bound(weights, w, b, x, rows) {
  const out = new Float64Array(rows * N);
  for (let n = 0; n < N; ++n) {
    const row = w.subarray(n * K, (n + 1) * K);
    const err = new Float64Array(K);
    for (let k = 0; k < K; ++k) {
      if (weights === 'int8') err[k] = Math.max(...row.map(Math.abs)) / 254;
      else if (weights === 'int4') err[k] = Math.max(...row.subarray(k - (k % 32), k - (k % 32) + 32).map(Math.abs)) / 8;
      else if (weights === 'fp16') err[k] = Math.abs(row[k]) / 2048;
      else err[k] = 0;
    }
    for (let r = 0; r < rows; ++r) {
      let s = weights === 'fp32' ? 0 : Math.abs(b[n]) / 2048, sw = 0, xmax = 0, sx = 0;
      for (let k = 0; k < K; ++k) {
        s += Math.abs(x[r * K + k]) * err[k];
        sw += Math.abs(row[k]), xmax = Math.max(xmax, Math.abs(x[r * K + k])), sx += Math.abs(x[r * K + k] * row[k]);
      }
      out[r * N + n] = s + (weights === 'int8' || weights === 'int4' ? sw * xmax / 16382 : 0) + 1e-5 * (sx + 1);
    }
  }
  return out;
}

test.each([['int8', 0.27], ['int4', 0.2], ['fp16', 0.52], ['fp32', 1.01]])(
  'quantize --weights %s: smaller file, same results within the scheme', async (weights, maxRatio) => {
    const { bytes, w, b } = linearFile();
    const src = path.join(dir, 'linear.fxw');
    fs.writeFileSync(src, bytes);
    const out = path.join(dir, `linear_${weights}.fxw`);
    const r = cli(['quantize', src, out, '--weights', weights]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tensors stored/);
    expect(fs.statSync(out).size / fs.statSync(src).size).toBeLessThan(maxRatio + 0.05);  // + the header
    const gm = await fxwasm.load(out);
    try {
      // 1 and 3 rows: the dot-product kernels; 9: the panel path.
      for (const rows of [1, 3, 9]) {
        const x = Float32Array.from({ length: rows * K }, (_, i) => Math.cos(i * 0.11));
        const y = gm.runSync([new fxwasm.Tensor(x, [rows, K], 'float32')]).data;
        const want = expected(w, b, x, rows), tol = bound(weights, w, b, x, rows);
        let worst = 0;
        for (let i = 0; i < want.length; ++i) worst = Math.max(worst, Math.abs(y[i] - want[i]) / tol[i]);
        expect(worst).toBeLessThanOrEqual(1);
        if (weights !== 'fp32') expect(worst).toBeGreaterThan(0);  // the stored weights are not the float32 ones
      }
      // Tensors are float32 to the API whatever their storage.
      expect(gm.tensors().map((t) => t.dtype)).toEqual(['float32', 'float32']);
    } finally {
      gm.dispose();
    }
  });

test('quantizing a quantized file again, and back to fp32', async () => {
  const { bytes } = linearFile();
  const src = path.join(dir, 'l.fxw');
  fs.writeFileSync(src, bytes);
  expect(cli(['quantize', src, path.join(dir, 'l8.fxw'), '--weights', 'int8']).code).toBe(0);
  expect(cli(['quantize', path.join(dir, 'l8.fxw'), path.join(dir, 'l4.fxw'), '--weights', 'int4']).code).toBe(0);
  const r = cli(['quantize', path.join(dir, 'l4.fxw'), path.join(dir, 'l32.fxw'), '--weights', 'fp32']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/tensors stored 2 fp32/);
  expect(fs.statSync(path.join(dir, 'l32.fxw')).size).toBeGreaterThan(N * K * 4);
});

test('GraphModule.quantizeWeights counts what it stored', async () => {
  const gm = await fxwasm.load(linearFile().bytes);
  try {
    expect(gm.quantizeWeights('int8')).toEqual({ int8: 1, int4: 0, fp16: 1, fp32: 0 });
    expect(gm.quantizeWeights('fp16')).toEqual({ int8: 0, int4: 0, fp16: 2, fp32: 0 });
    expect(() => gm.quantizeWeights('int3')).toThrow(/unknown weights 'int3'/);
  } finally {
    gm.dispose();
  }
});

test('errors: exit 2 with fxwasm: error: lines', () => {
  const src = path.join(dir, 'e.fxw');
  fs.writeFileSync(src, linearFile().bytes);
  const out = path.join(dir, 'e_out.fxw');
  let r = cli(['quantize', src, out, '--weights', 'int2']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^fxwasm: error: --weights must be one of int8, int4, fp16, fp32, not 'int2'\n$/);
  r = cli(['quantize', src, out]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^fxwasm: error: .*--weights/);
  r = cli(['quantize', path.join(dir, 'nope.fxw'), out, '--weights', 'int8']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^fxwasm: error: .*nope\.fxw/);
  const broken = path.join(dir, 'broken.fxw');
  fs.writeFileSync(broken, fs.readFileSync(src).subarray(0, 100));
  r = cli(['quantize', broken, out, '--weights', 'int8']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^fxwasm: error: /);
  r = cli(['quantize', src, path.join(dir, 'no', 'such', 'dir.fxw'), '--weights', 'int8']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^fxwasm: error: .*dir\.fxw: cannot write: no such directory/);
  expect(fs.existsSync(out)).toBe(false);
  expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
});
