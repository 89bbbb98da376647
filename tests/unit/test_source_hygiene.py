"""The package has no undefined names or unused imports (pyflakes, through flake8's F codes).

A merge can leave a name used where it is no longer defined; in a branch that only real
programs reach (the dynamic worker's), nothing else would notice."""

import os
import subprocess
import sys

import pytest

from clirun import ROOT


@pytest.mark.slow
def test_pyflakes_finds_nothing_in_the_package():
    r = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "F", os.path.join(ROOT, "jaxlint")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (r.returncode, r.stdout) == (0, "")
