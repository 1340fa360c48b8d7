#!/usr/bin/env bash
# Installs and builds whatever is missing: Debian packages, node_modules, the pinned reference torch,
# the native core and the WebAssembly package. Idempotent; quick when nothing changed.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$FXWASM_ROOT"

ensure_apt_packages() {
  local missing=()
  while read -r pkg; do
    [[ -z "$pkg" || "$pkg" == \#* ]] && continue
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done < scripts/apt-packages.txt
  if ((${#missing[@]})); then
    log "installing Debian packages: ${missing[*]}"
    local sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

ensure_node_modules() {
  local stamp=node_modules/.fxwasm-lock-stamp want
  want="$(file_hash package-lock.json)"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    log "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
  fi
}

ensure_reference_python() {
  local stamp="$FXWASM_VENV/.fxwasm-requirements-stamp" want
  want="$(file_hash "$FXWASM_REQUIREMENTS")"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then return; fi
  log "installing the reference torch into $FXWASM_VENV (several GB, once per machine)"
  mkdir -p "$(dirname "$FXWASM_VENV")"
  [[ -x "$FXWASM_PYTHON" ]] || python3 -m venv "$FXWASM_VENV"
  "$FXWASM_PYTHON" -m pip install -q --upgrade pip
  "$FXWASM_PYTHON" -m pip install -q -r "$FXWASM_REQUIREMENTS"
  "$FXWASM_PYTHON" -c 'import torch, torchvision, tabulate; print("reference torch", torch.__version__)' >&2
  echo "$want" > "$stamp"
}

ensure_apt_packages
ensure_node_modules
ensure_reference_python
bash scripts/build.sh
