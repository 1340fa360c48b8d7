#!/usr/bin/env bash
# Runs a Python file (or -m module) with the project's reference torch and python/ on the path:
#   npm run -s python -- FILE.py ARGS...
set -euo pipefail
source "$(dirname "$0")/env.sh"
if [[ ! -x "$FXWASM_PYTHON" ]]; then
  log "the reference torch is not installed yet: running the set-up first"
  bash "$FXWASM_ROOT/scripts/setup.sh" >&2
fi
export PYTHONPATH="$FXWASM_ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$FXWASM_PYTHON" "$@"
