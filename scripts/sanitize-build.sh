#!/usr/bin/env bash
# Configures and builds the sanitizer build shared by scripts/test-sanitize.sh and scripts/fuzz.sh:
# clang++-14, ASan + UBSan (errors abort), coverage hooks for libFuzzer, -O1 with line tables (fast enough
# to compile on two cores, readable stacks). Usage: sanitize-build.sh BUILD_DIR TARGET...
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"

build_dir=$1; shift
cxx="${FXWASM_SANITIZE_CXX:-clang++-14}"
command -v "$cxx" >/dev/null || { log "$cxx not found (apt-get install clang-14)"; exit 1; }
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only" -DFXWASM_SANITIZE=ON -DFXWASM_FUZZ=ON \
    ${FXWASM_SANITIZE_LAYERS:+"-DFXWASM_LAYERS=$FXWASM_SANITIZE_LAYERS"} >/dev/null
fi
cmake --build "$build_dir" -j"${FXWASM_JOBS:-$(nproc)}" --target "$@"
