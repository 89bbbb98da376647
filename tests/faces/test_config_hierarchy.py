"""Hierarchical configuration and discovery: each file uses the closest configuration above it,
globs are relative to the file that defines them, and neither the working folder nor the order
of the paths changes a result."""

import json
import os
import textwrap

import pytest

from clirun import commit_all, init_repo, jaxlint

BUGGY = textwrap.dedent(
    """\
    import jax

    @jax.jit
    def f(x, n):
        while x > 0:
            x = x + 1
        for _ in range(n):
            x = x * 2
        print("x", x)
        return x
    """
)

TREE = {
    "pyproject.toml": '[tool.jaxlint]\nignore = ["JAX302"]\nextend-exclude = ["gen/*"]\n\n[tool.jaxlint.per-file-ignores]\n"tests/*" = ["JAX103"]\n',
    "a.py": BUGGY,
    "tests/t.py": BUGGY,
    "gen/g.py": BUGGY,
    # A pyproject.toml without [tool.jaxlint] does not hide the root configuration.
    "sub/pyproject.toml": '[project]\nname = "sub"\n',
    "sub/s.py": BUGGY,
    # jaxlint.toml wins over the pyproject.toml beside it; its globs are relative to pkg/.
    "pkg/pyproject.toml": '[tool.jaxlint]\nselect = ["JAX3"]\n',
    "pkg/jaxlint.toml": 'select = ["JAX1"]\n\n[per-file-ignores]\n"inner/*" = ["JAX102"]\n',
    "pkg/p.py": BUGGY,
    "pkg/inner/q.py": BUGGY,
    # Real packages named like build folders are linted; tool folders are not.
    "rlpkg/env/cartpole.py": BUGGY,
    "build/b.py": BUGGY,
    ".venv/lib/x.py": BUGGY,
    "node_modules/m.py": BUGGY,
    # What git ignores is not linted.
    ".gitignore": "scratch/\n",
    "scratch/tmp.py": BUGGY,
}

EXPECTED = {
    ("a.py", 5, "JAX102"),
    ("a.py", 7, "JAX103"),
    ("tests/t.py", 5, "JAX102"),
    ("sub/s.py", 5, "JAX102"),
    ("sub/s.py", 7, "JAX103"),
    ("pkg/p.py", 5, "JAX102"),
    ("pkg/p.py", 7, "JAX103"),
    ("pkg/inner/q.py", 7, "JAX103"),
    ("rlpkg/env/cartpole.py", 5, "JAX102"),
    ("rlpkg/env/cartpole.py", 7, "JAX103"),
    ("build/b.py", 5, "JAX102"),
    ("build/b.py", 7, "JAX103"),
}


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    for name, text in TREE.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    init_repo(str(root))
    commit_all(str(root))
    return root


def findings(cwd, args):
    p = jaxlint(["--no-cache", "--format", "json", *args], cwd=str(cwd))
    assert p.returncode in (0, 1), p.stderr.decode()
    out = json.loads(p.stdout)
    return p, out


def normalised(root, cwd, out):
    real_root = os.path.realpath(root)
    return {
        (os.path.relpath(os.path.realpath(os.path.join(str(cwd), f["path"])), real_root).replace(os.sep, "/"), f["line"], f["code"])
        for f in out
    }


PATHS = ["pkg", "a.py", "tests", "sub", "rlpkg", "build", "gen", ".venv", "node_modules", "scratch"]


@pytest.mark.parametrize("where", ["root", "subfolder", "outside"])
@pytest.mark.parametrize("order", ["forward", "reversed"])
def test_same_findings_from_every_folder_and_path_order(repo, where, order):
    cwd, prefix = {"root": (repo, ""), "subfolder": (repo / "pkg" / "inner", "../../"), "outside": (repo.parent, "repo/")}[where]
    paths = [prefix + p for p in (PATHS if order == "forward" else PATHS[::-1])]
    # Folders named on the command line are walked with the exclusions of their configuration;
    # gen/, .venv/, node_modules/ and scratch/ hold no file to lint, which is said.
    p, out = findings(cwd, paths)
    assert normalised(repo, cwd, out) == EXPECTED
    err = p.stderr.decode()
    for skipped in ("gen", ".venv", "node_modules", "scratch"):
        assert f"{prefix}{skipped}: no Python files to lint" in err


@pytest.mark.parametrize("where", ["root", "subfolder", "outside"])
def test_whole_tree_from_every_folder(repo, where):
    cwd, target = {"root": (repo, "."), "subfolder": (repo / "pkg" / "inner", "../.."), "outside": (repo.parent, "repo")}[where]
    _, out = findings(cwd, [target])
    assert normalised(repo, cwd, out) == EXPECTED


def test_pre_commit_style_run_agrees_with_the_whole_tree(repo):
    # pre-commit passes every staged file by name, from the repository root, with the hook's
    # --force-exclude: excluded files named explicitly stay excluded.
    tracked = sorted(n for n in TREE if n.endswith(".py") and not n.startswith("scratch/"))
    _, out = findings(repo, ["--force-exclude", *tracked])
    assert normalised(repo, repo, out) == EXPECTED
    # Without --force-exclude an explicit file is linted, as in ruff.
    _, out = findings(repo, ["gen/g.py"])
    assert normalised(repo, repo, out) == {("gen/g.py", 5, "JAX102"), ("gen/g.py", 7, "JAX103")}


def test_no_respect_gitignore(repo):
    _, out = findings(repo, ["--no-respect-gitignore", "scratch"])
    assert normalised(repo, repo, out) == {("scratch/tmp.py", 5, "JAX102"), ("scratch/tmp.py", 7, "JAX103")}


@pytest.mark.parametrize("where", ["root", "outside"])
def test_stdin_filename_takes_the_configuration_of_the_named_path(repo, where):
    cwd, prefix = (repo, "") if where == "root" else (repo.parent, "repo/")
    p = jaxlint(["--no-cache", "--stdin-filename", prefix + "pkg/inner/q.py", "-"], cwd=str(cwd), stdin=BUGGY.encode())
    assert [line.split()[1] for line in p.stdout.decode().splitlines()] == ["JAX103"]


def test_stdin_filename_with_paths_lints_stdin_and_says_the_paths_are_ignored(repo):
    p = jaxlint(["--no-cache", "--stdin-filename", "x.py", "a.py"], cwd=str(repo), stdin=b"import jax\n")
    assert p.returncode == 0
    assert "the paths given are ignored" in p.stderr.decode()
    assert "1 file checked" in p.stderr.decode()


def test_explicit_config_and_isolated(repo):
    (repo / "strict.toml").write_text('select = ["JAX302"]\n')
    _, out = findings(repo, ["--config", "strict.toml", "a.py", "pkg/p.py"])
    assert normalised(repo, repo, out) == {("a.py", 9, "JAX302"), ("pkg/p.py", 9, "JAX302")}
    _, out = findings(repo, ["--isolated", "tests/t.py"])
    assert {c for _, _, c in normalised(repo, repo, out)} == {"JAX102", "JAX103", "JAX302"}


def test_baseline_is_relative_to_the_repository_of_each_file(repo):
    p = jaxlint(["--no-cache", "--write-baseline", "base.json", "."], cwd=str(repo))
    assert p.returncode == 0, p.stderr.decode()
    for cwd, target in ((repo.parent, "repo"), (repo / "pkg", "..")):
        p = jaxlint(["--no-cache", "--baseline", str(repo / "base.json"), target], cwd=str(cwd))
        assert p.returncode == 0, p.stdout.decode()
        assert p.stdout == b""


def test_show_settings_and_show_files(repo):
    p = jaxlint(["--show-settings", "pkg/inner/q.py"], cwd=str(repo))
    assert p.returncode == 0
    text = p.stdout.decode()
    assert "pkg/jaxlint.toml" in text and "'inner/*'" in text and "JAX102" in text
    p = jaxlint(["--show-files", "."], cwd=str(repo))
    assert p.returncode == 0
    assert sorted(p.stdout.decode().split()) == sorted({path for path, _, _ in EXPECTED})


def test_folder_symlink_out_of_the_tree_is_not_followed(repo, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "o.py").write_text(BUGGY)
    os.symlink(str(outside), str(repo / "rlpkg" / "link"))
    (repo / "rlpkg" / "inner").mkdir()
    os.symlink(str(repo / "build"), str(repo / "rlpkg" / "inner" / "to_build"))
    _, out = findings(repo, ["--no-respect-gitignore", "rlpkg"])
    paths = {path for path, _, _ in normalised(repo, repo, out)}
    assert paths == {"rlpkg/env/cartpole.py"}  # the link to build/ leaves rlpkg/: not followed either


def test_unreadable_folder_is_reported(repo, monkeypatch):
    # chmod cannot lock root out, so the refusal is what os.scandir would raise.
    from jaxlint.config import Resolver
    from jaxlint.rules import RULES_BY_CODE
    from jaxlint.engine.discovery import discover

    locked = repo / "rlpkg" / "locked"
    locked.mkdir()
    (locked / "x.py").write_text(BUGGY)
    real_scandir = os.scandir

    def scandir(path="."):
        if os.path.abspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(repo)
    found = discover(["rlpkg"], Resolver(rules=RULES_BY_CODE).for_path, respect_gitignore=False)
    assert found.files == [os.path.join("rlpkg", "env", "cartpole.py")]
    assert found.errors == ["rlpkg/locked: cannot read folder: Permission denied"]


def test_a_walk_takes_each_folders_configuration_files_from_its_listing(repo, monkeypatch):
    # A folder the walk lists is known to be a folder, and its listing names the configuration
    # files it holds: its settings cost no ``stat`` per configuration name (on a network
    # filesystem each is a round trip).  Only configuration files that exist are read; every
    # file gets the settings a resolver asked path by path gives it.
    from jaxlint.config import CONFIG_FILES, Resolver
    from jaxlint.rules import RULES_BY_CODE
    from jaxlint.engine.discovery import discover

    monkeypatch.chdir(repo)
    asked = []
    real_isfile, real_isdir = os.path.isfile, os.path.isdir
    monkeypatch.setattr(os.path, "isfile", lambda p: asked.append(p) or real_isfile(p))
    monkeypatch.setattr(os.path, "isdir", lambda p: asked.append(p) or real_isdir(p))
    resolver = Resolver(rules=RULES_BY_CODE)
    found = discover(["."], resolver.for_path, respect_gitignore=False)
    resolver.note_files(found.files)  # as the command line does
    settings = {f: resolver.for_path(f) for f in found.files}
    monkeypatch.setattr(os.path, "isfile", real_isfile)
    monkeypatch.setattr(os.path, "isdir", real_isdir)
    below = sorted(os.path.relpath(p, repo) for p in asked if os.path.abspath(p).startswith(str(repo) + os.sep))
    assert below == ["pkg/jaxlint.toml", "pyproject.toml", "sub/pyproject.toml"]
    assert all(os.path.basename(p) in CONFIG_FILES for p in below)
    assert "pkg/inner/q.py" in {os.path.relpath(f).replace(os.sep, "/") for f in found.files}
    fresh = Resolver(rules=RULES_BY_CODE)
    assert settings == {f: fresh.for_path(f) for f in found.files}


def test_a_walk_knows_which_folders_hold_a_git_folder_from_their_listings(repo, monkeypatch):
    # Which repository a folder belongs to (for what git ignores) is the nearest folder above
    # it holding a .git: for the folders it listed the walk knows without a ``stat`` each.
    from jaxlint.config import Resolver
    from jaxlint.rules import RULES_BY_CODE
    from jaxlint.engine.discovery import discover

    monkeypatch.chdir(repo)
    asked = []
    real_exists = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: asked.append(p) or real_exists(p))
    found = discover(["."], Resolver(rules=RULES_BY_CODE).for_path, respect_gitignore=True)
    monkeypatch.setattr(os.path, "exists", real_exists)
    assert not [p for p in asked if os.path.basename(p) == ".git" and os.path.abspath(p).startswith(str(repo))]
    shown = {os.path.relpath(f).replace(os.sep, "/") for f in found.files}
    assert "pkg/inner/q.py" in shown and "scratch/tmp.py" not in shown  # .gitignore still applies


def test_force_exclude_asks_git_about_the_named_files(repo):
    # What git ignores among files named with --force-exclude (what pre-commit passes), asked of
    # git for those files only: an ignored untracked file is skipped; a tracked file that matches
    # an ignore pattern, and an untracked file that matches none, are linted.  Names are literal,
    # not patterns: "w*.py" is not "wide.py".
    (repo / "scratch" / "new.py").write_text(TREE["a.py"])
    (repo / "w*.py").write_text(TREE["a.py"])
    (repo / "wide.py").write_text(TREE["a.py"])
    (repo / ".gitignore").write_text("scratch/\nwide.py\n")
    (repo / "kept.py").write_text(TREE["a.py"])
    from clirun import git
    from jaxlint.config import Resolver
    from jaxlint.rules import RULES_BY_CODE
    from jaxlint.engine.discovery import discover

    git(["add", "-f", "kept.py"], cwd=str(repo))
    (repo / ".gitignore").write_text("scratch/\nwide.py\nkept.py\n")
    named = ["scratch/new.py", "w*.py", "wide.py", "kept.py", "a.py"]
    found = discover([str(repo / n) for n in named], Resolver(rules=RULES_BY_CODE).for_path, force_exclude=True)
    assert sorted(os.path.relpath(f, repo) for f in found.files) == ["a.py", "kept.py", "w*.py"]
    found = discover([str(repo / n) for n in named], Resolver(rules=RULES_BY_CODE).for_path, force_exclude=False)
    assert len(found.files) == len(named)


def test_the_exclusion_test_made_once_per_pattern_list_answers_as_each_pattern_does():
    from jaxlint.config import DEFAULT_EXCLUDE, _exclusion_tests, _match

    patterns = DEFAULT_EXCLUDE + ("third_party/", "./gen/protos", "*_pb2.py", "docs/*.py", "a?c", "[x]y", "build/lib")
    paths = [
        "m.py", "venv", "src/venv/lib.py", "third_party", "third_party/x.py", "a/third_party/x.py",
        "gen/protos/a.py", "gen/protosx/a.py", "pkg/m_pb2.py", "docs/conf.py", "docs/sub/conf.py",
        "abc/m.py", "x/abc", "xy/m.py", "build/lib/m.py", "build/libx.py", "node_modules", ".git/config",
    ]
    relative, anchored = _exclusion_tests(patterns)
    assert anchored is None
    for rel in paths:
        assert relative(rel) == any(_match(rel, p) for p in patterns), rel
    # Either answer occurs, so the comparison above can fail.
    assert {relative(rel) for rel in paths} == {True, False}


SLICED = textwrap.dedent(
    """\
    import functools
    import jax

    @functools.partial(jax.jit, static_argnums=1)
    def head(x, s):
        return x[s]

    head(jax.numpy.ones(4), slice(0, 2))
    """
)


@pytest.mark.parametrize("requires, found", [(">=3.12", []), (">=3.10,<4", [(8, "JAX202")]), (None, [(8, "JAX202")])])
def test_requires_python_decides_whether_a_slice_hashes(tmp_path, requires, found):
    # Python 3.12 made slices hashable: a slice is a fine static argument only where the
    # configuring pyproject.toml asks for 3.12 or newer.
    project = f'[project]\nname = "p"\nrequires-python = "{requires}"\n\n' if requires else ""
    (tmp_path / "pyproject.toml").write_text(project + "[tool.jaxlint]\npreview = true\n")
    (tmp_path / "m.py").write_text(SLICED)
    _, out = findings(tmp_path, ["m.py"])
    assert [(f["line"], f["code"]) for f in out] == found
