#!/usr/bin/env bash
# GFLOP/s of the f32 GEMM kernels in WebAssembly SIMD128 under Node (single thread, after warm-up).
# Builds bench/gemm_f32_bench.cpp into build/kernels-wasm. `--native` also builds and runs it natively.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"
out=build/kernels-wasm
mkdir -p "$out"
sources=(bench/gemm_f32_bench.cpp cpp/kernels/gemm_f32*.cpp cpp/kernels/parallel.cpp)
em++ -std=c++17 -O3 -msimd128 -fwasm-exceptions -Icpp -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 \
  -sENVIRONMENT=node "${sources[@]}" -o "$out/gemm_f32_bench.js"
# The package is "type": "module" and this output is CommonJS.
mv "$out/gemm_f32_bench.js" "$out/gemm_f32_bench.cjs"
log "wasm SIMD128, Node $(node --version)"
node "$out/gemm_f32_bench.cjs"
if [[ "${1:-}" == --native ]]; then
  g++ -std=c++17 -O3 -Icpp "${sources[@]}" -o "$out/gemm_f32_bench_native"
  log "native (generic ukernel, compiler auto-vectorised)"
  "$out/gemm_f32_bench_native"
fi
