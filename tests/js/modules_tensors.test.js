// gm.modules(), gm.tensors() and gm.getTensor(name) read back what the file stores — checked against the
// file's own safetensors header and program, read here independently of the runtime — in both modes, and
// `fxwasm info` shows the module tree.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, ROOT } from './helpers.js';

const DIGITS = path.join(ROOT, 'examples', 'digits_cnn', 'digits_cnn.fxw');

function readFile(file) {
  const bytes = fs.readFileSync(file);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const program = JSON.parse(header.__metadata__.program);
  return { header, program, body: bytes.subarray(8 + n) };
}

const ELEMENT = { F32: 'float32', I64: 'int64', F64: 'float64', I32: 'int32', BOOL: 'bool' };

test('modules() is the stored module tree: types and hyperparameters', async () => {
  const { program } = readFile(DIGITS);
  const gm = await fxwasm.load(DIGITS);
  try {
    const modules = gm.modules();
    expect(Object.keys(modules).sort()).toEqual(Object.keys(program.modules).sort());
    for (const [name, m] of Object.entries(program.modules)) expect(modules[name].type).toBe(m.type);
    const conv = Object.entries(modules).find(([, m]) => m.type === 'torch.nn.modules.conv.Conv2d');
    expect(conv).toBeDefined();
    const [convName, convModule] = conv;
    expect(convModule.hparams.in_channels).toBe(program.modules[convName].hparams.in_channels);
    expect(Array.isArray(convModule.hparams.kernel_size)).toBe(true);
  } finally {
    gm.dispose();
  }
});

test('tensors() lists every stored tensor but the reference; getTensor copies its bytes', async () => {
  const { header, program, body } = readFile(DIGITS);
  const gm = await fxwasm.load(DIGITS);
  try {
    const listed = gm.tensors();
    const stored = Object.entries(program.tensors).filter(([, kind]) => kind !== 'reference');
    expect(listed.map((t) => t.name)).toEqual(stored.map(([name]) => name).sort());
    for (const t of listed) {
      const h = header[t.name];
      expect(t.kind).toBe(program.tensors[t.name]);
      expect(t.shape).toEqual(h.shape);
      expect(t.dtype).toBe(ELEMENT[h.dtype]);
      expect(t.bytes).toBe(h.data_offsets[1] - h.data_offsets[0]);
      const x = gm.getTensor(t.name);
      expect(x.shape).toEqual(h.shape);
      const want = body.subarray(h.data_offsets[0], h.data_offsets[1]);
      expect(Buffer.from(x.data.buffer, x.data.byteOffset, x.data.byteLength).equals(want)).toBe(true);
    }
    expect(() => gm.getTensor('no.such')).toThrow(fxwasm.FxError);
    expect(() => gm.getTensor('no.such')).toThrow(/no tensor named 'no.such' \(it has: /);
  } finally {
    gm.dispose();
  }
});

test('worker mode answers the same', async () => {
  const here = await fxwasm.load(DIGITS);
  const w = await fxwasm.load(DIGITS, { worker: true });
  try {
    expect(await w.modules()).toEqual(here.modules());
    expect(await w.tensors()).toEqual(here.tensors());
    const name = here.tensors()[0].name;
    expect(Array.from((await w.getTensor(name)).data)).toEqual(Array.from(here.getTensor(name).data));
  } finally {
    here.dispose();
    await w.dispose();
  }
});

test('fxwasm info shows the module tree with hyperparameters; --json carries it', () => {
  const text = spawnSync(process.execPath, [CLI, 'info', DIGITS], { encoding: 'utf8' });
  expect(text.status).toBe(0);
  expect(text.stdout).toMatch(/module\s+type\s+hyperparameters/);
  expect(text.stdout).toMatch(/Conv2d\s+in_channels=\d+, out_channels=\d+, kernel_size=\(\d+, \d+\)/);
  const json = spawnSync(process.execPath, [CLI, 'info', DIGITS, '--json'], { encoding: 'utf8' });
  expect(json.status).toBe(0);
  const { modules } = JSON.parse(json.stdout);
  expect(Object.values(modules).map((m) => m.type)).toContain('torch.nn.modules.conv.Conv2d');
});
