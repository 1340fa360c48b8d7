#!/usr/bin/env bash
# The C++ suite under AddressSanitizer + UndefinedBehaviorSanitizer (build/asan, clang++-14): any memory
# error, leak or undefined behaviour fails the run with the report on stderr. The objects are shared with
# the fuzzer (scripts/fuzz.sh with FXWASM_FUZZ_BUILD_DIR=build/asan), so `npm test` compiles the core once
# for both. Extra arguments go to the GoogleTest binary (e.g. --gtest_filter='Reader*').
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"

build_dir="${FXWASM_ASAN_BUILD_DIR:-build/asan}"
bash scripts/sanitize-build.sh "$build_dir" fxwasm_tests
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
report=()
[[ -n "${FXWASM_REPORTS:-}" ]] && report=(--gtest_output="xml:$FXWASM_REPORTS/asan.xml")
"$build_dir/fxwasm_tests" --gtest_brief=1 "${report[@]}" "$@"
