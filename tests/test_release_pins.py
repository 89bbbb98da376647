"""Every install snippet names the current release: the pins in README.md, action.yml,
.pre-commit-hooks.yaml and the CI recipes all say ``v<__version__>``, and CHANGELOG.md has an
entry for it."""

from __future__ import annotations

import os
import re

from clirun import ROOT
from jaxlint import __version__

FILES = ("README.md", "action.yml", ".pre-commit-hooks.yaml", "CHANGELOG.md")

# The ways a snippet pins jaxlint: pip from git, the Action's uses:, pre-commit's rev: (under the
# jaxlint repo), and a plain registry pin.
PIN_PATTERNS = (
    re.compile(r"github\.com/jaxlint/jaxlint(?:\.git)?@([^\s\"'#]+)"),
    re.compile(r"uses:\s*jaxlint/jaxlint@([^\s\"'#]+)"),
    re.compile(r"\bjaxlint\s*==\s*([^\s\"'#]+)"),
)
REV = re.compile(r"repo:\s*https://github\.com/jaxlint/jaxlint\s*\n\s*rev:\s*([^\s#]+)")


def _read(name):
    path = os.path.join(ROOT, name)
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def pins(text: str):
    out = []
    for pattern in PIN_PATTERNS:
        out += pattern.findall(text)
    out += REV.findall(text)
    return out


def test_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert __version__ != "0.1.0"  # the version that predates --fix, server and the selectors


def test_every_pin_names_the_current_version():
    found = {}
    for name in FILES:
        for pin in pins(_read(name)):
            found.setdefault(pin, []).append(name)
    assert found, "no pinned snippet found"
    assert set(found) == {f"v{__version__}"}, found


def test_readme_has_a_pin_for_every_surface():
    readme = _read("README.md")
    got = pins(readme)
    assert readme.count(f"jaxlint @ git+https://github.com/jaxlint/jaxlint@v{__version__}") >= 4
    assert f"uses: jaxlint/jaxlint@v{__version__}" in readme
    assert REV.findall(readme) == [f"v{__version__}"]
    assert len(got) >= 6


def test_the_pin_detector_sees_a_stale_pin():
    assert pins('pip install "jaxlint @ git+https://github.com/jaxlint/jaxlint@2e5a4d5"') == ["2e5a4d5"]
    assert pins("      - uses: jaxlint/jaxlint@v0.1.0") == ["v0.1.0"]
    assert pins("  - repo: https://github.com/jaxlint/jaxlint\n    rev: v0.1.0\n") == ["v0.1.0"]


def test_changelog_names_the_current_version():
    assert re.search(rf"^## {re.escape(__version__)}\b", _read("CHANGELOG.md"), re.M)
