#!/usr/bin/env bash
# `npm test`: set up and build what is missing, then run every suite — C++ (GoogleTest/CTest), Python
# (pytest, against the reference torch), JS (Jest, the wasm package in Node), browser (Jest +
# playwright-core + Debian Chromium), the C++ suite again under ASan + UBSan, and FXWASM_FUZZ_SECONDS
# (default 60) of fuzzing the reader. All suites run even when one fails; the exit code says if any did.
set -uo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"

bash scripts/setup.sh || { log "set-up failed"; exit 1; }

# The model corpus (tests/corpus): small files are committed under examples/, large ones are built into
# .cache/corpus (skipped when up to date). The C++, Python and bench suites read it.
log "building the model corpus"
bash scripts/python.sh tests/corpus/build_corpus.py || { log "building the corpus failed"; exit 1; }

reports=build/reports
rm -rf "$reports"; mkdir -p "$reports"
failed=()
suite() {
  local name=$1; shift
  log "suite: $name"
  "$@" || failed+=("$name")
}

suite cpp ctest --test-dir build/native --output-on-failure --output-junit "$FXWASM_ROOT/$reports/ctest.xml" -j"$(nproc)"
suite wasm-kernels bash scripts/test-kernels-wasm.sh
suite python env PYTHONPATH="$FXWASM_ROOT/python" "$FXWASM_PYTHON" -m pytest -q tests/python \
  --junitxml="$reports/pytest.xml" -p no:cacheprovider
suite js node --experimental-vm-modules node_modules/jest/bin/jest.js --config jest.config.js \
  --json --outputFile="$reports/jest-js.json"
suite browser node --experimental-vm-modules node_modules/jest/bin/jest.js --config tests/browser/jest.config.js \
  --json --outputFile="$reports/jest-browser.json"
# The sanitizer build (clang, -O1) is shared by both: the core is compiled once for them.
suite sanitize env FXWASM_REPORTS="$FXWASM_ROOT/$reports" FXWASM_ASAN_BUILD_DIR=build/asan bash scripts/test-sanitize.sh
suite fuzz env FXWASM_FUZZ_BUILD_DIR=build/asan bash scripts/fuzz.sh
# The npm package as users get it: npm pack → install in fresh projects → Node ESM, bin, TypeScript, Vite + Chromium.
suite package node --experimental-vm-modules node_modules/jest/bin/jest.js --config tests/package/jest.config.js \
  --json --outputFile="$reports/jest-package.json"

node scripts/test-summary.mjs "$reports" cpp:ctest.xml python:pytest.xml js:jest-js.json browser:jest-browser.json \
  sanitize:asan.xml package:jest-package.json
summary_rc=$?
if ((${#failed[@]})) || ((summary_rc)); then
  log "failed suites: ${failed[*]:-(see summary)}"
  exit 1
fi
