"""Host code calling, with a value JAX must hash, a factory or a wrapper of another module of
the run that puts it in a static slot (fixtures/factory_pkg): JAX202 where JAX raises, at the
call of the returned jitted function, or at the slot inside the wrapper."""

import os
import shutil

import pytest

from fixture_units import ROOT, finding_keys, lint_package

PKG = os.path.join(ROOT, "fixtures", "factory_pkg")

EXPECTED = [
    ("factory_pkg/train.py", 13, 20, "JAX202"),
    ("factory_pkg/train.py", 21, 27, "JAX202"),
    ("factory_pkg/train.py", 25, 27, "JAX202"),
    ("factory_pkg/utils.py", 26, 27, "JAX202"),
]


def test_factories_and_wrappers_of_another_module():
    found = lint_package(PKG)
    assert finding_keys(found) == EXPECTED
    messages = {(f.path, f.line): f.message for f in found}
    assert messages[("factory_pkg/train.py", 13)] == (
        "A list is passed for static parameter `sizes` of _layers() (the jitted function returned by make_step())"
    )
    assert messages[("factory_pkg/utils.py", 26)] == (
        "A list (built at line 29 of factory_pkg/train.py) is passed for static parameter `sizes` of _layers() through run_layers()"
    )


@pytest.mark.slow  # starts a worker pool
def test_two_processes_give_the_same_findings(monkeypatch):
    from jaxlint.engine import runner

    monkeypatch.setattr(runner, "POOL_MIN_FILES", 1)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    assert [f.to_dict() for f in lint_package(PKG, jobs=2)] == [f.to_dict() for f in lint_package(PKG, jobs=1)]


def test_the_caller_alone_says_nothing():
    # Without utils.py the run cannot tell what make_step returns or what run_layers does.
    assert finding_keys(lint_package(PKG, names=["train.py"])) == []
    assert finding_keys(lint_package(PKG, names=["utils.py"])) == []


def test_a_cached_run_sees_an_edit_of_either_module(tmp_path):
    pkg = tmp_path / "factory_pkg"
    shutil.copytree(PKG, pkg)
    cache = str(tmp_path / "cache")
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED
    utils = pkg / "utils.py"
    # the wrapper now makes a tuple of what it gets: nothing reaches the slot unhashable
    utils.write_text(utils.read_text().replace("    return _layers_jit(x, sizes)  # error: JAX202\n", "    return _layers_jit(x, tuple(sizes))\n"))
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED[:3]
    train = pkg / "train.py"
    train.write_text(train.read_text().replace("    return step(x, [4, 2])  # error: JAX202\n", "    return step(x, (4, 2))\n"))
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED[1:3]
