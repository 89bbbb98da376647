"""The suite is sorted by layer (tests/README.md): every test module lives in one of the four
folders, and nothing else under tests/ is collected."""

import os

from clirun import ROOT

TESTS = os.path.join(ROOT, "tests")
LAYERS = ("unit", "rules", "faces", "slow")


def _test_modules():
    for dirpath, dirnames, names in os.walk(TESTS):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in names:
            if name.startswith("test_") and name.endswith(".py"):
                yield os.path.relpath(os.path.join(dirpath, name), TESTS)


def test_every_test_module_is_in_one_layer():
    misplaced = [path for path in _test_modules() if os.path.dirname(path) not in LAYERS]
    assert misplaced == []


def test_every_layer_has_tests_and_the_readme_names_it():
    with open(os.path.join(TESTS, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    for layer in LAYERS:
        assert any(os.path.dirname(p) == layer for p in _test_modules()), layer
        assert f"`{layer}/`" in readme, layer
