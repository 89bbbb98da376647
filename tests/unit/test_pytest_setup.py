"""The test run itself starts clean: no plugin warns about the configuration before the first test."""

import subprocess
import sys

import pytest

from clirun import ROOT, env


@pytest.mark.slow  # starts pytest in a child process
def test_pytest_starts_without_a_configuration_warning():
    # ``-W always`` shows what a plain ``python -m pytest -q`` shows where deprecation warnings
    # are not filtered (pytest-asyncio warns from its pytest_configure when its loop scope is unset).
    p = subprocess.run(
        [sys.executable, "-W", "always", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--co", "tests/unit/test_registry.py"],
        cwd=ROOT,
        capture_output=True,
        env=env(),
        timeout=120,
    )
    out = p.stdout.decode() + p.stderr.decode()
    assert p.returncode == 0, out
    # Other plugins a machine may have (pytest-benchmark under xdist) warn about themselves, not
    # about this configuration: the check is for configuration warnings.
    assert "configuration option" not in out and "PytestDeprecationWarning" not in out, out
