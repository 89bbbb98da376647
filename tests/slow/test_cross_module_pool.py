"""The cross-module phase follows the records of many target modules in worker processes: the
findings, and what the cache keeps of them, are those of one process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from jaxlint.engine import cross_module

pytestmark = pytest.mark.slow  # starts worker pools

HELPER = """\
from pkg.deep import deep


def helper_{k}(x):
    if x > {k}:
        return deep(x)
    return -x
"""

DEEP = """\
def deep(x):
    while x > 100:
        x = x / 2
    return x
"""

N = 10  # target modules of the first round: more than the pool's threshold


@pytest.fixture
def package(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for k in range(N):
        (pkg / f"helpers_{k}.py").write_text(HELPER.format(k=k))
    (pkg / "deep.py").write_text(DEEP)
    imports = "".join(f"from pkg.helpers_{k} import helper_{k}\n" for k in range(N))
    calls = " + ".join(f"helper_{k}(x)" for k in range(N))
    (pkg / "train.py").write_text(f"import jax\n{imports}\n\n@jax.jit\ndef step(x):\n    return {calls}\n")
    return tmp_path


# Run in a fresh interpreter: a process that imported JAX (as other tests of this session do)
# never forks, so its pools start fresh interpreters, and the groups are then followed in it.
DRIVER = """
import json, sys
from jaxlint.config import Config
from jaxlint.engine import runner
from jaxlint.engine.run import lint_files

root, jobs, cache = sys.argv[1], int(sys.argv[2]), sys.argv[3] or None
pools = []
real = runner.pool_context

def watched():
    ctx = real()
    pools.append(ctx.get_start_method())
    return ctx

runner.pool_context = watched
result = lint_files([root + "/pkg"], Config(preview=True), jobs=jobs, cache_dir=cache, display=lambda p: p[len(root) + 1 :])
print(json.dumps({"findings": [f.to_dict() for f in result.findings], "pools": pools}))
"""


def lint(package, jobs, cache=""):
    p = subprocess.run([sys.executable, "-c", DRIVER, str(package), str(jobs), cache], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_groups_followed_in_workers_give_the_one_process_findings(package, tmp_path_factory):
    assert N >= cross_module.POOL_MIN_GROUPS
    one = lint(package, 1)
    want = [["pkg/deep.py", 2, 11, "JAX102"]] + [[f"pkg/helpers_{k}.py", 5, 8, "JAX101"] for k in range(N)]
    assert [[f["path"], f["line"], f["column"], f["code"]] for f in one["findings"]] == want
    assert one["pools"] == []
    two = lint(package, 2)
    assert two["findings"] == one["findings"]
    assert two["pools"] == ["fork"]  # the first round's ten groups; the second round has one
    # What the cache keeps comes from the workers' results: a cold and a warm run give the same.
    cache = str(tmp_path_factory.mktemp("cache"))
    cold, warm = lint(package, 2, cache), lint(package, 2, cache)
    assert cold["findings"] == warm["findings"] == one["findings"]
    assert cold["pools"] == ["fork"] and warm["pools"] == []  # warm: every group from the cache
