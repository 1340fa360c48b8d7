#!/usr/bin/env bash
# `npm test`: set up and build what is missing, then run every suite — C++ (GoogleTest/CTest), Python
# (pytest, against the reference torch), JS (Jest, the wasm package in Node) and browser (Jest +
# playwright-core + Debian Chromium). All suites run even when one fails; the exit code says if any did.
set -uo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"

bash scripts/setup.sh || { log "set-up failed"; exit 1; }

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

node scripts/test-summary.mjs "$reports" cpp:ctest.xml python:pytest.xml js:jest-js.json browser:jest-browser.json
summary_rc=$?
if ((${#failed[@]})) || ((summary_rc)); then
  log "failed suites: ${failed[*]:-(see summary)}"
  exit 1
fi
