// The command line beyond its outputs: --help for every command, --version, --json for table and code,
// and the progress line (stderr only, only on a terminal or when forced).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fxwasm from '../../web/src/index.js';
import { CLI, TOY, TOY_TABLE, ROOT } from './helpers.js';

function cli(args, env = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FXWASM_PROGRESS: '', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test.each(['table', 'code', 'info', 'run', 'check', 'bench'])('%s --help: usage on stdout, exit 0', (cmd) => {
  const r = cli([cmd, '--help']);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(new RegExp(`^Usage: fxwasm ${cmd} \\[options\\] <file>`));
  expect(r.stdout).toMatch(/--json/);
});

test('fxwasm --help lists every command and the exit codes; --version prints the package version', () => {
  const r = cli(['--help']);
  expect(r.code).toBe(0);
  for (const cmd of ['table', 'code', 'info', 'run', 'check', 'bench']) expect(r.stdout).toMatch(new RegExp(`\\n  ${cmd} `));
  expect(r.stdout).toMatch(/Exit codes: 0 success; 1 check found a mismatch; 2 bad input/);
  const { version } = JSON.parse(fs.readFileSync(`${ROOT}/package.json`, 'utf8'));
  expect(cli(['--version']).stdout.trim()).toBe(version);
});

test('table --json and code --json', () => {
  const t = JSON.parse(cli(['table', TOY, '--json']).stdout);
  expect(t.text).toBe(TOY_TABLE);
  expect(t.nodes.map((n) => n.name)).toEqual(['l_a_', 'l_b_', 'abs_1', 'add', 'x', 'sum_1', 'lt', 'output']);
  expect(t.nodes[3]).toEqual({ opcode: 'call_function', name: 'add', target: 'operator.add', args: [{ $node: 'abs_1' }, 1], kwargs: {} });
  expect(t.nodes[7].args).toEqual([[{ $node: 'lt' }, { $node: 'x' }]]);
  const c = JSON.parse(cli(['code', TOY, '--json']).stdout);
  expect(c.code).toMatch(/def forward\(self, L_a_/);
  // Errors stay on stderr with exit 2 under --json too.
  const bad = cli(['table', '/no/such.fxw', '--json']);
  expect(bad.code).toBe(2);
  expect(bad.stdout).toBe('');
  expect(bad.stderr).toMatch(/^fxwasm: error: .*no such file/);
});

test('no progress line when stderr is not a terminal', () => {
  for (const args of [['table', TOY], ['run', TOY], ['bench', TOY, '--runs', '2']]) expect(cli(args).stderr).toBe('');
});

test('the progress line goes to stderr, is erased, and leaves stdout unchanged', () => {
  const r = cli(['table', TOY], { FXWASM_PROGRESS: 'always' });
  expect(r.stdout).toBe(TOY_TABLE);
  expect(r.stderr).toMatch(/loading .*toy_example\.fxw \[#+\] 100%/);
  expect(r.stderr.endsWith('\r\x1b[K')).toBe(true);
  const b = cli(['bench', TOY, '--runs', '3', '--warmup', '1', '--json'], { FXWASM_PROGRESS: 'always' });
  expect(JSON.parse(b.stdout).times_ms).toHaveLength(3);
  expect(b.stderr).toMatch(/bench .*\] 3\/4/);
  expect(cli(['run', TOY], { FXWASM_PROGRESS: 'always' }).stderr).toMatch(/running .*toy_example\.fxw/);
  expect(cli(['table', TOY], { FXWASM_PROGRESS: 'never' }).stderr).toBe('');
});

test('on a real terminal (script(1) gives a pty) the progress line appears on its own', () => {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) return;  // util-linux script not installed: the forced tests above cover the drawing
  // stdout goes to /dev/null; stderr is the pty (the delay is 0 so the tiny seed file shows a line at all).
  const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} info ${JSON.stringify(TOY)} --json 2>&1 >/dev/null`;
  const env = { ...process.env, FXWASM_PROGRESS: '', FXWASM_PROGRESS_DELAY_MS: '0' };
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env });
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/loading .*toy_example\.fxw \[#+\] 100%/);
  expect(r.stdout).toMatch(/\r\x1b\[K$/);
});

test('run --out .npy and .npz are what numpy reads', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxwasm-cli-extra-'));  // build/ exists only after a native build
  try {
    expect(cli(['run', TOY, '--out', `${dir}/o.npz`]).code).toBe(0);
    const z = fxwasm.readNpz(new Uint8Array(fs.readFileSync(`${dir}/o.npz`)));
    expect(z.output_1.dtype).toBe('float32');
    const r = cli(['run', TOY, '--out', `${dir}/o.npy`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 tensor outputs; use a .npz file/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
