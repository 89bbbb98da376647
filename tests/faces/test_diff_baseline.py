"""``--diff REV`` and ``--baseline`` / ``--write-baseline``, on real temporary git repositories."""

from __future__ import annotations

import json
import os

import pytest

from clirun import commit_all, git, init_repo, jaxlint

IF_FN = """\
@jax.jit
def relu_{n}(x):
    if x > 0:
        return x
    return 0.0 * x
"""

RANGE_FN = """\
@jax.jit
def power_{n}(x, n):
    for _ in range(n):
        x = x * 2
    return x
"""

WHILE_FN = """\
@jax.jit
def count_{n}(x):
    while x > 0:
        x = x - 1
    return x
"""


# IF_FN's finding is JAX101's, a rule in preview: every run here is made with --preview.


def module(*parts: str) -> str:
    return "import jax\n\n\n" + "\n\n".join(parts)


def put(root, rel: str, text: str) -> None:
    path = os.path.join(str(root), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def found(p):
    assert p.returncode in (0, 1), p.stderr.decode()
    return [(f["path"], f["line"], f["code"]) for f in json.loads(p.stdout.decode("utf-8"))]


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    init_repo(str(root))
    put(root, "kept.py", module(IF_FN.format(n=1)))
    put(root, "to_rename.py", module(IF_FN.format(n=2)))
    put(root, "shrinks.py", module(IF_FN.format(n=3), WHILE_FN.format(n=3)))
    put(root, "goes_away.py", module(IF_FN.format(n=4)))
    put(root, "tweaked.py", module(IF_FN.format(n=5), IF_FN.format(n=6)))
    put(root, "notes.md", "if x > 0\n")
    commit_all(str(root), "base")
    git(["checkout", "-q", "-b", "feature"], cwd=str(root))
    return root


def test_diff_reports_only_added_or_modified_lines(repo):
    r = str(repo)
    # Committed on the branch: a new function appended to kept.py (lines 11-15).
    put(r, "kept.py", module(IF_FN.format(n=1), RANGE_FN.format(n=1)))
    # A rename without edits, a deletion, a file that only loses lines.
    git(["mv", "to_rename.py", "renamed.py"], cwd=r)
    git(["rm", "-q", "goes_away.py"], cwd=r)
    put(r, "shrinks.py", module(IF_FN.format(n=3)))
    commit_all(r, "feature work")
    # Staged, not committed: a new file.
    put(r, "staged_new.py", module(WHILE_FN.format(n=7)))
    git(["add", "staged_new.py"], cwd=r)
    # Unstaged: one existing line of tweaked.py modified (relu_6's condition), and a new untracked
    # file in a folder whose name has a space and a non-ASCII letter.
    src = open(os.path.join(r, "tweaked.py"), encoding="utf-8").read()
    lines = src.splitlines(keepends=True)
    assert lines[12] == "    if x > 0:\n"
    lines[12] = "    if x > 1:\n"
    put(r, "tweaked.py", "".join(lines))
    put(r, "sub dir/neü.py", module(IF_FN.format(n=8)))
    put(r, "notes.md", "if x > 1\n")

    p = jaxlint(["--preview", "--diff", "main", "--format", "json"], cwd=r)
    assert p.returncode == 1
    assert found(p) == [
        ("kept.py", 13, "JAX103"),
        ("staged_new.py", 6, "JAX102"),
        ("sub dir/neü.py", 6, "JAX101"),
        ("tweaked.py", 13, "JAX101"),
    ]
    # Without --diff, everything is reported: the filter did the work.
    assert found(jaxlint(["--preview", "--format", "json", "."], cwd=r)) == [
        ("kept.py", 6, "JAX101"),
        ("kept.py", 13, "JAX103"),
        ("renamed.py", 6, "JAX101"),
        ("shrinks.py", 6, "JAX101"),
        ("staged_new.py", 6, "JAX102"),
        ("sub dir/neü.py", 6, "JAX101"),
        ("tweaked.py", 6, "JAX101"),
        ("tweaked.py", 13, "JAX101"),
    ]
    # Paths narrow the diff further.
    assert found(jaxlint(["--preview", "--diff", "main", "--format", "json", "sub dir"], cwd=r)) == [("sub dir/neü.py", 6, "JAX101")]
    assert found(jaxlint(["--preview", "--diff", "main", "--format", "json", "tweaked.py", "kept.py"], cwd=r)) == [
        ("kept.py", 13, "JAX103"),
        ("tweaked.py", 13, "JAX101"),
    ]
    # Run from a subfolder: the diff still covers the whole repository; files outside the working
    # folder are shown with absolute paths, as without --diff.
    real = os.path.realpath(r)
    assert found(jaxlint(["--preview", "--diff", "main", "--format", "json"], cwd=os.path.join(r, "sub dir"))) == [
        (f"{real}/kept.py", 13, "JAX103"),
        (f"{real}/staged_new.py", 6, "JAX102"),
        (f"{real}/tweaked.py", 13, "JAX101"),
        ("neü.py", 6, "JAX101"),
    ]
    p = jaxlint(["--preview", "--diff", "main", "--format", "json", "."], cwd=os.path.join(r, "sub dir"))
    assert found(p) == [("neü.py", 6, "JAX101")]


def test_rename_without_edits_reports_nothing(repo):
    r = str(repo)
    git(["mv", "to_rename.py", "renamed.py"], cwd=r)
    git(["mv", "kept.py", "pkg_kept.py"], cwd=r)
    commit_all(r, "renames")
    p = jaxlint(["--preview", "--diff", "main"], cwd=r)
    assert p.returncode == 0, p.stdout.decode()
    assert p.stdout == b""
    assert p.stderr.decode() == "All checks passed (0 files checked).\n"


def test_diff_uses_the_merge_base_not_the_tip(repo):
    r = str(repo)
    # main moves on after the branch point: it drops relu_5 from tweaked.py.
    git(["checkout", "-q", "main"], cwd=r)
    put(r, "tweaked.py", module(IF_FN.format(n=6)))
    commit_all(r, "main moves on")
    git(["checkout", "-q", "feature"], cwd=r)
    put(r, "kept.py", module(IF_FN.format(n=1), RANGE_FN.format(n=1)))
    commit_all(r, "feature work")
    # Against main's tip, feature's tweaked.py would look like it re-added relu_5.
    assert found(jaxlint(["--preview", "--diff", "main", "--format", "json"], cwd=r)) == [("kept.py", 13, "JAX103")]


def test_diff_against_head_covers_uncommitted_edits_only(repo):
    r = str(repo)
    put(r, "kept.py", module(IF_FN.format(n=1), WHILE_FN.format(n=2)))
    assert found(jaxlint(["--preview", "--diff", "HEAD", "--format", "json"], cwd=r)) == [("kept.py", 13, "JAX102")]


def test_syntax_error_in_a_changed_file_is_reported_wherever_it_is(repo):
    r = str(repo)
    put(r, "kept.py", "def broken(:\n" + module(IF_FN.format(n=1)))
    p = jaxlint(["--preview", "--diff", "main", "--format", "json"], cwd=r)
    assert [(path, code) for path, _, code in found(p)] == [("kept.py", "JAX001")]


def test_diff_outside_git_exits_2(tmp_path):
    put(tmp_path, "m.py", module(IF_FN.format(n=1)))
    p = jaxlint(["--preview", "--diff", "main", "m.py"], cwd=str(tmp_path))
    assert p.returncode == 2
    assert p.stdout == b""
    assert p.stderr.decode() == "jaxlint: error: --diff needs a git repository, and this folder is not inside one\n"


def test_diff_unknown_revision_exits_2(repo):
    p = jaxlint(["--preview", "--diff", "no-such-branch"], cwd=str(repo))
    assert p.returncode == 2
    assert p.stderr.decode() == "jaxlint: error: unknown git revision 'no-such-branch'\n"
    p = jaxlint(["--preview", "--diff=--output=x"], cwd=str(repo))
    assert p.returncode == 2
    assert p.stderr.decode() == "jaxlint: error: invalid revision '--output=x'\n"
    assert not os.path.exists(os.path.join(str(repo), "x"))


def test_diff_with_a_missing_path_exits_2(repo):
    p = jaxlint(["--preview", "--diff", "main", "nope/"], cwd=str(repo))
    assert (p.returncode, p.stderr.decode()) == (2, "jaxlint: error: nope/: no such file or directory\n")


def test_diff_without_commits_exits_2(tmp_path):
    init_repo(str(tmp_path / "empty"))
    p = jaxlint(["--preview", "--diff", "main"], cwd=str(tmp_path / "empty"))
    assert p.returncode == 2
    assert "HEAD does not exist yet" in p.stderr.decode()


# --- baseline -------------------------------------------------------------------------------------


def test_baseline_round_trip_survives_moved_lines(repo):
    r = str(repo)
    p = jaxlint(["--preview", "--write-baseline", "jaxlint-baseline.json", "."], cwd=r)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == b""
    assert p.stderr.decode() == (
        "jaxlint: wrote 7 findings to baseline jaxlint-baseline.json\nAll checks passed (5 files checked).\n"
    )
    data = json.loads(open(os.path.join(r, "jaxlint-baseline.json"), encoding="utf-8").read())
    assert data["jaxlint-baseline"] == 1 and data["fingerprint"] == "v1"
    assert [(e["path"], e["code"]) for e in data["findings"]] == [
        ("goes_away.py", "JAX101"),
        ("kept.py", "JAX101"),
        ("shrinks.py", "JAX101"),
        ("shrinks.py", "JAX102"),
        ("to_rename.py", "JAX101"),
        ("tweaked.py", "JAX101"),
        ("tweaked.py", "JAX101"),
    ]

    p = jaxlint(["--preview", "--baseline", "jaxlint-baseline.json", "."], cwd=r)
    assert (p.returncode, p.stdout) == (0, b"")

    # Unrelated edits move every finding of kept.py and tweaked.py down; nothing new appears.
    put(r, "kept.py", "import os\n\nLIMIT = 3\n\n\n" + module(IF_FN.format(n=1)))
    put(r, "tweaked.py", "# a comment\n" + module(IF_FN.format(n=5), "X = 1\n\n", IF_FN.format(n=6)))
    p = jaxlint(["--preview", "--baseline", "jaxlint-baseline.json", "--format", "json", "."], cwd=r)
    assert (p.returncode, found(p)) == (0, [])

    # A new finding is reported, and only it.
    put(r, "kept.py", "import os\n\nLIMIT = 3\n\n\n" + module(IF_FN.format(n=1), WHILE_FN.format(n=9)))
    p = jaxlint(["--preview", "--baseline", "jaxlint-baseline.json", "--format", "json", "."], cwd=r)
    assert (p.returncode, found(p)) == (1, [("kept.py", 18, "JAX102")])

    # A second copy of an already-known line is a new finding too (occurrence index).
    put(r, "goes_away.py", module(IF_FN.format(n=4), IF_FN.format(n=4).replace("relu_4", "relu_4b")))
    p = jaxlint(["--preview", "--baseline", "jaxlint-baseline.json", "--format", "json", "goes_away.py"], cwd=r)
    assert (p.returncode, found(p)) == (1, [("goes_away.py", 13, "JAX101")])

    # Run from a subfolder, the repository-relative fingerprints still match.
    os.makedirs(os.path.join(r, "sub"))
    p = jaxlint(["--preview", "--baseline", "../jaxlint-baseline.json", "--format", "json", "../tweaked.py"], cwd=os.path.join(r, "sub"))
    assert (p.returncode, found(p)) == (0, [])


def test_baseline_fingerprints_are_sarifs(repo):
    r = str(repo)
    jaxlint(["--preview", "--write-baseline", "b.json", "kept.py", "tweaked.py"], cwd=r)
    recorded = sorted(e["fingerprint"] for e in json.load(open(os.path.join(r, "b.json")))["findings"])
    sarif = json.loads(jaxlint(["--preview", "--format", "sarif", "kept.py", "tweaked.py"], cwd=r).stdout)
    assert recorded == sorted(x["partialFingerprints"]["jaxlint/v1"] for x in sarif["runs"][0]["results"])


def test_baseline_errors_exit_2(repo):
    r = str(repo)
    p = jaxlint(["--preview", "--baseline", "missing.json", "."], cwd=r)
    assert p.returncode == 2
    assert p.stderr.decode() == (
        "jaxlint: error: baseline file not found: missing.json (create it with --write-baseline)\n"
    )
    put(r, "bad.json", "{not json")
    p = jaxlint(["--preview", "--baseline", "bad.json", "."], cwd=r)
    assert p.returncode == 2
    assert p.stderr.decode().startswith("jaxlint: error: cannot read baseline bad.json: ")
    put(r, "other.json", '{"findings": []}')
    p = jaxlint(["--preview", "--baseline", "other.json", "."], cwd=r)
    assert (p.returncode, p.stderr.decode()) == (2, "jaxlint: error: other.json is not a jaxlint baseline file\n")


def test_baseline_and_diff_combine(repo):
    r = str(repo)
    jaxlint(["--preview", "--write-baseline", "b.json", "."], cwd=r)
    put(r, "kept.py", module(IF_FN.format(n=1), RANGE_FN.format(n=1)))
    put(r, "new.py", module(WHILE_FN.format(n=1)))
    p = jaxlint(["--preview", "--diff", "main", "--baseline", "b.json", "--format", "json"], cwd=r)
    assert found(p) == [("kept.py", 13, "JAX103"), ("new.py", 6, "JAX102")]


def test_scope_for_takes_the_revision_and_the_paths(repo, monkeypatch):
    from jaxlint.review.diffmode import scope_for

    r = str(repo)
    assert scope_for(None, [r]) is None
    put(r, "kept.py", module(IF_FN.format(n=1), RANGE_FN.format(n=1)))
    put(r, "new.py", module(WHILE_FN.format(n=1)))
    monkeypatch.chdir(r)
    scope = scope_for("main", ["-", "."])
    assert scope.files() == ["kept.py", "new.py"]
    assert scope.changed[os.path.realpath("kept.py")] == set(range(9, 16))
    assert scope.changed[os.path.realpath("new.py")] is None


def test_baseline_apply_takes_the_two_file_names(repo, capsys):
    import io

    from jaxlint.findings import Finding
    from jaxlint.review import baseline

    r = str(repo)
    path = os.path.join(r, "kept.py")
    first = Finding(path, 6, 8, 6, 13, "JAX101", "traced-if", "`x` is traced")
    second = Finding(path, 7, 16, 7, 17, "JAX101", "traced-if", "`x` is traced too")
    written = os.path.join(r, "b.json")
    log = io.StringIO()
    assert baseline.apply([first], write_path=written, log=log) == []
    assert log.getvalue() == f"jaxlint: wrote 1 finding to baseline {written}\n"
    assert baseline.apply([first, second], baseline_path=written) == [second]
    assert baseline.apply([first, second]) == [first, second]
    assert capsys.readouterr().err == ""
