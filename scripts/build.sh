#!/usr/bin/env bash
# Builds the native core + tests (build/native) and the WebAssembly package (build/wasm → web/dist).
# Incremental: CMake rebuilds only what changed.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"
jobs="$(nproc)"

if [[ "${FXWASM_SKIP_NATIVE:-0}" != 1 ]]; then
  mkdir -p build/native
  exec 8>build/native/.build-lock  # one build at a time in the folder
  flock 8
  [[ -f build/native/build.ninja ]] || cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
fi
bash scripts/build-wasm.sh
