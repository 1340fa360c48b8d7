#!/usr/bin/env bash
# Builds the WebAssembly package with Emscripten (build/wasm) and copies fxwasm.mjs + fxwasm.wasm into
# web/dist/ (git-ignored), where web/src/runtime.js finds them with new URL(…, import.meta.url).
# Incremental: CMake rebuilds only what changed.
set -euo pipefail
source "$(dirname "$0")/env.sh"  # NODE_PATH for Emscripten's JS optimizer (acorn)
cd "$FXWASM_ROOT"

build_dir="${FXWASM_WASM_BUILD_DIR:-build/wasm}"
# One build at a time in a build folder (the package test, a developer's build and the set-up may overlap).
mkdir -p "$build_dir"
exec 9>"$build_dir/.build-lock"
flock 9
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  emcmake cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# Both variants link the same objects: single-threaded and pthreads (web/src/runtime.js picks one).
cmake --build "$build_dir" -j"${FXWASM_JOBS:-2}" --target fxwasm_wasm fxwasm_threads_wasm

mkdir -p web/dist
cp "$build_dir/fxwasm.mjs" "$build_dir/fxwasm.wasm" "$build_dir/fxwasm-threads.wasm" web/dist/
# The pthread worker is a CommonJS script: .cjs, or Node would load it as an ES module ("type": "module").
cp "$build_dir/fxwasm-threads.worker.js" web/dist/fxwasm-threads.worker.cjs
# Also `new Worker(new URL(…))` becomes `new Worker((u => u)(new URL(…)))`: bundlers (Vite) then copy the
# worker script as an asset instead of trying to bundle a CommonJS file as a module worker.
sed -e 's/"fxwasm-threads\.worker\.js"/"fxwasm-threads.worker.cjs"/g' \
    -e 's/new Worker(new URL(\("fxwasm-threads\.worker\.cjs", *import\.meta\.url\)))/new Worker((u=>u)(new URL(\1)))/g' \
    "$build_dir/fxwasm-threads.mjs" > web/dist/fxwasm-threads.mjs
grep -q '"fxwasm-threads.worker.cjs"' web/dist/fxwasm-threads.mjs || { log "error: fxwasm-threads.mjs names no worker script"; exit 1; }
for f in fxwasm.mjs fxwasm.wasm fxwasm-threads.mjs fxwasm-threads.wasm fxwasm-threads.worker.cjs; do
  log "wasm package: web/dist/$f ($(stat -c %s "web/dist/$f") B)"
done
