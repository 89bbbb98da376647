"""The machine formats, produced by the real ``jaxlint`` command and checked against their schemas
(SARIF, rdjson) or their documented shape (GitHub workflow commands, GitLab Code Quality)."""

from __future__ import annotations

import json
import re
import textwrap
from urllib.parse import unquote

import pytest

from clirun import git, init_repo, jaxlint
from fixture_units import rule_config
from jaxlint.versions import __version__
from jaxlint.findings import Finding
from jaxlint.fingerprints import SourceLines, fingerprints
from jaxlint.formats import FORMATTERS
from jaxlint.formats.github import escape_data, escape_property
from jaxlint.rules import ALL_RULES, RULES_BY_CODE
from schema_check import validate, validator

MODEL = """\
    import jax


    @jax.jit
    def f(größe):
        s = "日本"; y = "ü" if größe > 0 else "ö"
        print("wert", größe)
        return größe
    """

CLEAN = """\
    import jax


    @jax.jit
    def f(x):
        return jax.numpy.where(x > 0, x, 0.0)
    """

BROKEN = "import jax\ndef f(x) return x\n"

MACHINE = ["sarif", "rdjson", "gitlab", "json"]


def write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def repo(tmp_path):
    """A git work tree with a package folder: files with findings, a clean one, a broken one."""
    root = tmp_path / "repo"
    root.mkdir()
    init_repo(str(root))
    write(root / "pkg" / "mödel.py", MODEL)
    write(root / "pkg" / "clean.py", CLEAN)
    write(root / "pkg" / "broken.py", BROKEN)
    return root


def run(fmt, args, cwd):
    # --preview: MODEL's error-level finding is JAX101's, a rule in preview.
    p = jaxlint(["--preview", "--format", fmt, *args], cwd=str(cwd))
    assert p.returncode in (0, 1), p.stderr.decode()
    return p


def test_all_formats_registered():
    assert list(FORMATTERS) == [
        "text", "json", "full", "concise", "github", "gitlab", "rdjson", "sarif", "junit", "json-lines", "pylint"
    ]


def test_unknown_format_exits_2(tmp_path):
    p = jaxlint(["--format", "xml", "."], cwd=str(tmp_path))
    assert p.returncode == 2
    assert b"unknown format 'xml'" in p.stderr


# --- SARIF --------------------------------------------------------------------------------------


def test_sarif_with_findings_validates_and_has_the_required_fields(repo):
    # Run from the package folder: paths must still be relative to the repository root.
    p = run("sarif", ["mödel.py", "clean.py"], repo / "pkg")
    assert p.returncode == 1
    log = json.loads(p.stdout.decode("utf-8"))
    validate("sarif-schema-2.1.0.json", log)
    assert log["version"] == "2.1.0"
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert (driver["name"], driver["version"], driver["informationUri"]) == (
        "jaxlint",
        __version__,
        "https://github.com/jaxlint/jaxlint",
    )
    assert [r["id"] for r in driver["rules"]] == [r.code for r in ALL_RULES]
    by_id = {r["id"]: r for r in driver["rules"]}
    jax101 = by_id["JAX101"]
    assert jax101["name"] == "traced-if"
    assert jax101["shortDescription"]["text"].startswith("Flags a Python ``if``/``elif``")
    assert jax101["shortDescription"]["text"].endswith("inside a jitted (or otherwise traced) function.")
    assert jax101["fullDescription"]["text"].startswith("What it does\n")
    # The help is the --explain text, and the markdown its section of docs/rules.md, where
    # helpUri points.
    assert jax101["help"]["text"] == RULES_BY_CODE["JAX101"].explain()
    assert jax101["help"]["text"].startswith("JAX101 (traced-if)\n\nWhat it does\n")
    assert "Example\n    @jax.jit\n    def relu(x):\n        if x > 0:" in jax101["help"]["text"]
    assert jax101["help"]["markdown"] == "## JAX101\n\n```text\n" + jax101["help"]["text"] + "```\n"
    assert "{var}" not in jax101["help"]["text"]
    for rule in driver["rules"]:
        assert rule["helpUri"] == f"https://github.com/jaxlint/jaxlint/blob/main/docs/rules.md#{rule['id'].lower()}"
    assert run_["columnKind"] == "unicodeCodePoints"

    results = run_["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("JAX101", "error"), ("JAX302", "warning")]
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        (loc,) = r["locations"]
        art = loc["physicalLocation"]["artifactLocation"]
        assert art["uriBaseId"] == "SRCROOT"
        assert art["uri"] == "pkg/m%C3%B6del.py"
        assert unquote(art["uri"]) == "pkg/mödel.py"
        assert set(r["partialFingerprints"]) == {"jaxlint/v1"}
    assert results[0]["message"]["text"] == "Python `... if ... else ...` on traced value `größe` in jitted f()"
    assert results[0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 6,
        "startColumn": 26,
        "endLine": 6,
        "endColumn": 35,
    }
    # The print rule knows its exact fix.
    (fix,) = results[1]["fixes"]
    (change,) = fix["artifactChanges"]
    (repl,) = change["replacements"]
    assert repl["insertedContent"]["text"] == 'jax.debug.print("wert {}", größe)'
    assert repl["deletedRegion"] == {"startLine": 7, "startColumn": 5, "endLine": 7, "endColumn": 25}
    # Unicode is written as such, not as \u escapes.
    assert "größe" in p.stdout.decode("utf-8")


def test_sarif_without_findings_validates(repo):
    p = run("sarif", ["clean.py"], repo / "pkg")
    assert p.returncode == 0
    log = json.loads(p.stdout)
    validate("sarif-schema-2.1.0.json", log)
    assert log["runs"][0]["results"] == []
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == len(ALL_RULES)


def test_sarif_parse_error_validates(repo):
    p = run("sarif", ["broken.py"], repo / "pkg")
    assert p.returncode == 1
    log = json.loads(p.stdout)
    validate("sarif-schema-2.1.0.json", log)
    (r,) = log["runs"][0]["results"]
    assert (r["ruleId"], r["level"], r["ruleIndex"]) == ("JAX001", "error", 0)
    assert r["message"]["text"].startswith("syntax error: ")
    assert r["locations"][0]["physicalLocation"]["region"]["startLine"] == 2


def test_sarif_validator_is_not_vacuous():
    v = validator("sarif-schema-2.1.0.json")
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {}}]}]}
    assert not v.is_valid(bad)
    assert not v.is_valid({"version": "2.0.0", "runs": []})


def test_sarif_uri_is_an_rfc3986_reference(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    init_repo(str(root))
    write(root / "a dir" / "x#1.py", MODEL)
    p = run("sarif", ["a dir"], root)
    (r,) = [r for r in json.loads(p.stdout)["runs"][0]["results"] if r["ruleId"] == "JAX101"]
    uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "a%20dir/x%231.py"
    assert re.fullmatch(r"[A-Za-z0-9\-._~/%]+", uri)


# --- fingerprints ---------------------------------------------------------------------------------


def _sarif_prints(cwd, *paths):
    p = run("sarif", list(paths), cwd)
    return [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"], r["partialFingerprints"]["jaxlint/v1"])
        for r in json.loads(p.stdout)["runs"][0]["results"]
    ]


def test_fingerprints_survive_unrelated_lines_moving(repo):
    before = _sarif_prints(repo, "pkg/mödel.py")
    src = (repo / "pkg" / "mödel.py").read_text(encoding="utf-8")
    (repo / "pkg" / "mödel.py").write_text(
        src.replace("import jax\n", "import jax\nimport os\n\nCONSTANT = 3\n\n\n", 1), encoding="utf-8"
    )
    after = _sarif_prints(repo, "pkg/mödel.py")
    assert [(c, line + 5, fp) for c, line, fp in before] == after
    # Re-indenting does not change them either; editing the flagged line does.
    (repo / "pkg" / "mödel.py").write_text(
        (repo / "pkg" / "mödel.py").read_text(encoding="utf-8").replace('print("wert", größe)', 'print("value", größe)'),
        encoding="utf-8",
    )
    edited = _sarif_prints(repo, "pkg/mödel.py")
    assert edited[0] == after[0]
    assert edited[1][:2] == after[1][:2] and edited[1][2] != after[1][2]


def test_identical_lines_get_distinct_fingerprints(tmp_path):
    src = textwrap.dedent(
        """\
        import jax


        @jax.jit
        def f(x):
            if x > 0:
                x = -x
            if x > 0:
                x = -x
            return x
        """
    )
    (tmp_path / "twice.py").write_text(src)
    f = [
        Finding("twice.py", line, 8, line, 13, "JAX101", "traced-if", "m")
        for line in (6, 8)
    ]
    sources = SourceLines({"twice.py": src})
    a, b = fingerprints(f, root=str(tmp_path), sources=sources)
    assert a != b
    # Order-independent: the same finding gets the same fingerprint whatever order it comes in.
    assert fingerprints(f[::-1], root=str(tmp_path), sources=sources) == [b, a]


def test_fingerprint_path_is_repository_relative(repo):
    from_root = _sarif_prints(repo, "pkg/mödel.py")
    p = run("sarif", ["mödel.py"], repo / "pkg")
    from_pkg = [r["partialFingerprints"]["jaxlint/v1"] for r in json.loads(p.stdout)["runs"][0]["results"]]
    assert [fp for _, _, fp in from_root] == from_pkg


# --- rdjson ---------------------------------------------------------------------------------------


def test_rdjson_with_findings_validates_with_suggestion_and_byte_columns(repo):
    p = run("rdjson", ["pkg"], repo)
    assert p.returncode == 1
    result = json.loads(p.stdout.decode("utf-8"))
    validate("rdjson-DiagnosticResult.json", result)
    assert result["source"] == {"name": "jaxlint", "url": "https://github.com/jaxlint/jaxlint"}
    diags = result["diagnostics"]
    assert [(d["code"]["value"], d["severity"], d["location"]["path"]) for d in diags] == [
        ("JAX001", "ERROR", "pkg/broken.py"),
        ("JAX101", "ERROR", "pkg/mödel.py"),
        ("JAX302", "WARNING", "pkg/mödel.py"),
    ]
    for d in diags:
        assert d["code"]["url"] == f"https://github.com/jaxlint/jaxlint/blob/main/docs/rules.md#{d['code']['value'].lower()}"
    # Columns are UTF-8 byte offsets (1-based): "日本" and "ü" before the condition are 5 bytes
    # more than their 3 characters.
    rng = diags[1]["location"]["range"]
    assert rng == {"start": {"line": 6, "column": 31}, "end": {"line": 6, "column": 42}}
    line6 = (repo / "pkg" / "mödel.py").read_text(encoding="utf-8").splitlines()[5].encode("utf-8")
    assert line6[30:41] == "größe > 0".encode("utf-8")
    assert "suggestions" not in diags[1]
    (s,) = diags[2]["suggestions"]
    assert s == {
        "range": {"start": {"line": 7, "column": 5}, "end": {"line": 7, "column": 27}},
        "text": 'jax.debug.print("wert {}", größe)',
    }
    line7 = (repo / "pkg" / "mödel.py").read_text(encoding="utf-8").splitlines()[6].encode("utf-8")
    assert line7[4:26] == 'print("wert", größe)'.encode("utf-8")


def test_rdjson_without_findings_and_parse_error_validate(repo):
    empty = json.loads(run("rdjson", ["pkg/clean.py"], repo).stdout)
    validate("rdjson-DiagnosticResult.json", empty)
    assert empty["diagnostics"] == []
    broken = json.loads(run("rdjson", ["pkg/broken.py"], repo).stdout)
    validate("rdjson-DiagnosticResult.json", broken)
    (d,) = broken["diagnostics"]
    assert (d["code"]["value"], d["location"]["range"]["start"]) == ("JAX001", {"line": 2, "column": 10})


def test_rdjson_validator_is_not_vacuous():
    v = validator("rdjson-DiagnosticResult.json")
    assert not v.is_valid({"diagnostics": [{"severity": "FATAL"}]})
    assert not v.is_valid({"diagnostics": [{"location": {"range": {"start": {"line": "3"}}}}]})


# --- GitHub ---------------------------------------------------------------------------------------


def test_github_workflow_commands(repo):
    p = run("github", ["mödel.py", "clean.py", "broken.py"], repo / "pkg")
    lines = p.stdout.decode("utf-8").splitlines()
    assert lines == [
        "::error file=pkg/broken.py,line=2,col=10,endLine=2,endColumn=10,title=JAX001 syntax-error::"
        + escape_data(
            json.loads(run("json", ["broken.py"], repo / "pkg").stdout)[0]["message"]
            + "\nFix the syntax error (or the file's encoding) so that the file parses."
        ),
        "::error file=pkg/mödel.py,line=6,col=26,endLine=6,endColumn=34,title=JAX101 traced-if::"
        "Python `... if ... else ...` on traced value `größe` in jitted f()%0A"
        "use jnp.where(cond, a, b) if both branches are cheap and safe, lax.cond(cond, true_fn, false_fn, operand)"
        " if a branch is costly or unsafe, or static_argnames if `größe` is configuration",
        "::warning file=pkg/mödel.py,line=7,col=5,endLine=7,endColumn=24,title=JAX302 print-in-traced::"
        "`print()` of traced value `größe` in jitted f() runs only while tracing and shows a tracer, not its value%0A"
        'use jax.debug.print("... {}", größe) to print the runtime value on every call',
    ]


def test_github_escaping():
    assert escape_data("100%\r\nnext: a,b") == "100%25%0D%0Anext: a,b"
    assert escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A"


def test_github_escapes_odd_paths(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    init_repo(str(root))
    write(root / "a,b:c%d.py", MODEL)
    p = run("github", ["a,b:c%d.py"], root)
    first = p.stdout.decode("utf-8").splitlines()[0]
    assert first.startswith("::error file=a%2Cb%3Ac%25d.py,line=6,col=26,")


def test_github_without_findings_is_empty(repo):
    p = run("github", ["pkg/clean.py"], repo)
    assert (p.returncode, p.stdout) == (0, b"")


# --- GitLab ---------------------------------------------------------------------------------------


def test_gitlab_code_quality_shape(repo):
    p = run("gitlab", ["pkg"], repo)
    issues = json.loads(p.stdout.decode("utf-8"))
    assert [(i["check_name"], i["severity"], i["location"]) for i in issues] == [
        ("JAX001", "critical", {"path": "pkg/broken.py", "lines": {"begin": 2, "end": 2}}),
        ("JAX101", "major", {"path": "pkg/mödel.py", "lines": {"begin": 6, "end": 6}}),
        ("JAX302", "minor", {"path": "pkg/mödel.py", "lines": {"begin": 7, "end": 7}}),
    ]
    allowed = {"info", "minor", "major", "critical", "blocker"}
    for i in issues:
        assert isinstance(i["description"], str) and i["description"].startswith(i["check_name"] + " ")
        assert re.fullmatch(r"[0-9a-f]{32}", i["fingerprint"])
        assert i["severity"] in allowed
    assert len({i["fingerprint"] for i in issues}) == 3
    # The same fingerprints as SARIF's.
    sarif = json.loads(run("sarif", ["pkg"], repo).stdout)["runs"][0]["results"]
    assert [i["fingerprint"] for i in issues] == [r["partialFingerprints"]["jaxlint/v1"] for r in sarif]
    assert json.loads(run("gitlab", ["pkg/clean.py"], repo).stdout) == []


# --- all machine formats --------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", MACHINE + ["github"])
def test_stable_order_whatever_the_argument_order(repo, fmt):
    a = run(fmt, ["pkg/mödel.py", "pkg/broken.py", "pkg/clean.py"], repo).stdout
    b = run(fmt, ["pkg/clean.py", "pkg/broken.py", "pkg/mödel.py"], repo).stdout
    assert a == b and a


@pytest.mark.parametrize("fmt", MACHINE)
def test_valid_json_with_no_files_at_all(tmp_path, fmt):
    p = jaxlint(["--format", fmt, "."], cwd=str(tmp_path))
    assert p.returncode == 0
    json.loads(p.stdout)


def test_output_file_gets_the_report_and_stdout_stays_empty(repo):
    out = repo / "report.sarif"
    p = jaxlint(["--format", "sarif", "--output-file", str(out), "pkg"], cwd=str(repo))
    assert p.returncode == 1
    assert p.stdout == b""
    validate("sarif-schema-2.1.0.json", json.loads(out.read_text(encoding="utf-8")))


DYN = {"status": "confirmed", "detail": "TracerBoolConversionError at line 6"}


def _dyn_findings(tmp_path):
    (tmp_path / "d.py").write_text(textwrap.dedent(MODEL), encoding="utf-8")
    return [
        Finding("d.py", 6, 26, 6, 35, "JAX101", "traced-if", "msg ü", fix="fix it", dynamic=DYN),
        Finding("d.py", 7, 5, 7, 25, "JAX302", "print-in-traced", "msg2"),
    ]


def test_dynamic_verdict_is_carried_by_every_machine_format(tmp_path):
    fs = _dyn_findings(tmp_path)
    root = str(tmp_path)
    sources = SourceLines()
    sarif = json.loads(FORMATTERS["sarif"](fs, root=root, sources=sources))
    validate("sarif-schema-2.1.0.json", sarif)
    r1, r2 = sarif["runs"][0]["results"]
    assert r1["properties"]["dynamic"] == DYN and "dynamic" not in r2.get("properties", {})

    rd = json.loads(FORMATTERS["rdjson"](fs, root=root, sources=sources))
    validate("rdjson-DiagnosticResult.json", rd)
    # reviewdog rejects unknown fields, so the verdict travels in the message.
    assert rd["diagnostics"][0]["message"] == "msg ü [dynamic check: confirmed: TracerBoolConversionError at line 6]"
    assert rd["diagnostics"][1]["message"] == "msg2"
    assert set(rd["diagnostics"][0]) == {"message", "location", "severity", "code"}

    gl = json.loads(FORMATTERS["gitlab"](fs, root=root, sources=sources))
    assert gl[0]["dynamic"] == DYN and "dynamic" not in gl[1]

    gh = FORMATTERS["github"](fs, root=root).splitlines()
    assert gh[0].endswith("::msg ü [dynamic check: confirmed: TracerBoolConversionError at line 6]%0Afix it")

    js = json.loads(FORMATTERS["json"](fs))
    assert js[0]["dynamic"] == DYN and "dynamic" not in js[1]


def test_git_checkout_root_is_used_even_without_commits(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    git(["init", "-q", str(root)], cwd=str(tmp_path))
    write(root / "deep" / "er" / "m.py", MODEL)
    p = run("rdjson", ["m.py"], root / "deep" / "er")
    assert [d["location"]["path"] for d in json.loads(p.stdout)["diagnostics"]] == ["deep/er/m.py"] * 2


def _frozen_capture_findings(tmp_path):
    from jaxlint.engine import lint_source

    src = "import jax\n\nlr = 0.1\n\n\n@jax.jit\ndef step(w):\n    return w - lr * w\n\n\nw = step(1.0)\nlr = 0.01\nw = step(w)\n"
    path = tmp_path / "fr.py"
    path.write_text(src)
    return lint_source(src, str(path), rule_config()).findings


def test_frozen_capture_names_where_the_value_changes(tmp_path):
    (f,) = _frozen_capture_findings(tmp_path)
    assert (f.code, f.line, f.column) == ("JAX301", 8, 16)
    assert [(r["line"], r["column"], r["message"]) for r in f.related] == [(12, 1, "`lr` gets a new value here")]


def test_full_text_format_shows_source_caret_help_and_related(tmp_path):
    from jaxlint.formats.text import format_full

    findings = _frozen_capture_findings(tmp_path)
    lines = format_full(findings).splitlines()
    assert lines[0].endswith("JAX301 " + findings[0].message)
    assert lines[2] == "8 |     return w - lr * w"
    assert lines[3] == "  |                ^^ JAX301"
    assert lines[4].startswith("  = note: `lr` gets a new value here (") and lines[4].endswith("fr.py:12:1)")
    assert lines[5] == "    12 | lr = 0.01"
    assert lines[-1].startswith("  = help: pass `lr` as an argument")
    coloured = format_full(findings, color=True)
    assert "\x1b[1;33mJAX301" in coloured  # a warning: yellow, as SARIF's level says


def test_related_locations_in_sarif_and_rdjson(tmp_path):
    findings = _frozen_capture_findings(tmp_path)
    sarif = json.loads(FORMATTERS["sarif"](findings))
    (result,) = sarif["runs"][0]["results"]
    (rel,) = result["relatedLocations"]
    assert rel["physicalLocation"]["region"]["startLine"] == 12 and rel["message"]["text"] == "`lr` gets a new value here"
    rd = json.loads(FORMATTERS["rdjson"](findings))
    (diag,) = rd["diagnostics"]
    assert diag["related_locations"][0]["location"]["range"]["start"] == {"line": 12, "column": 1}


def test_related_locations_validate_against_the_schemas(tmp_path):
    findings = _frozen_capture_findings(tmp_path)
    validate("sarif-schema-2.1.0.json", json.loads(FORMATTERS["sarif"](findings)))
    validate("rdjson-DiagnosticResult.json", json.loads(FORMATTERS["rdjson"](findings)))


# A changed static object reached through two wrappers: four related locations (the call it
# was compiled at, two forwarding calls, the read), each carried by every format that has them.
WRAPPED_STATIC = """\
from functools import partial

import jax
import jax.numpy as jnp


class Config:
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnums=1)
def apply(x, cfg):
    return x * cfg.scale


def forward(x, cfg):
    return apply(x, cfg)


def predict(x, cfg):
    return forward(x, cfg)


def main():
    cfg = Config(2.0)
    y = predict(jnp.ones(3), cfg)
    cfg.scale = 3.0
    y = predict(jnp.ones(3), cfg)
    return y
"""


def _span(line: int, code: str):
    """(line, column, end_line, end_column) of ``code`` on 1-based ``line``, end exclusive."""
    column = WRAPPED_STATIC.splitlines()[line - 1].index(code) + 1
    return line, column, line, column + len(code)


WRAPPED_RELATED = [
    (*_span(27, "predict(jnp.ones(3), cfg)"), "jitted apply() is compiled for `cfg` here"),
    (*_span(22, "forward(x, cfg)"), "forwarded here"),
    (*_span(18, "apply(x, cfg)"), "the call above reaches jitted apply() here"),
    (*_span(14, "cfg.scale"), "`cfg.scale` is read here at trace time"),
]


def _wrapped_static_findings(tmp_path):
    from jaxlint.engine import lint_source

    path = tmp_path / "wrapped.py"
    path.write_text(WRAPPED_STATIC)
    findings = lint_source(WRAPPED_STATIC, str(path), rule_config()).findings
    assert [(f.code, f.line, f.column) for f in findings] == [("JAX307", 28, 5)]
    return findings


def test_every_related_location_reaches_json(tmp_path):
    (f,) = json.loads(FORMATTERS["json"](_wrapped_static_findings(tmp_path)))
    assert [(r["line"], r["column"], r["end_line"], r["end_column"], r["message"]) for r in f["related"]] == WRAPPED_RELATED


def test_every_related_location_reaches_sarif_and_rdjson(tmp_path):
    findings = _wrapped_static_findings(tmp_path)
    sarif = json.loads(FORMATTERS["sarif"](findings))
    validate("sarif-schema-2.1.0.json", sarif)
    (result,) = sarif["runs"][0]["results"]
    got = []
    for i, rel in enumerate(result["relatedLocations"]):
        assert rel["id"] == i
        region = rel["physicalLocation"]["region"]
        got.append((region["startLine"], region["startColumn"], region["endLine"], region["endColumn"], rel["message"]["text"]))
    assert got == WRAPPED_RELATED
    rd = json.loads(FORMATTERS["rdjson"](findings))
    validate("rdjson-DiagnosticResult.json", rd)
    (diag,) = rd["diagnostics"]
    got = []
    for rel in diag["related_locations"]:
        start, end = rel["location"]["range"]["start"], rel["location"]["range"]["end"]
        assert rel["location"]["path"].endswith("wrapped.py")
        got.append((start["line"], start["column"], end["line"], end["column"], rel["message"]))
    assert got == WRAPPED_RELATED


def test_full_text_format_shows_every_related_location_in_order(tmp_path):
    from jaxlint.formats.text import format_full

    text = format_full(_wrapped_static_findings(tmp_path))
    notes = [line for line in text.splitlines() if line.startswith("  = note: ")]
    assert [n[len("  = note: ") :].rsplit(" (", 1)[0] for n in notes] == [m for *_, m in WRAPPED_RELATED]
    assert [n.rsplit(":", 2)[-2:] for n in notes] == [[str(line), f"{col})"] for line, col, *_ in WRAPPED_RELATED]
    # each note is followed by the line it points at
    assert "    22 |     return forward(x, cfg)" in text.splitlines()
    assert "    14 |     return x * cfg.scale" in text.splitlines()


# --- ruff's line formats and JUnit -----------------------------------------------------------------

LINE_302 = "`print()` of traced value `größe` in jitted f() runs only while tracing and shows a tracer, not its value"
LINE_101 = "Python `... if ... else ...` on traced value `größe` in jitted f()"


def test_pylint_lines(repo):
    p = run("pylint", ["mödel.py", "clean.py"], repo / "pkg")
    assert p.stdout.decode("utf-8") == f"mödel.py:6: [JAX101] {LINE_101}\nmödel.py:7: [JAX302] {LINE_302}\n"
    assert run("pylint", ["clean.py"], repo / "pkg").stdout == b""


def test_json_lines_are_the_json_objects_one_a_line(repo):
    p = run("json-lines", ["mödel.py", "clean.py"], repo / "pkg")
    lines = p.stdout.decode("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == json.loads(run("json", ["mödel.py", "clean.py"], repo / "pkg").stdout)
    assert [json.loads(line)["code"] for line in lines] == ["JAX101", "JAX302"]
    assert run("json-lines", ["clean.py"], repo / "pkg").stdout == b""


def test_junit_shape(repo):
    import xml.etree.ElementTree as ET

    p = run("junit", ["mödel.py", "clean.py"], repo / "pkg")
    text = p.stdout.decode("utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jaxlint" tests="2" failures="2" errors="0">\n')
    root = ET.fromstring(text)
    [suite] = root
    assert suite.attrib == {"name": "mödel.py", "tests": "2", "disabled": "0", "errors": "0", "failures": "2", "package": "org.jaxlint"}
    cases = [(c.attrib, c[0].attrib, c[0].text) for c in suite]
    assert cases == [
        ({"name": "org.jaxlint.JAX101", "classname": "mödel", "line": "6", "column": "26"}, {"message": LINE_101}, f"line 6, col 26, {LINE_101}"),
        ({"name": "org.jaxlint.JAX302", "classname": "mödel", "line": "7", "column": "5"}, {"message": LINE_302}, f"line 7, col 5, {LINE_302}"),
    ]
    # Without findings: one passing test case, so the report shows that the lint ran.
    clean = ET.fromstring(run("junit", ["clean.py"], repo / "pkg").stdout)
    assert clean.attrib == {"name": "jaxlint", "tests": "0", "failures": "0", "errors": "0"}
    assert [c.attrib for c in clean[0]] == [{"name": "No errors found"}]
