#!/usr/bin/env bash
# Builds the WebAssembly package with Emscripten (build/wasm) and copies fxwasm.mjs + fxwasm.wasm into
# web/dist/ (git-ignored), where web/src/runtime.js finds them with new URL(…, import.meta.url).
# Incremental: CMake rebuilds only what changed.
set -euo pipefail
source "$(dirname "$0")/env.sh"  # NODE_PATH for Emscripten's JS optimizer (acorn)
cd "$FXWASM_ROOT"

build_dir="${FXWASM_WASM_BUILD_DIR:-build/wasm}"
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  emcmake cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build_dir" -j"${FXWASM_JOBS:-2}" --target fxwasm_wasm

mkdir -p web/dist
cp "$build_dir/fxwasm.mjs" "$build_dir/fxwasm.wasm" web/dist/
log "wasm package: web/dist/fxwasm.mjs ($(stat -c %s web/dist/fxwasm.mjs) B), web/dist/fxwasm.wasm ($(stat -c %s web/dist/fxwasm.wasm) B)"
