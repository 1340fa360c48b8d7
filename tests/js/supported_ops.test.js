// What the runtime supports: fxwasm.supportedOps(), `fxwasm ops` and the exporter's copy of the list
// (python/fxwasm/supported_ops.json, which refuses unsupported graphs at export) say the same thing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, ROOT } from './helpers.js';

const EXPORTER_LIST = path.join(ROOT, 'python', 'fxwasm', 'supported_ops.json');

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('supportedOps() lists sorted functions, methods and module types', async () => {
  const ops = await fxwasm.supportedOps();
  expect(Object.keys(ops)).toEqual(['functions', 'methods', 'modules']);
  for (const list of Object.values(ops)) {
    expect(list.length).toBeGreaterThan(50);
    expect([...list].sort()).toEqual(list);
  }
  expect(ops.functions).toEqual(expect.arrayContaining(['torch.relu', 'aten.convolution.default',
    'aten.scaled_dot_product_attention.default', 'operator.getitem', 'aten.bitwise_and.Tensor']));
  expect(ops.methods).toEqual(expect.arrayContaining(['relu', 'view', 'size']));
  expect(ops.modules).toEqual(expect.arrayContaining(['torch.nn.modules.conv.Conv2d', 'torch.nn.modules.linear.Linear']));
});

test('the exporter ships the same list (regenerate: node web/bin/fxwasm.js ops --json > python/fxwasm/supported_ops.json)', async () => {
  const ops = await fxwasm.supportedOps();
  expect(JSON.parse(fs.readFileSync(EXPORTER_LIST, 'utf8'))).toEqual(ops);
});

test('fxwasm ops --json prints the list; plain ops prints it by kind with counts', async () => {
  const ops = await fxwasm.supportedOps();
  const json = cli('ops', '--json');
  expect(json.status).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual(ops);
  expect(json.stdout).toBe(fs.readFileSync(EXPORTER_LIST, 'utf8'));
  const text = cli('ops');
  expect(text.status).toBe(0);
  expect(text.stdout).toContain(`call_function targets (${ops.functions.length}):\n  ${ops.functions[0]}\n`);
  expect(text.stdout).toContain(`call_method names (${ops.methods.length}):`);
  expect(text.stdout).toContain(`call_module types (${ops.modules.length}):\n`);
});
