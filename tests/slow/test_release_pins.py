"""Every install snippet names the current release, the release exists, and the README
describes only released features.

* The pins in README.md, action.yml, .pre-commit-hooks.yaml and the CI recipes all say
  ``v<__version__>`` (the patterns are those ``scripts/release.py`` rewrites), and CHANGELOG.md
  has an entry for it.
* The tag ``v<__version__>`` exists, on a commit of that version, in a checkout that has tags.
* A name that an entry of the CHANGELOG's Unreleased section gives in code (a command-line
  option, an output format, a setting) or a rule code it names, is not in the README, except in
  a paragraph, list item, table row or code line marked ``(unreleased``: the README
  describes what the pinned release installs.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
from typing import Dict, List, Optional

import pytest

from clirun import ROOT, commit_all, git, init_repo
from jaxlint.versions import __version__
from jaxlint.config import KNOWN_KEYS
from jaxlint.formats import FORMATTERS

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
    # The version's file, and where the releases up to 0.8.0 kept it.
    for where in ("jaxlint/versions.py", "jaxlint/__init__.py"):
        if f'__version__ = "{version}"' in run("show", f"{tag}:{where}").stdout:
            return None
    return f"tag {tag} is on a commit whose jaxlint/versions.py is not version {version}"


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
    assert tag_problem(root, "1.2.0") == "tag v1.2.0 is on a commit whose jaxlint/versions.py is not version 1.2.0"


# --- the README describes released features only -------------------------------------------------

CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
RULE_CODE = re.compile(r"\bJAX\d{3}\b")
MARK = re.compile(r"\(unreleased\b", re.I)


def unreleased_entries(changelog: str) -> List[str]:
    m = release.UNRELEASED.search(changelog)
    body = m.group(1) if m else ""
    return [e.strip() for e in re.split(r"^- ", body, flags=re.M) if e.strip()]


def entry_names(entry: str) -> List[str]:
    """The options, formats and settings an entry gives in code, and the rule codes it names."""
    names = set(RULE_CODE.findall(entry))
    for _, span in CODE_SPAN.findall(entry):
        names.update(OPTION.findall(span))
        word = span.split("=")[0].strip()
        if word in FORMATTERS or word in KNOWN_KEYS:
            names.add(word)
        for m in re.finditer(r"--(?:output-)?format[ =]([a-z-]+)", span):
            names.add(m.group(1))
    return sorted(names)


def readme_blocks(readme: str) -> List[tuple]:
    """(first line number, text, in code) of each paragraph, list item, table row and line of
    a code block."""
    blocks, current, fenced = [], None, False
    for n, line in enumerate(readme.splitlines(), 1):
        if line.startswith("```"):
            fenced, current = not fenced, None
            continue
        if fenced:
            blocks.append((n, line, True))
            continue
        starts_item = re.match(r"\s*([-*]|\d+\.)\s", line) or line.startswith("|") or line.startswith("#")
        if not line.strip():
            current = None
        elif current is None or starts_item:
            current = [n, line, False]
            blocks.append(current)
        else:
            current[1] += "\n" + line
    return [tuple(b) for b in blocks]


def mentions(readme: str, name: str) -> List[int]:
    """Lines of the README's unmarked blocks that name ``name``: an option or a rule code
    anywhere, a format or setting only in code."""
    token = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
    anywhere = name.startswith("--") or RULE_CODE.fullmatch(name)
    out = []
    for n, text, in_code in readme_blocks(readme):
        if MARK.search(text):
            continue
        code = text if in_code or anywhere else " ".join(span for _, span in CODE_SPAN.findall(text))
        if token.search(code):
            out.append(n)
    return out


def described_unreleased(changelog: str, readme: str) -> Dict[str, List[int]]:
    found = {}
    for entry in unreleased_entries(changelog):
        for name in entry_names(entry):
            lines = mentions(readme, name)
            if lines:
                found[name] = lines
    return found


def test_the_readme_describes_no_unreleased_feature():
    found = described_unreleased(_read("CHANGELOG.md"), _read("README.md"))
    assert not found, (
        "README.md describes what CHANGELOG.md lists under Unreleased (name: README lines): "
        f"{ {name: lines[:3] for name, lines in found.items()} }.  Release it (python scripts/release.py NEXT_VERSION), or mark the README's "
        "paragraph '(unreleased)' until then."
    )


def test_the_unreleased_check_is_not_vacuous():
    changelog = "# Changelog\n\n## Unreleased\n\n- Output format `tap` and `--tap-level=2`.\n- JAX110 is new; `extend = \"x\"`.\n\n## 1.0.0\n\n- `--old`.\n"
    assert [entry_names(e) for e in unreleased_entries(changelog)] == [["--tap-level"], ["JAX110", "extend"]]
    readme = (
        "Use `--tap-level` to choose.\n\n"
        "- JAX110 flags things\n"
        "- JAX111 too (unreleased: on main)\n\n"
        "| JAX110 | x |\n"
        "| JAX110 | y (unreleased) |\n\n"
        "```toml\n"
        'extend = "base.toml"\n'
        'extend = "other.toml"  # (unreleased)\n'
        "```\n\n"
        "We extend the --old one; the extend setting (unreleased) is `extend`.\n"
    )
    assert described_unreleased(changelog, readme) == {"--tap-level": [1], "JAX110": [3, 6], "extend": [10]}
    assert unreleased_entries("## Unreleased\n\n## 1.0.0\n\n- `--old`.\n") == []
    assert entry_names("`--format junit`, ``[*] `--fix` ``") == ["--fix", "--format", "junit"]
