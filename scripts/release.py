#!/usr/bin/env python3
"""Cut a release: ``python scripts/release.py 0.8.0``.

In one commit, on a clean working tree:

* ``jaxlint/versions.py``: ``__version__`` becomes the new version;
* every pin in ``PIN_FILES`` (pip's ``@v...``, the Action's ``uses:``, pre-commit's ``rev:``,
  the README's sentence naming the release) becomes ``v<VERSION>``;
* ``CHANGELOG.md``: the entries under ``## Unreleased`` move under ``## <VERSION> - <date>``,
  and an empty ``## Unreleased`` stays above it for what lands next.

Then an annotated tag ``v<VERSION>`` is made on that commit (``--no-tag``: not; the command
that makes it is printed, to run where the commit ends up).  ``--dry-run`` prints what would be
done and changes nothing.  Refused, with one line and exit status 2: a working tree with
changes, a version not greater than the current one, a tag that exists, an empty or missing
Unreleased section.

``--root`` is the repository to release (default: the one this script is in).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
from typing import Dict, List, Tuple

VERSION_RE = re.compile(r"\d+\.\d+\.\d+")
INIT = "jaxlint/versions.py"
CHANGELOG = "CHANGELOG.md"
INIT_VERSION = re.compile(r'^__version__ = "([^"]*)"', re.M)

# The files whose snippets pin jaxlint, and the ways they pin it: pip from git, the Action's
# uses:, a registry pin, pre-commit's rev: under the jaxlint repo, and the README's sentence
# that names the release all snippets use.  tests/slow/test_release_pins.py checks the same ones.
PIN_FILES = ("README.md", "action.yml", ".pre-commit-hooks.yaml", CHANGELOG)
PIN_PATTERNS = (
    re.compile(r"github\.com/jaxlint/jaxlint(?:\.git)?@([^\s\"'#]+)"),
    re.compile(r"uses:\s*jaxlint/jaxlint@([^\s\"'#]+)"),
    re.compile(r"\bjaxlint\s*==\s*([^\s\"'#]+)"),
    re.compile(r"repo:\s*https://github\.com/jaxlint/jaxlint\s*\n\s*rev:\s*([^\s#]+)"),
    re.compile(r"names\s+the\s+same\s+release,\s+`([^`\s]+)`"),
)
UNRELEASED = re.compile(r"^## Unreleased[ \t]*\n(.*?)(?=^## |\Z)", re.M | re.S)


class Refused(Exception):
    """The release cannot be made; the message is one line."""


def pins(text: str) -> List[str]:
    """Every pinned revision in ``text``, in pattern order."""
    out: List[str] = []
    for pattern in PIN_PATTERNS:
        out += pattern.findall(text)
    return out


def repin(text: str, rev: str) -> Tuple[str, int]:
    """``text`` with every pin set to ``rev``, and how many pins there were."""
    count = 0
    for pattern in PIN_PATTERNS:

        def sub(m):
            nonlocal count
            count += 1
            whole, start, end = m.group(0), m.start(1) - m.start(0), m.end(1) - m.start(0)
            return whole[:start] + rev + whole[end:]

        text = pattern.sub(sub, text)
    return text, count


def move_unreleased(changelog: str, version: str, date: str) -> Tuple[str, int]:
    """The CHANGELOG with the Unreleased entries under ``## <version> - <date>`` and an empty
    Unreleased section above them; and how many lines moved."""
    m = UNRELEASED.search(changelog)
    if m is None:
        raise Refused(f"{CHANGELOG} has no '## Unreleased' section")
    body = m.group(1).strip("\n")
    if not body.strip():
        raise Refused(f"{CHANGELOG}'s Unreleased section is empty: nothing to release")
    section = f"## Unreleased\n\n## {version} - {date}\n\n{body}\n"
    rest = changelog[m.end() :]
    return changelog[: m.start()] + section + ("\n" + rest if rest else ""), len(body.splitlines())


def _version_tuple(v: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in v.split("."))


def _git(root: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        said = (p.stderr or p.stdout).strip().splitlines()
        raise Refused(f"git {' '.join(args)} failed" + (f": {said[-1]}" if said else ""))
    return p


def _read(root: str, rel: str) -> str:
    path = os.path.join(root, rel)
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def plan(root: str, version: str, date: str) -> Tuple[str, Dict[str, str], List[str]]:
    """Check that the release can be made; return the current version, the new text of each
    file that changes, and one line per change."""
    if not VERSION_RE.fullmatch(version):
        raise Refused(f"'{version}' is not a release number (MAJOR.MINOR.PATCH)")
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise Refused(f"'{date}' is not a date (YYYY-MM-DD)") from None
    if _git(root, "rev-parse", "--is-inside-work-tree", check=False).returncode != 0:
        raise Refused(f"{root} is not a git working tree")
    dirty = _git(root, "status", "--porcelain").stdout.splitlines()
    if dirty:
        more = ", ..." if len(dirty) > 1 else ""
        raise Refused(f"the working tree has uncommitted changes ({dirty[0][3:]}{more}); commit or stash them first")
    init = _read(root, INIT)
    m = INIT_VERSION.search(init)
    if m is None:
        raise Refused(f"no __version__ line in {INIT}")
    current = m.group(1)
    if not VERSION_RE.fullmatch(current) or _version_tuple(version) <= _version_tuple(current):
        raise Refused(f"version {version} is not greater than the current version {current}")
    tag = f"v{version}"
    if _git(root, "rev-parse", "-q", "--verify", f"refs/tags/{tag}", check=False).returncode == 0:
        raise Refused(f"tag {tag} exists already")

    changes: Dict[str, str] = {INIT: init[: m.start(1)] + version + init[m.end(1) :]}
    lines = [f"{INIT}: __version__ {current} -> {version}"]
    for rel in PIN_FILES:
        text = changes.get(rel, _read(root, rel))
        new, count = repin(text, tag)
        if count:
            lines.append(f"{rel}: {count} pin(s) -> {tag}")
        if new != text:
            changes[rel] = new
    changelog, moved = move_unreleased(changes.get(CHANGELOG, _read(root, CHANGELOG)), version, date)
    changes[CHANGELOG] = changelog
    lines.append(f"{CHANGELOG}: {moved} line(s) of Unreleased -> '## {version} - {date}'")
    return current, changes, lines


def release(root: str, version: str, date: str, dry_run: bool, tag: bool) -> List[str]:
    current, changes, lines = plan(root, version, date)
    message = f"Release {version}: version, install pins and CHANGELOG (from {current})"
    lines.append(f"commit: {message}")
    name = f"v{version}"
    tag_command = f"git tag -a {name} -m 'jaxlint {version}'"
    lines.append(f"tag: {name} (annotated)" if tag else f"no tag; make it on the released commit: {tag_command}")
    if dry_run:
        return ["dry run, nothing written; would do:"] + ["  " + line for line in lines]
    for rel, text in changes.items():
        with open(os.path.join(root, rel), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    _git(root, "add", "--", *sorted(changes))
    _git(root, "commit", "-q", "-m", message)
    if tag:
        _git(root, "tag", "-a", name, "-m", f"jaxlint {version}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("version", help="the new version, MAJOR.MINOR.PATCH (no leading v)")
    ap.add_argument("--dry-run", action="store_true", help="print what would be done; change nothing")
    ap.add_argument("--no-tag", action="store_true", help="commit, but make no tag")
    ap.add_argument("--date", default=datetime.date.today().isoformat(), help="the release date (default: today)")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args(argv)
    try:
        lines = release(os.path.abspath(args.root), args.version, args.date, args.dry_run, not args.no_tag)
    except Refused as e:
        print(f"release: error: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
