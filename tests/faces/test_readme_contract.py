"""What the README promises about installing and using jaxlint holds: every install line
installs this project, pinned revisions exist, every option and setting is documented, and
the figures are measurements."""

from __future__ import annotations

import os
import re

import pytest

from clirun import ROOT
from jaxlint.cli import build_parser
from jaxlint.config import KNOWN_KEYS
from jaxlint.rules import RULES_BY_CODE

with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
    README = fh.read()

# `pip install jaxlint`, `pip install -U 'jaxlint[dynamic]'`: the index's jaxlint, another project.
BARE_INSTALL = re.compile(r"pip3? install(?:\s+-\S+)*[^\n|&;]*?(?<![\w/.@+-])['\"]?jaxlint(?:\[[^\]]*\])?['\"]?(?=\s|$)(?!\s*@)")
REPO_PIN = re.compile(r"git\+https://github\.com/jaxlint/jaxlint@([0-9A-Za-z._/-]+)")


def test_the_bare_install_pattern_is_not_vacuous():
    for bad in ("pip install jaxlint", "pip install jaxlint flake8", "python -m pip install -U 'jaxlint[dynamic]'"):
        assert BARE_INSTALL.search(bad), bad
    for good in ("python -m pip install .", 'pip install "git+https://github.com/jaxlint/jaxlint@abc"', "pip install flake8"):
        assert not BARE_INSTALL.search(good), good


def test_no_install_line_installs_the_index_project():
    assert not BARE_INSTALL.findall(README)
    from jaxlint import dynamic

    assert not BARE_INSTALL.search(dynamic.INSTALL_HINT)
    assert not BARE_INSTALL.search(build_parser().format_help())


def _pins():
    pins = REPO_PIN.findall(README)
    pins += re.findall(r"^\s*rev:\s*(\S+)", README, re.M)
    return pins


def test_pinned_revisions_are_one_release():
    from jaxlint.versions import __version__

    pins = _pins()
    assert len(pins) >= 4  # install, flake8, GitHub Actions, GitLab, pre-commit
    # The release that has every documented feature (tests/slow/test_release_pins.py checks the rest).
    assert set(pins) == {f"v{__version__}"}, set(pins)
    assert "replace it everywhere at once" in README  # how to upgrade


def _long_options():
    out = []
    for action in build_parser()._actions:
        out.extend(s for s in action.option_strings if s.startswith("--"))
    return out


@pytest.mark.parametrize("option", _long_options())
def test_every_option_is_in_the_readme(option):
    assert re.search(re.escape(option) + r"(?![\w-])", README), option


@pytest.mark.parametrize("key", KNOWN_KEYS)
def test_every_setting_is_in_the_readme(key):
    assert re.search(r"^" + re.escape(key) + r" = |\[tool\.jaxlint\." + re.escape(key) + r"\]", README, re.M), key


def test_readme_mentions_only_real_codes_and_no_targets():
    for code in set(re.findall(r"\bJAX\d{3}\b", README)):
        assert code in RULES_BY_CODE, code
    assert "not met" not in README and "| target |" not in README
    assert "`-` reads standard input" in README


def _usage_block() -> str:
    start = README.index("## Usage\n")
    return README[start : README.index("\n```\n", README.index("```\n", start) + 4)]


@pytest.mark.parametrize("option", _long_options())
def test_every_option_is_in_the_usage_block(option):
    assert re.search(re.escape(option) + r"(?![\w-])", _usage_block()), option


def _fix_table():
    """{code: tiers} of the README's fix table (a row may name several codes)."""
    start = README.index("| code | fix | tier |")
    rows = {}
    for line in README[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        for code in re.findall(r"JAX\d{3}", cells[0]):
            rows[code] = set(cells[-1].split(" / "))
    return rows


def test_the_fix_table_lists_every_rule_that_has_a_fix():
    from jaxlint.rules import ALL_RULES

    with_fix = {r.code: r.fix_safety for r in ALL_RULES if r.fix_safety}
    table = _fix_table()
    assert sorted(table) == sorted(with_fix)
    for code, tier in with_fix.items():
        assert tier in table[code], code  # the rule's own tier is among those the row names


def test_the_fix_table_reader_is_not_vacuous():
    assert {"JAX302", "JAX101", "JAX601", "JAX602"} <= set(_fix_table())
    assert _fix_table()["JAX107"] == {"safe", "unsafe"}


def test_the_flake8_section_says_first_what_the_plugin_cannot_see():
    section = README[README.index("### flake8 (and editors that run it)") :]
    first_sentence = section.split("\n\n", 1)[1].split(". ")[0]
    assert "cross-module findings" in first_sentence


def test_the_language_server_hint_installs_from_the_clone(monkeypatch, capsys):
    import sys

    from jaxlint import cli

    monkeypatch.setitem(sys.modules, "jaxlint.server", None)  # as if pygls were not installed
    assert cli.main(["server"]) == 2
    err = capsys.readouterr().err
    assert "pip install '.[server]'" in err
    assert not BARE_INSTALL.search(err)


# --- paths, packages and exit statuses the README states ------------------------------------------


def test_every_benchmarks_path_the_readme_names_exists():
    paths = set(re.findall(r"(?<![\w/.-])benchmarks/[\w./-]*[\w/]", README))
    assert {"benchmarks/bench.py", "benchmarks/make-corpus.sh", "benchmarks/make-wide-corpus.sh"} <= paths
    assert [p for p in sorted(paths) if not os.path.exists(os.path.join(ROOT, p))] == []


def _docs_with_commands():
    names = ["README.md"]
    for folder, ext in (("benchmarks", (".md", ".py", ".sh")), ("docs", (".md",)), ("scripts", (".py",))):
        names += [f"{folder}/{n}" for n in sorted(os.listdir(os.path.join(ROOT, folder))) if n.endswith(ext)]
    return names


def test_commands_name_scripts_of_the_repository():
    # A corpus or benchmark command names a script a user has in a clone, never one beside it.
    outside = {}
    for name in _docs_with_commands():
        with open(os.path.join(ROOT, name), encoding="utf-8") as fh:
            found = re.findall(r"(?<![\w.])\.\./[\w./-]+\.(?:sh|py)\b", fh.read())
        if found:
            outside[name] = found
    assert outside == {}
    assert re.findall(r"(?<![\w.])\.\./[\w./-]+\.(?:sh|py)\b", "run ../tools/make.sh /tmp/c; ../a.py") == ["../tools/make.sh", "../a.py"]


def _fixture_imports():
    """Top-level modules the fixtures import that are neither the standard library nor JAX (and
    what installing JAX installs) nor the fixtures' own packages."""
    import ast
    import sys

    fixtures = os.path.join(ROOT, "fixtures")
    local = set()
    for _, dirs, files in os.walk(fixtures):
        local.update(dirs)
        local.update(f[:-3] for f in files if f.endswith(".py"))
    found = set()
    for folder, _, files in os.walk(fixtures):
        for f in files:
            if not f.endswith(".py"):
                continue
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    found.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    # fixtures/dynamic/import_missing.py imports a package that must not exist.
    missing_on_purpose = {"jaxlint_fixture_package_that_does_not_exist"}
    stdlib = getattr(sys, "stdlib_module_names", None)
    if stdlib is None:
        pytest.skip("needs sys.stdlib_module_names (Python 3.10)")
    jax_and_its_requirements = {"jax", "jaxlib", "numpy"}
    return sorted(found - set(stdlib) - jax_and_its_requirements - local - missing_on_purpose)


def test_the_dynamic_figures_name_the_packages_the_fixtures_import():
    at = README.index("on the fixtures (`jaxlint --dynamic --preview --no-cache fixtures/`")
    paragraph = README[README.rindex("\n\n", 0, at) : README.index("\n\n", at)]
    packages = _fixture_imports()
    assert {"flax", "equinox"} <= set(packages)
    for package in packages:
        assert re.search(rf"(?<![\w-]){package}(?![\w-])", paragraph), package


EXIT_FOR_UNREADABLE = re.compile(
    r"A file that cannot be read .*? or decoded .*? is not an error but a finding, JAX001 .*? the exit\s+status\s+is\s+(\d)", re.S
)


def _lint_one(tmp_path, name, *options):
    from clirun import jaxlint

    p = jaxlint(["--no-cache", "--no-color", *options, name], cwd=str(tmp_path))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_an_undecodable_file_exits_as_the_readme_says(tmp_path):
    stated = int(EXIT_FOR_UNREADABLE.search(README).group(1))
    (tmp_path / "latin.py").write_bytes(b'import jax\nname = "caf\xe9"\n')
    message = "latin.py:1:1: JAX001 cannot decode file: 'utf-8' codec can't decode byte 0xe9 in position 22: invalid continuation byte\n"
    assert _lint_one(tmp_path, "latin.py") == (stated, message, "Found 1 finding in 1 file (1 checked).\n")
    assert stated == 1
    assert _lint_one(tmp_path, "latin.py", "--exit-zero")[0] == 0
    assert _lint_one(tmp_path, "latin.py", "--ignore", "JAX001") == (0, "", "All checks passed (1 file checked).\n")


def test_an_unreadable_file_exits_as_the_readme_says(tmp_path):
    stated = int(EXIT_FOR_UNREADABLE.search(README).group(1))
    secret = tmp_path / "secret.py"
    secret.write_text("import jax\n")
    os.chmod(secret, 0)
    try:
        if os.access(secret, os.R_OK):
            pytest.skip("this user reads a file of mode 000 (root): the refusal cannot be made here")
        assert _lint_one(tmp_path, "secret.py") == (
            stated,
            "secret.py:1:1: JAX001 cannot read file: Permission denied\n",
            "Found 1 finding in 1 file (1 checked).\n",
        )
    finally:
        os.chmod(secret, 0o644)


def test_a_file_the_system_refuses_to_open_exits_as_the_readme_says(tmp_path, monkeypatch):
    # The same refusal as chmod 000 gives a user who is not root, made by the OS call itself,
    # so that it is checked under root too.
    stated = int(EXIT_FOR_UNREADABLE.search(README).group(1))
    import builtins

    (tmp_path / "secret.py").write_text("import jax\n")
    target = str(tmp_path / "secret.py")

    def refusing(real):
        def opener(path, *args, **kwargs):
            if isinstance(path, (str, os.PathLike)) and os.path.join(str(tmp_path), os.fspath(path)) == target:
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path, *args, **kwargs)

        return opener

    monkeypatch.setattr(os, "open", refusing(os.open))
    monkeypatch.setattr(builtins, "open", refusing(builtins.open))
    assert _lint_one(tmp_path, "secret.py") == (
        stated,
        "secret.py:1:1: JAX001 cannot read file: Permission denied\n",
        "Found 1 finding in 1 file (1 checked).\n",
    )
