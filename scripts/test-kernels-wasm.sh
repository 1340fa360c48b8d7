#!/usr/bin/env bash
# Runs the kernel checks that need WebAssembly: the SIMD128 micro-kernels cannot run in the native
# GoogleTest binary. Builds tests/cpp/kernels/*_wasm_check.cpp with em++ -msimd128 into build/kernels-wasm
# and runs each in Node; exits non-zero if any check fails.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"
out=build/kernels-wasm
mkdir -p "$out"
# The same code-generation flags as the package (CMakeLists.txt); SINGLE_FILE embeds the .wasm so Node
# needs no file lookup (the default loader tries fetch() on a path in Node 18+).
flags=(-std=c++17 -O3 -msimd128 -fwasm-exceptions -Icpp -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 -sENVIRONMENT=node)
status=0
for check in tests/cpp/kernels/*_wasm_check.cpp; do
  name=$(basename "$check" .cpp)
  family=${name%_wasm_check}
  log "building $name"
  # A check may name further sources on a line "// extra-sources: a.cpp b.cpp".
  extra=$(sed -n 's|^// extra-sources:||p' "$check")
  # shellcheck disable=SC2086
  em++ "${flags[@]}" "$check" cpp/kernels/"$family"*.cpp cpp/kernels/parallel.cpp $extra -o "$out/$name.js"
  # The package is "type": "module" and this output is CommonJS.
  mv "$out/$name.js" "$out/$name.cjs"
  node "$out/$name.cjs" || status=1
done
exit $status
