"""Fixes that are safe in Ruff's sense, as a user meets them: ``jaxlint --fix FILE`` on a copy of
the code.  Each shape here broke working code, or lost its finding, under an earlier ``--fix``.
And the machine formats offer only the fixes ``--fix`` would apply, unless ``--unsafe-fixes``."""

import json

from clirun import jaxlint
from jaxlint.config import Config
from jaxlint.engine import lint_source


def _fix(tmp_path, name, source, *flags):
    (tmp_path / name).write_text(source)
    p = jaxlint(["--no-cache", "--isolated", "--fix", *flags, name], cwd=str(tmp_path))
    return p, (tmp_path / name).read_text()


# --- a rename into a submodule adds the import the new name needs ----------------------------------

ONLY_IMPORT_JAX = """import jax


def make(name):
    return jax.core.Primitive(name)
"""


def test_a_rename_into_a_submodule_imports_it(tmp_path):
    # jax.extend.core is not loaded by ``import jax``: without the import the rename fails
    # with AttributeError where the original name did.
    p, text = _fix(tmp_path, "m.py", ONLY_IMPORT_JAX)
    assert text == ONLY_IMPORT_JAX.replace("import jax\n", "import jax\nimport jax.extend.core\n").replace(
        "jax.core.Primitive", "jax.extend.core.Primitive"
    )
    assert (p.returncode, p.stdout.decode()) == (0, "")
    assert p.stderr.decode() == "All checks passed (1 file checked).\nFixed 1 finding.\n"


def test_a_rename_within_what_import_jax_loads_adds_nothing(tmp_path):
    source = "import jax\n\ndoubled = jax.tree_map(lambda v: 2 * v, [1])\n"
    _, text = _fix(tmp_path, "m.py", source)
    assert text == source.replace("jax.tree_map", "jax.tree_util.tree_map")


def test_no_rename_when_the_import_would_rebind_jax(tmp_path):
    source = "import jax as jx\n\njax = None\nP = jx.core.Primitive\n"
    p, text = _fix(tmp_path, "m.py", source)
    assert text == source
    assert p.stdout.decode() == "m.py:4:5: JAX601 `jx.core.Primitive` was removed in JAX 0.6.0; use `jx.extend.core.Primitive`\n"


def test_without_jax_installed_a_rename_is_unsafe(monkeypatch):
    # Which part of the new name is a module is read from the installed JAX; unknown: unsafe.
    from jaxlint.fixes import submodules

    monkeypatch.setattr(submodules, "_package_dir", lambda top: None)
    (f,) = lint_source(ONLY_IMPORT_JAX, "m.py", Config()).findings
    assert f.autofix["safety"] == "unsafe"
    assert f.autofix["edits"] == [{"text": "jax.extend.core.Primitive", "line": 5, "column": 12, "end_line": 5, "end_column": 30}]


def test_a_rename_newer_than_min_jax_is_unsafe(tmp_path):
    # jax.ffi.ffi_call exists since JAX 0.5.0.
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nmin-jax = "0.4.20"\n')
    source = "import jax\n\ncall = jax.extend.ffi.ffi_call\n"
    (tmp_path / "m.py").write_text(source)
    p = jaxlint(["--no-cache", "--fix", "m.py"], cwd=str(tmp_path))
    assert (tmp_path / "m.py").read_text() == source
    assert p.stderr.decode().endswith("Fixed 0 findings (1 more fixable with --unsafe-fixes).\n")
    # Nor is it offered as a one-click change, unless unsafe fixes are asked for.
    p = jaxlint(["--no-cache", "--format", "rdjson", "m.py"], cwd=str(tmp_path))
    (d,) = json.loads(p.stdout.decode())["diagnostics"]
    assert d["code"]["value"] == "JAX601" and "suggestions" not in d
    p = jaxlint(["--no-cache", "--format", "rdjson", "--unsafe-fixes", "m.py"], cwd=str(tmp_path))
    (d,) = json.loads(p.stdout.decode())["diagnostics"]
    assert [s["text"] for s in d["suggestions"]] == ["jax.ffi.ffi_call"]
    p = jaxlint(["--no-cache", "--fix", "--unsafe-fixes", "m.py"], cwd=str(tmp_path))
    assert (tmp_path / "m.py").read_text() == source.replace("jax.extend.ffi.ffi_call", "jax.ffi.ffi_call")


# --- np -> jnp only where every caller is traced -------------------------------------------------

HELPER = """import jax
import numpy as np


def softplus(x):
    return np.log1p(np.exp(x))


@jax.jit
def loss(x):
    return softplus(x).sum()


def host(x):
    return softplus(x)
"""


def test_np_to_jnp_in_a_helper_host_code_calls_is_unsafe(tmp_path):
    p, text = _fix(tmp_path, "m.py", HELPER, "--preview")
    assert text == HELPER
    assert p.returncode == 1
    assert p.stderr.decode().endswith("Fixed 0 findings (1 more fixable with --unsafe-fixes).\n")
    _, text = _fix(tmp_path, "m.py", HELPER, "--preview", "--unsafe-fixes")
    assert "return jnp.log1p(jnp.exp(x))" in text and "import jax.numpy as jnp\n" in text


def test_np_to_jnp_in_a_jitted_function_is_safe(tmp_path):
    source = "import jax\nimport numpy as np\n\n\n@jax.jit\ndef f(x):\n    return np.exp(x)\n"
    _, text = _fix(tmp_path, "m.py", source, "--preview")
    assert text == "import jax\nimport numpy as np\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n    return jnp.exp(x)\n"


# --- print formats: translated into jax.debug.print placeholders, or left with the finding ---------

PRINTS = """import jax


@jax.jit
def f(x, i):
    print("{0} {0}".format(x))
    print("{:.2f}".format(x))
    print("{v}: {w:>4}".format(w=i, v=x))
    print("%s and %s" % (x, i))
    print("{!r}".format(x))
    print("{}".format(x, i))
    return x
"""


def test_print_formats_are_translated_or_left_alone(tmp_path):
    p, text = _fix(tmp_path, "m.py", PRINTS)
    assert text == (
        PRINTS.replace('print("{0} {0}".format(x))', 'jax.debug.print("{0} {0}", x)')
        .replace('print("{:.2f}".format(x))', 'jax.debug.print("{:.2f}", x)')
        # the keyword arguments keep their order (their evaluation order)
        .replace('print("{v}: {w:>4}".format(w=i, v=x))', 'jax.debug.print("{1}: {0:>4}", i, x)')
        .replace('print("%s and %s" % (x, i))', 'jax.debug.print("{} and {}", x, i)')
    )
    # No fix, and the finding stays: ``!r`` would show a NumPy repr, the unused ``i`` would not
    # be evaluated any more.  Never ``jax.debug.print("{}", "{!r}".format(x))``.
    assert p.stdout.decode() == (
        "m.py:10:5: JAX302 `print()` of traced value `x` in jitted f() runs only while tracing and shows a tracer, not its value\n"
        "m.py:11:5: JAX302 `print()` of traced value `x` in jitted f() runs only while tracing and shows a tracer, not its value\n"
    )


# --- an in-place update is never rewritten across a function boundary ------------------------------

NESTED = """import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    y = jnp.zeros(3)

    def put(v):
        y[0] = v
        return y

    return put(x)
"""


def test_an_update_of_an_enclosing_functions_array_is_not_rewritten(tmp_path):
    p, text = _fix(tmp_path, "m.py", NESTED, "--preview")
    assert text == NESTED
    assert p.returncode == 1
    assert p.stdout.decode() == "m.py:10:9: JAX304 In-place update of JAX array `y`; JAX arrays are immutable\n"


def test_an_update_of_the_functions_own_array_is_rewritten(tmp_path):
    source = NESTED.replace("    y = jnp.zeros(3)\n\n    def put(v):\n", "    def put(v):\n        y = jnp.zeros(3)\n")
    _, text = _fix(tmp_path, "m.py", source, "--preview")
    assert text == source.replace("y[0] = v", "y = y.at[0].set(v)")


# --- machine formats: safe fixes only, unsafe ones when asked -------------------------------------

BOTH = HELPER + """

@jax.jit
def g(x):
    print("x", x)
    return x
"""


def _offered(tmp_path, fmt, *flags):
    (tmp_path / "m.py").write_text(BOTH)
    p = jaxlint(["--no-cache", "--isolated", "--preview", "--format", fmt, *flags, "m.py"], cwd=str(tmp_path))
    assert p.returncode == 1, p.stderr.decode()
    return json.loads(p.stdout.decode())


def test_rdjson_suggestions_carry_safe_fixes_only(tmp_path):
    def suggestions(report):
        return [(d["code"]["value"], [s["text"] for s in d.get("suggestions", [])]) for d in report["diagnostics"]]

    assert suggestions(_offered(tmp_path, "rdjson")) == [("JAX107", []), ("JAX302", ['jax.debug.print("x {}", x)'])]
    # The jnp fix also adds an import: two edits, which one rdjson suggestion cannot carry.
    assert suggestions(_offered(tmp_path, "rdjson", "--unsafe-fixes")) == [("JAX107", []), ("JAX302", ['jax.debug.print("x {}", x)'])]


def test_sarif_fixes_carry_safe_fixes_only(tmp_path):
    def fixes(report):
        out = []
        for r in report["runs"][0]["results"]:
            texts = [
                rep["insertedContent"]["text"]
                for fix in r.get("fixes", [])
                for change in fix["artifactChanges"]
                for rep in change["replacements"]
            ]
            out.append((r["ruleId"], texts))
        return out

    assert fixes(_offered(tmp_path, "sarif")) == [("JAX107", []), ("JAX302", ['jax.debug.print("x {}", x)'])]
    assert fixes(_offered(tmp_path, "sarif", "--unsafe-fixes")) == [
        ("JAX107", ["jnp.exp", "import jax.numpy as jnp\n"]),
        ("JAX302", ['jax.debug.print("x {}", x)']),
    ]


def test_an_unsafe_suggestion_is_not_offered_as_a_one_click_change(tmp_path):
    # A discarded functional update: rebinding is the usual intent, not the only one (unsafe).
    source = "import jax\nimport jax.numpy as jnp\n\nx = jnp.zeros(3)\nx.at[0].set(1.0)\n"
    (tmp_path / "m.py").write_text(source)
    p = jaxlint(["--no-cache", "--isolated", "--preview", "--format", "rdjson", "m.py"], cwd=str(tmp_path))
    (d,) = json.loads(p.stdout.decode())["diagnostics"]
    assert d["code"]["value"] == "JAX501" and "suggestions" not in d
    p = jaxlint(["--no-cache", "--isolated", "--preview", "--format", "rdjson", "--unsafe-fixes", "m.py"], cwd=str(tmp_path))
    (d,) = json.loads(p.stdout.decode())["diagnostics"]
    assert [s["text"] for s in d["suggestions"]] == ["x = x.at[0].set(1.0)"]
