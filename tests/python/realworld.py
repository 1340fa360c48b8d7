"""Shared by the real-world corpus tests (Hugging Face, timm): files built once into a per-user cache outside
the work tree (~/.cache/fxwasm/realworld/<kind>/, or $FXWASM_REALWORLD_DIR), so fresh clones and CI reuse
them; a file is rebuilt when the hash of its inputs changes (the model list, the exporter's sources, the
pinned library versions). The wasm CLI checks them."""
import hashlib
import os
import subprocess

from corpus_graphs import ROOT

CLI = os.path.join(ROOT, "web", "bin", "fxwasm.js")
EXPORTER = os.path.join(ROOT, "python", "fxwasm")
CACHE = os.environ.get("FXWASM_REALWORLD_DIR",
                       os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "fxwasm",
                                    "realworld"))


def _inputs_hash(versions, deps):
    h = hashlib.sha256(versions.encode())
    files = sorted(deps) + sorted(os.path.join(EXPORTER, f) for f in os.listdir(EXPORTER)
                                  if f.endswith((".py", ".json")))
    for path in files:
        with open(path, "rb") as f:
            h.update(os.path.basename(path).encode() + b"\0" + f.read())
    return h.hexdigest()[:16]


def cached_file(kind, name, build, versions, deps):
    """<CACHE>/<kind>/<name>.fxw, made by build(path) unless it was made from the same inputs."""
    path = os.path.join(CACHE, kind, f"{name}.fxw")
    stamp = path + ".inputs"
    want = _inputs_hash(versions, deps)
    if not (os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == want):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".partial"
        build(tmp)
        os.replace(tmp, path)
        with open(stamp, "w") as f:
            f.write(want)
    return path


def cli(*args):
    """(exit code, stdout, stderr) of `node web/bin/fxwasm.js ARGS…`."""
    proc = subprocess.run(["node", CLI, *args], capture_output=True, text=True, timeout=600, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr
