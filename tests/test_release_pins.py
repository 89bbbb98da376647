"""Every install snippet names the current release, and the release exists.

* The pins in README.md, action.yml, .pre-commit-hooks.yaml and the CI recipes all say
  ``v<__version__>`` (the patterns are those ``scripts/release.py`` rewrites), and CHANGELOG.md
  has an entry for it.
* The tag ``v<__version__>`` exists, on a commit of that version, in a checkout that has tags.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
from typing import Optional

import pytest

from clirun import ROOT, commit_all, git, init_repo
from jaxlint import __version__

_spec = importlib.util.spec_from_file_location("release_script", os.path.join(ROOT, "scripts", "release.py"))
release = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(release)

FILES = release.PIN_FILES
pins = release.pins


def _read(name):
    path = os.path.join(ROOT, name)
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as fh:
        return fh.read()


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
    assert re.findall(r"rev:\s*(v\S+)", readme) == [f"v{__version__}"]
    assert re.search(rf"names\s+the\s+same\s+release,\s+`v{re.escape(__version__)}`", readme)
    assert len(got) >= 7


def test_the_pin_detector_sees_a_stale_pin():
    assert pins('pip install "jaxlint @ git+https://github.com/jaxlint/jaxlint@2e5a4d5"') == ["2e5a4d5"]
    assert pins("      - uses: jaxlint/jaxlint@v0.1.0") == ["v0.1.0"]
    assert pins("  - repo: https://github.com/jaxlint/jaxlint\n    rev: v0.1.0\n") == ["v0.1.0"]
    assert pins("Every snippet names the same release,\n`v0.1.0`, the version") == ["v0.1.0"]


def test_changelog_names_the_current_version():
    changelog = _read("CHANGELOG.md")
    assert re.search(rf"^## {re.escape(__version__)}\b", changelog, re.M)
    # What lands next is written under Unreleased, above the current release.
    assert changelog.index("\n## Unreleased\n") < changelog.index(f"\n## {__version__}")


# --- the tag -------------------------------------------------------------------------------------

NO_TAGS = "this checkout has no tags (a shallow clone fetches none): the release tag cannot be checked"


def tag_problem(root: str, version: str) -> Optional[str]:
    """Why the checkout at ``root`` does not show ``version`` released (``NO_TAGS`` when it has
    no tags at all), or None."""
    run = lambda *a: subprocess.run(["git", "-C", root, *a], capture_output=True, text=True)  # noqa: E731
    if run("rev-parse", "--git-dir").returncode != 0:
        return NO_TAGS
    if not run("tag", "--list").stdout.split():
        return NO_TAGS
    tag = f"v{version}"
    if run("rev-parse", "-q", "--verify", f"refs/tags/{tag}").returncode != 0:
        return f"version {version} has no tag {tag}: make it on the commit that released it (git tag -a {tag} -m 'jaxlint {version}' COMMIT)"
    init = run("show", f"{tag}:jaxlint/__init__.py").stdout
    if f'__version__ = "{version}"' not in init:
        return f"tag {tag} is on a commit whose jaxlint/__init__.py is not version {version}"
    return None


def test_the_current_version_is_tagged():
    problem = tag_problem(ROOT, __version__)
    if problem == NO_TAGS:
        pytest.skip(NO_TAGS)
    assert problem is None, problem


@pytest.mark.slow  # runs git
def test_the_tag_check_sees_a_missing_or_misplaced_tag(tmp_path):
    root = str(tmp_path)
    init_repo(root)
    (tmp_path / "jaxlint").mkdir()
    (tmp_path / "jaxlint" / "__init__.py").write_text('__version__ = "1.1.0"\n')
    commit_all(root, "1.1.0")
    assert tag_problem(root, "1.2.0") == NO_TAGS
    git(["tag", "-a", "v1.1.0", "-m", "jaxlint 1.1.0"], cwd=root)
    assert tag_problem(root, "1.1.0") is None
    assert tag_problem(root, "1.2.0").startswith("version 1.2.0 has no tag v1.2.0")
    git(["tag", "-a", "v1.2.0", "-m", "jaxlint 1.2.0"], cwd=root)  # on the 1.1.0 commit
    assert tag_problem(root, "1.2.0") == "tag v1.2.0 is on a commit whose jaxlint/__init__.py is not version 1.2.0"
