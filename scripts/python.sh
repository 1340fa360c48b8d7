#!/usr/bin/env bash
# Runs a Python file (or -m module) with the project's reference torch and python/ on the path:
#   npm run -s python -- FILE.py ARGS...
set -euo pipefail
source "$(dirname "$0")/env.sh"
# Installs the pinned reference torch when it is missing or its pins changed (quick otherwise).
bash "$FXWASM_ROOT/scripts/setup.sh" python >&2
export PYTHONPATH="$FXWASM_ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$FXWASM_PYTHON" "$@"
