// The GEMM kernel's GFLOP/s at the MLP's first layer (M=64, N=1024, K=784), from the project's own harness
// (bench/gemm_f32_bench.cpp, built by scripts/bench-gemm.sh). The built harness is reused while it is newer
// than its sources; otherwise the script rebuilds it (em++, about a minute) and runs it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const LINE = /^MLP 784->1024, batch 64\s+64\s+1024\s+784\s*\|\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\|\s*([\d.]+)\s+([\d.]+)/m;

function isFresh(root, built) {
  if (!fs.existsSync(built)) return false;
  const kernels = path.join(root, 'cpp/kernels');
  const sources = [path.join(root, 'bench/gemm_f32_bench.cpp'),
    ...fs.readdirSync(kernels).filter((f) => f.startsWith('gemm_f32')).map((f) => path.join(kernels, f))];
  const t = fs.statSync(built).mtimeMs;
  return sources.every((s) => !fs.existsSync(s) || fs.statSync(s).mtimeMs < t);
}

export function runGemmBench(root) {
  const built = path.join(root, 'build/kernels-wasm/gemm_f32_bench.cjs');
  const fresh = isFresh(root, built);
  const r = fresh
    ? spawnSync(process.execPath, [built], { cwd: root, encoding: 'utf8', timeout: 300e3 })
    : spawnSync('bash', [path.join(root, 'scripts/bench-gemm.sh')], { cwd: root, encoding: 'utf8', timeout: 600e3 });
  const text = r.stdout || '';
  const m = LINE.exec(text);
  if (r.status !== 0 || !m) {
    const why = (r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' | ');
    return { error: `harness failed (exit ${r.status}): ${why || 'no MLP 784->1024 line in its output'}` };
  }
  const ukernel = /ukernel (\w+)/.exec(text)?.[1] ?? '?';
  return {
    problem: { M: 64, N: 1024, K: 784 },
    ukernel,
    prepacked_first: Number(m[1]),
    prepacked_median: Number(m[2]),
    prepacked_best: Number(m[3]),
    bt_median: Number(m[4]),
    bt_best: Number(m[5]),
    rebuilt: !fresh,
    output: text,
  };
}
