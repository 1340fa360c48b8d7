#!/usr/bin/env bash
# Installs and builds whatever is missing, in layers, so each command pays only for what it uses:
#   scripts/setup.sh playground   Debian packages for the wasm build (Emscripten, xtensor, JSON), the package's
#                                 runtime node_modules, the WebAssembly build: all `npm start` needs (no torch,
#                                 no native build, no browser)
#   scripts/setup.sh python       the pinned reference torch in its per-user virtual environment only
#   scripts/setup.sh [all]        everything `npm test` needs: the above, the test packages (GoogleTest, Chromium,
#                                 clang sanitizers), all node_modules, the reference torch and the native build
# Idempotent; quick when nothing changed.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"
layer="${1:-all}"

ensure_apt_packages() {  # one or more package lists
  local missing=() list pkg
  for list in "$@"; do
    while read -r pkg; do
      [[ -z "$pkg" || "$pkg" == \#* ]] && continue
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done < "$list"
  done
  if ((${#missing[@]})); then
    log "installing Debian packages: ${missing[*]}"
    local sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

# The stamp records the lock file's hash and which set was installed: "runtime" (dependencies only, for the
# playground) or "all" (with the devDependencies the tests and the bench use). A full set serves both.
ensure_node_modules() {
  local want_set=$1 stamp=node_modules/.fxwasm-lock-stamp hash have=""
  hash="$(file_hash package-lock.json)"
  [[ -f "$stamp" ]] && have="$(cat "$stamp")"
  [[ "$have" == "$hash all" || ( "$want_set" == runtime && "$have" == "$hash runtime" ) ]] && return
  if [[ "$want_set" == runtime ]]; then
    log "npm ci --omit=dev (the playground's runtime packages)"
    npm ci --omit=dev --no-audit --no-fund --loglevel=error
  else
    log "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  echo "$hash $want_set" > "$stamp"
}

ensure_reference_python() {
  local stamp="$FXWASM_VENV/.fxwasm-requirements-stamp" want
  want="$(file_hash "$FXWASM_REQUIREMENTS")"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then return; fi
  ensure_apt_packages scripts/apt-packages-python.txt
  log "installing the reference torch into $FXWASM_VENV (several GB, once per machine)"
  mkdir -p "$(dirname "$FXWASM_VENV")"
  [[ -x "$FXWASM_PYTHON" ]] || python3 -m venv "$FXWASM_VENV"
  "$FXWASM_PYTHON" -m pip install -q --upgrade pip
  "$FXWASM_PYTHON" -m pip install -q -r "$FXWASM_REQUIREMENTS"
  "$FXWASM_PYTHON" -c 'import torch, torchvision, tabulate; print("reference torch", torch.__version__)' >&2
  echo "$want" > "$stamp"
}

case "$layer" in
  playground)
    ensure_apt_packages scripts/apt-packages.txt
    ensure_node_modules runtime
    FXWASM_SKIP_NATIVE=1 bash scripts/build.sh ;;
  python)
    ensure_reference_python ;;
  all)
    ensure_apt_packages scripts/apt-packages.txt scripts/apt-packages-tests.txt
    ensure_node_modules all
    ensure_reference_python
    bash scripts/build.sh ;;
  *) log "usage: scripts/setup.sh [playground|python|all]"; exit 2 ;;
esac
