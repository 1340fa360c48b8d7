"""The exporter as users install it: `pip install ./python` into a folder outside the checkout, then
`import fxwasm` and `python -m fxwasm.export` from another folder, with nothing of the checkout on the path."""
import json
import os
import struct
import subprocess
import sys

import shutil

import pytest

from corpus_graphs import ROOT

MODEL_SOURCE = '''
import torch

def tiny():
    return torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.ReLU())
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    # Built from a copy, so the build leaves nothing (build/, *.egg-info) in the checkout.
    source = tmp_path_factory.mktemp("src") / "python"
    shutil.copytree(os.path.join(ROOT, "python"), source, ignore=shutil.ignore_patterns("__pycache__"))
    # --no-build-isolation: build with the environment's setuptools (no download); --no-deps: torch is there.
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return target


def _env(target):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    return env


def test_metadata_names_the_package_its_version_and_torch_only(installed):
    dist = [d for d in os.listdir(installed) if d.startswith("fxwasm-") and d.endswith(".dist-info")]
    assert len(dist) == 1, os.listdir(installed)
    meta = open(os.path.join(installed, dist[0], "METADATA"), encoding="utf8").read()
    sys.path.insert(0, os.path.join(ROOT, "python"))
    try:
        import fxwasm
        version = fxwasm.__version__
    finally:
        sys.path.pop(0)
    assert f"\nVersion: {version}\n" in meta
    requires = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert [r.split(">")[0].split("=")[0].strip() for r in requires] == ["torch"]


def test_imports_from_the_installed_folder_not_the_checkout(installed, tmp_path):
    proc = subprocess.run([sys.executable, "-c", "import fxwasm; print(fxwasm.__file__)"], cwd=tmp_path,
                          env=_env(installed), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith(str(installed))


def test_command_line_exports_a_model_file_from_another_folder(installed, tmp_path):
    (tmp_path / "tiny_model.py").write_text(MODEL_SOURCE)
    proc = subprocess.run([sys.executable, "-m", "fxwasm.export", "tiny_model.py:tiny", "--out", "tiny.fxw",
                           "--input-shape", "2,3"], cwd=tmp_path, env=_env(installed),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = (tmp_path / "tiny.fxw").read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    assert header["__metadata__"]["format"] == "fxwasm"
    program = json.loads(header["__metadata__"]["program"])
    assert [node["op"] for node in program["nodes"]] == ["placeholder", "call_module", "call_module",
                                                                   "output"]


def test_command_line_failure_is_a_message_and_exit_2(installed, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "fxwasm.export", "no_such_file.py:f", "--out", "x.fxw"],
                          cwd=tmp_path, env=_env(installed), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "no such file: no_such_file.py" in proc.stderr
    assert "Traceback" not in proc.stderr
