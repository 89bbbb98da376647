"""scripts/release.py cuts a release in a copy of the repository's release files: the version,
every pin and the CHANGELOG in one commit, an annotated tag, and one-line refusals."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil

import pytest

from clirun import ROOT, commit_all, git, init_repo

pytestmark = pytest.mark.slow  # runs git

SCRIPT = os.path.join(ROOT, "scripts", "release.py")
_spec = importlib.util.spec_from_file_location("release_script", SCRIPT)
release = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(release)

DATE = "2031-02-03"
ENTRY = "- A new option, `--frobnicate`.\n"


def _current(root) -> str:
    return re.search(r'__version__ = "([^"]+)"', (root / "jaxlint" / "versions.py").read_text()).group(1)


def _next_minor(version: str) -> str:
    major, minor, _ = (int(p) for p in version.split("."))
    return f"{major}.{minor + 1}.0"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A git repository holding this checkout's release files, with one Unreleased entry."""
    root = tmp_path / "repo"
    (root / "jaxlint").mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, "jaxlint", "versions.py"), root / "jaxlint" / "versions.py")
    for rel in release.PIN_FILES:
        shutil.copy(os.path.join(ROOT, rel), root / rel)
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    changelog = release.UNRELEASED.sub(lambda m: f"## Unreleased\n\n{ENTRY}\n", changelog, count=1)
    (root / "CHANGELOG.md").write_text(changelog, encoding="utf-8")
    init_repo(str(root))
    commit_all(str(root), "start")
    # The script's own git commands: the test identity, no user configuration.
    for k, v in {
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(root),
    }.items():
        monkeypatch.setenv(k, v)
    return root


def _run(root, *args, capsys):
    rc = release.main([*args, "--root", str(root), "--date", DATE])
    out, err = capsys.readouterr()
    return rc, out, err


def _snapshot(root):
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    head = git(["rev-parse", "HEAD"], cwd=str(root)).stdout
    tags = git(["tag"], cwd=str(root)).stdout
    return files, head, tags


def test_a_release_bumps_repins_moves_the_changelog_commits_and_tags(repo, capsys):
    old = _current(repo)
    new = _next_minor(old)
    before = {rel: (repo / rel).read_text(encoding="utf-8") for rel in release.PIN_FILES}
    rc, out, err = _run(repo, new, capsys=capsys)
    assert (rc, err) == (0, "")
    assert _current(repo) == new
    # Every pin moved, and nothing else in the files that hold them.
    for rel in ("README.md", "action.yml", ".pre-commit-hooks.yaml"):
        after = (repo / rel).read_text(encoding="utf-8")
        assert after == before[rel].replace(f"v{old}", f"v{new}"), rel
        assert set(release.pins(after)) <= {f"v{new}"}
    readme_pins = release.pins((repo / "README.md").read_text(encoding="utf-8"))
    assert len(readme_pins) == len(release.pins(before["README.md"])) >= 6
    # The Unreleased entry moved under the release, dated; an empty Unreleased stays.
    changelog = (repo / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog == before["CHANGELOG.md"].replace(
        f"## Unreleased\n\n{ENTRY}\n", f"## Unreleased\n\n## {new} - {DATE}\n\n{ENTRY}\n", 1
    )
    assert re.search(rf"^## Unreleased\n\n## {re.escape(new)} - {DATE}\n\n{re.escape(ENTRY)}\n## {re.escape(old)}\b", changelog, re.M)
    # One commit with exactly the files that changed, a clean tree, an annotated tag on it.
    subject, *names = git(["show", "--name-only", "--format=%s", "HEAD"], cwd=str(repo)).stdout.decode().split("\n")
    assert subject == f"Release {new}: version, install pins and CHANGELOG (from {old})"
    pinned = [rel for rel in release.PIN_FILES if release.pins(before[rel])]
    assert "README.md" in pinned
    assert sorted(filter(None, names)) == sorted({"jaxlint/versions.py", "CHANGELOG.md", *pinned})
    assert git(["status", "--porcelain"], cwd=str(repo)).stdout == b""
    assert git(["cat-file", "-t", f"v{new}"], cwd=str(repo)).stdout == b"tag\n"
    assert git(["rev-parse", f"v{new}^{{commit}}"], cwd=str(repo)).stdout == git(["rev-parse", "HEAD"], cwd=str(repo)).stdout
    assert out.splitlines()[-1] == f"tag: v{new} (annotated)"


def test_no_tag_commits_and_says_how_to_tag(repo, capsys):
    new = _next_minor(_current(repo))
    start = git(["rev-parse", "HEAD"], cwd=str(repo)).stdout
    rc, out, err = _run(repo, new, "--no-tag", capsys=capsys)
    assert (rc, err) == (0, "")
    assert _current(repo) == new
    assert git(["rev-parse", "HEAD~1"], cwd=str(repo)).stdout == start
    assert git(["tag"], cwd=str(repo)).stdout == b""
    assert out.splitlines()[-1] == f"no tag; make it on the released commit: git tag -a v{new} -m 'jaxlint {new}'"


def test_dry_run_prints_the_plan_and_changes_nothing(repo, capsys):
    old = _current(repo)
    new = _next_minor(old)
    before = _snapshot(repo)
    rc, out, err = _run(repo, new, "--dry-run", capsys=capsys)
    assert (rc, err) == (0, "")
    assert _snapshot(repo) == before
    lines = out.splitlines()
    assert lines[0] == "dry run, nothing written; would do:"
    assert lines[1] == f"  jaxlint/versions.py: __version__ {old} -> {new}"
    assert re.fullmatch(rf"  README\.md: \d+ pin\(s\) -> v{re.escape(new)}", lines[2])
    assert f"  CHANGELOG.md: 1 line(s) of Unreleased -> '## {new} - {DATE}'" in lines
    assert lines[-1] == f"  tag: v{new} (annotated)"


def _refused(repo, capsys, *args):
    before = _snapshot(repo)
    rc, out, err = _run(repo, *args, capsys=capsys)
    assert _snapshot(repo) == before
    assert (rc, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("release: error: ")
    return err.strip()


def test_a_dirty_tree_is_refused(repo, capsys):
    with open(repo / "README.md", "a", encoding="utf-8") as fh:
        fh.write("\nmore\n")
    err = _refused(repo, capsys, _next_minor(_current(repo)))
    assert err == "release: error: the working tree has uncommitted changes (README.md); commit or stash them first"
    (repo / "README.md").write_text("x")
    (repo / "new.txt").write_text("x")
    assert "(README.md, ...)" in _refused(repo, capsys, _next_minor(_current(repo)))


def test_a_version_not_greater_is_refused(repo, capsys):
    old = _current(repo)
    major, minor, patch = (int(p) for p in old.split("."))
    for version in (old, f"{major}.{minor}.{patch - 1}" if patch else f"{major}.{minor - 1}.9", "0.0.1"):
        err = _refused(repo, capsys, version)
        assert err == f"release: error: version {version} is not greater than the current version {old}"
    assert _refused(repo, capsys, f"v{_next_minor(old)}").endswith("is not a release number (MAJOR.MINOR.PATCH)")


def test_an_existing_tag_is_refused(repo, capsys):
    new = _next_minor(_current(repo))
    git(["tag", f"v{new}"], cwd=str(repo))
    for extra in ((), ("--no-tag",), ("--dry-run",)):
        assert _refused(repo, capsys, new, *extra) == f"release: error: tag v{new} exists already"


def test_an_empty_unreleased_section_is_refused(repo, capsys):
    changelog = (repo / "CHANGELOG.md").read_text(encoding="utf-8")
    (repo / "CHANGELOG.md").write_text(changelog.replace(ENTRY + "\n", "", 1), encoding="utf-8")
    commit_all(str(repo), "nothing new")
    assert _refused(repo, capsys, _next_minor(_current(repo))) == (
        "release: error: CHANGELOG.md's Unreleased section is empty: nothing to release"
    )
