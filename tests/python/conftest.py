"""Fixtures shared by the Python tests."""
import os
import subprocess
import sys

import pytest

from corpus_graphs import BUILD_SCRIPT, CACHE_DIR, ROOT


@pytest.fixture(scope="session")
def corpus_dir():
    """Every corpus file, built (or found fresh) by tests/corpus/build_corpus.py into CACHE_DIR."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python")] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    proc = subprocess.run([sys.executable, BUILD_SCRIPT, "--out", CACHE_DIR], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    print(proc.stdout)
    assert proc.returncode == 0, f"build_corpus.py failed:\n{proc.stdout}\n{proc.stderr}"
    return CACHE_DIR
