# Shared settings for the scripts (sourced, not run).
FXWASM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The reference torch lives outside the work tree, in a per-user cache keyed by the pinned torch version,
# so fresh clones and CI reuse it (it is several GB).
FXWASM_REQUIREMENTS="$FXWASM_ROOT/python/requirements-reference.txt"
FXWASM_TORCH_PIN="$(sed -n 's/^torch==//p' "$FXWASM_REQUIREMENTS")"
FXWASM_VENV="${FXWASM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/fxwasm/venv-torch-$FXWASM_TORCH_PIN}"
FXWASM_PYTHON="$FXWASM_VENV/bin/python"
# Emscripten 3.1.6's JS optimizer needs Debian's node modules (acorn).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
log() { printf '[fxwasm] %s\n' "$*" >&2; }
# The files' contents (not their paths: a stamp holds in every clone and worktree sharing the cache).
file_hash() { cat "$@" | sha256sum | cut -c1-16; }
