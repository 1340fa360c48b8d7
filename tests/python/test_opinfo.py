"""PyTorch's own OpInfo samples through the wasm runtime: for every op of
torch.testing._internal.common_methods_invocations.op_db with float32 samples on CPU — and again with its
complex64, int64 and bool samples — one FX graph that calls it on all its samples (opinfo_graphs.py; files
cached outside the work tree), checked in wasm against torch's results by one Node process for all files
(check_many.mjs).

Each op ends in one of: pass; wrong numbers (a test failure: no op may disagree with torch); missing op (the
runtime lacks a target: a listed gap); other (the runtime refuses a sample with an error: a listed gap); or
skipped before the check, with the reason (random or uninitialised output, torch cannot run it on CPU, FX
cannot trace it). The pass count may only go up: PASS_FLOOR is the count this runtime reached, per dtype."""
import collections
import json
import os
import subprocess
import tempfile
import time

import pytest

import opinfo_graphs
from corpus_graphs import ROOT

# raise them when ops are added (the suite prints the counts)
PASS_FLOOR = {"float32": 598, "complex64": 228, "int64": 412, "bool": 316}
# the least number of ops each dtype's suite must check (op_db has ~600 float32 ops, fewer of the others)
MIN_CHECKED = {"float32": 500, "complex64": 250, "int64": 300, "bool": 200}
CHECKER = os.path.join(ROOT, "tests", "python", "check_many.mjs")


def _check_files(files):
    """{file: result} from check_many.mjs; a file whose check ends the process (a trap) is an error and the
    rest are checked by a new process."""
    results = {}
    todo = list(files)
    while todo:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(todo, f)
        try:
            proc = subprocess.run(["node", CHECKER, f.name], capture_output=True, text=True, timeout=900, cwd=ROOT)
        finally:
            os.unlink(f.name)
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                results[r.pop("file")] = r
        todo = [p for p in todo if p not in results]
        if todo:
            tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
            results[todo.pop(0)] = {"status": "error", "message": f"the checker process ended: {tail[:200]}"}
    return results


@pytest.fixture(scope="module", params=list(PASS_FLOOR))
def outcome(request):
    dtype = request.param
    t0 = time.time()
    built = opinfo_graphs.build_all(dtype=getattr(opinfo_graphs.torch, dtype))
    t1 = time.time()
    files = {key: v["file"] for key, v in built.items() if "file" in v}
    checked = _check_files(sorted(files.values()))
    t2 = time.time()
    by_op = {key: checked[path] for key, path in files.items()}
    skipped = {key: v["skip"] for key, v in built.items() if "skip" in v}
    _print_report(dtype, by_op, skipped, t1 - t0, t2 - t1)
    return dtype, by_op, skipped


def _print_report(dtype, by_op, skipped, build_s, check_s):
    groups = collections.defaultdict(list)
    for key, r in sorted(by_op.items()):
        groups[r["status"]].append(key)
    passed = len(groups["pass"])
    print(f"\nOpInfo {dtype}: {passed} of {len(by_op)} checked ops pass "
          f"({len(skipped)} skipped; files {build_s:.1f} s, wasm checks {check_s:.1f} s)")
    print(f"  wrong numbers: {len(groups['mismatch'])}  missing op: {len(groups['unsupported'])}  "
          f"other: {len(groups['error'])}")
    for key in groups["mismatch"]:
        worst = by_op[key]["outputs"][:3]
        print(f"  WRONG {key}: " + "; ".join(f"{o.get('path')} max abs {o.get('max_abs')} "
                                              f"{o.get('message') or ''}" for o in worst))
    missing = collections.Counter(t for key in groups["unsupported"] for t in by_op[key]["targets"])
    print("  missing targets (ops needing each): " +
          ", ".join(f"{t} ({n})" for t, n in missing.most_common()))
    for key in groups["error"]:
        print(f"  OTHER {key}: {by_op[key]['message'].splitlines()[0][:200]}")
    reasons = collections.Counter(skipped.values())
    print("  skipped: " + ", ".join(f"{why} ({n})" for why, n in reasons.most_common()))
    for key, why in sorted(skipped.items()):
        print(f"  SKIP {key}: {why}")


def test_no_op_gives_wrong_numbers(outcome):
    dtype, by_op, _ = outcome
    wrong = {key: r["outputs"] for key, r in by_op.items() if r["status"] == "mismatch"}
    assert not wrong, f"{len(wrong)} ops disagree with torch on its {dtype} OpInfo samples: {sorted(wrong)}"


def test_pass_count_does_not_drop(outcome):
    dtype, by_op, _ = outcome
    passed = sum(r["status"] == "pass" for r in by_op.values())
    floor = PASS_FLOOR[dtype]
    assert passed >= floor, f"{passed} OpInfo ops pass on {dtype} samples, fewer than the {floor} this runtime reached"


def test_skips_have_reasons_and_most_ops_are_checked(outcome):
    dtype, by_op, skipped = outcome
    assert all(isinstance(why, str) and why for why in skipped.values())
    assert len(by_op) >= MIN_CHECKED[dtype], f"only {len(by_op)} {dtype} OpInfo ops made a file (skipped: {len(skipped)})"
