#!/usr/bin/env bash
# Fuzzes the native reader + lint + runtime plan (tests/fuzz/fxw_fuzzer.cpp) with libFuzzer, ASan and
# UBSan for FXWASM_FUZZ_SECONDS (default 60), starting from a copy of the corpus (examples/**/*.fxw,
# tests/golden/**/*.fxw, tests/fuzz/regressions/*.fxw). On a crash, leak, timeout or sanitizer report it
# exits non-zero and leaves the input in $build_dir/fuzz-run.*/artifacts/; copy it to
# tests/fuzz/regressions/<what>.fxw, fix the bug, and tests/cpp/serialize/regressions_test.cpp replays it
# from then on. Extra arguments go to libFuzzer (e.g. -jobs=2, -only_ascii=1).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"

build_dir="${FXWASM_FUZZ_BUILD_DIR:-build/fuzz}"
seconds="${FXWASM_FUZZ_SECONDS:-60}"
bash scripts/sanitize-build.sh "$build_dir" fxw_fuzzer

# A directory of its own per run (two runs may share a build dir): a working copy of the corpus, which
# libFuzzer adds to, and the artifacts. Removed after a clean run, kept after a finding.
run_dir="$(mktemp -d "$build_dir/fuzz-run.XXXXXX")"
corpus="$run_dir/corpus"
artifacts="$run_dir/artifacts"
mkdir -p "$corpus" "$artifacts"
shopt -s globstar nullglob
seeds=(examples/**/*.fxw tests/golden/**/*.fxw tests/fuzz/regressions/*.fxw)
for f in "${seeds[@]}"; do cp "$f" "$corpus/$(echo "$f" | tr '/' '_')"; done
log "fuzzing for ${seconds}s from ${#seeds[@]} seed files"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
set +e
"$build_dir/fxw_fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
  -dict=tests/fuzz/fxw.dict -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" "$corpus" \
  > "$run_dir/fuzz.log" 2>&1
rc=$?
set -e
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' \
  "$run_dir/fuzz.log" >&2 || true
found=("$artifacts"/*)
if ((rc != 0)) || ((${#found[@]})); then
  grep -E -A40 '^(fxw_fuzzer: finding|==[0-9]+==ERROR|.*runtime error:|SUMMARY:)' "$run_dir/fuzz.log" | head -n 80 >&2
  log "fuzzing found a problem (exit $rc); input(s) saved: ${found[*]:-none}"
  log "add it as tests/fuzz/regressions/<what>.fxw once fixed (full log: $run_dir/fuzz.log)"
  exit 1
fi
rm -rf "$run_dir"
log "fuzzing: no crash in ${seconds}s"
