"""The CLI's `table` and `code` (node web/bin/fxwasm.js) against torch's own print_tabular and
GraphModule.code, byte for byte, for every corpus file: the committed small ones under examples/ and the
large ones built into .cache/corpus. torch's side is computed from torch's own graph of the same model
(corpus_graphs.torch_graph), never from the file.
"""
import os
import shutil
import subprocess

import pytest

from corpus_graphs import ENTRIES, ROOT, SMALL, print_tabular, torch_graph

CLI = os.path.join(ROOT, "web", "bin", "fxwasm.js")
WASM = os.path.join(ROOT, "web", "dist", "fxwasm.wasm")


def fxwasm_cli(*args):
    assert shutil.which("node"), "node is not on PATH"
    assert os.path.exists(WASM), "web/dist/fxwasm.wasm is missing: run bash scripts/build-wasm.sh"
    proc = subprocess.run(["node", CLI, *args], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, f"fxwasm {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}"
    return proc.stdout


def check_table(path, entry):
    assert fxwasm_cli("table", path) == print_tabular(torch_graph(entry))


def check_code(path, entry):
    want = torch_graph(entry).code + "\n"  # the CLI prints the code as print(gm.code) would
    assert fxwasm_cli("code", path) == want


CASES = [(e, False) for e in ENTRIES] + [(e, True) for e in SMALL]
IDS = [f"{e.name}-{'examples' if committed else 'corpus'}" for e, committed in CASES]


def path_of(entry, committed, corpus_dir):
    path = entry.output() if committed else entry.output(corpus_dir)
    assert os.path.exists(path), f"{path} is missing: run tests/corpus/build_corpus.py"
    return path


@pytest.mark.parametrize("entry,committed", CASES, ids=IDS)
def test_table_matches_print_tabular(corpus_dir, entry, committed):
    check_table(path_of(entry, committed, corpus_dir), entry)


@pytest.mark.parametrize("entry,committed", CASES, ids=IDS)
def test_code_matches_graph_module_code(corpus_dir, entry, committed):
    check_code(path_of(entry, committed, corpus_dir), entry)
