"""Host code calling, with a value JAX must hash, a factory or a wrapper of another module of
the run that puts it in a static slot (fixtures/factory_pkg): JAX202 where JAX raises, at the
call of the returned jitted function, or at the slot inside the wrapper."""

import os
import shutil

from fixture_units import ROOT
from jaxlint.config import Config
from jaxlint.engine.run import lint_files

PKG = os.path.join(ROOT, "fixtures", "factory_pkg")

EXPECTED = [
    ("factory_pkg/train.py", 13, 20, "JAX202"),
    ("factory_pkg/train.py", 21, 27, "JAX202"),
    ("factory_pkg/train.py", 25, 27, "JAX202"),
    ("factory_pkg/utils.py", 26, 27, "JAX202"),
]


def _lint(root, jobs=1, cache_dir=None, names=None):
    files = [os.path.join(root, n) for n in (names or sorted(os.listdir(root))) if n.endswith(".py")]
    display = lambda p: os.path.relpath(p, os.path.dirname(root))  # noqa: E731
    return lint_files(files, Config(), jobs=jobs, cache_dir=cache_dir, display=display).findings


def _keys(findings):
    return [(f.path, f.line, f.column, f.code) for f in findings]


def test_factories_and_wrappers_of_another_module():
    found = _lint(PKG)
    assert _keys(found) == EXPECTED
    messages = {(f.path, f.line): f.message for f in found}
    assert messages[("factory_pkg/train.py", 13)] == (
        "A list is passed for static parameter `sizes` of _layers() (the jitted function returned by make_step())"
    )
    assert messages[("factory_pkg/utils.py", 26)] == (
        "A list (built at line 29 of factory_pkg/train.py) is passed for static parameter `sizes` of _layers() through run_layers()"
    )


def test_two_processes_give_the_same_findings(monkeypatch):
    from jaxlint.engine import runner

    monkeypatch.setattr(runner, "POOL_MIN_FILES", 1)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    assert [f.to_dict() for f in _lint(PKG, jobs=2)] == [f.to_dict() for f in _lint(PKG, jobs=1)]


def test_the_caller_alone_says_nothing():
    # Without utils.py the run cannot tell what make_step returns or what run_layers does.
    assert _keys(_lint(PKG, names=["train.py"])) == []
    assert _keys(_lint(PKG, names=["utils.py"])) == []


def test_a_cached_run_sees_an_edit_of_either_module(tmp_path):
    pkg = tmp_path / "factory_pkg"
    shutil.copytree(PKG, pkg)
    cache = str(tmp_path / "cache")
    assert _keys(_lint(str(pkg), cache_dir=cache)) == EXPECTED
    assert _keys(_lint(str(pkg), cache_dir=cache)) == EXPECTED
    utils = pkg / "utils.py"
    # the wrapper now makes a tuple of what it gets: nothing reaches the slot unhashable
    utils.write_text(utils.read_text().replace("    return _layers_jit(x, sizes)  # error: JAX202\n", "    return _layers_jit(x, tuple(sizes))\n"))
    assert _keys(_lint(str(pkg), cache_dir=cache)) == EXPECTED[:3]
    train = pkg / "train.py"
    train.write_text(train.read_text().replace("    return step(x, [4, 2])  # error: JAX202\n", "    return step(x, (4, 2))\n"))
    assert _keys(_lint(str(pkg), cache_dir=cache)) == EXPECTED[1:3]
