"""The migration table (JAX601/JAX602) against the installed JAX, and the target-jax / min-jax
settings that pick which entries apply."""

import importlib
import subprocess
import sys
import textwrap
import warnings

import pytest

from clirun import env
from jax_deprecations import forget_deprecation_warnings
from jaxlint import lint_source
from jaxlint.analysis.jax_api_migrations import BY_NAME, MIGRATIONS, NEWEST, fix_safety, lookup, parse_version, status
from jaxlint.config import Config, ConfigError, parse_table

jax = pytest.importorskip("jax")

INSTALLED = parse_version(".".join(jax.__version__.split(".")[:3]))
_MISSING = object()


def _access(qualified: str):
    """(the object or _MISSING, the DeprecationWarnings raised while reaching it).

    Reached the way code reaches it: import the longest prefix that is a module, then attributes.
    A removed module raises ImportError; a removed attribute AttributeError."""
    parts = qualified.split(".")
    forget_deprecation_warnings()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        obj = _MISSING
        for n in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:n]))
            except ImportError:
                continue
            for attr in parts[n:]:
                try:
                    obj = getattr(obj, attr)
                except AttributeError:
                    obj = _MISSING
                    break
            break
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    return obj, deprecations


def test_a_deprecated_name_warns_on_every_access_after_forgetting():
    for _ in range(2):
        assert _access("jax.experimental.pjit.pjit")[1]


@pytest.mark.parametrize("m", MIGRATIONS, ids=[m.old for m in MIGRATIONS])
def test_entry_matches_installed_jax(m):
    obj, deprecations = _access(m.old)
    state = status(m, INSTALLED)
    if state == "removed":
        assert obj is _MISSING, f"{m.old} is said to be removed in {m.removed} but JAX {jax.__version__} has it"
    elif state == "deprecated":
        assert obj is not _MISSING, f"{m.old} is said to be only deprecated but is absent"
        assert deprecations, f"{m.old} is said to be deprecated in {m.deprecated} but does not warn"
    else:
        assert obj is not _MISSING and not deprecations, f"{m.old} should be present and quiet before {m.deprecated}"
    if m.new is not None:
        new, new_deprecations = _access(m.new)
        assert new is not _MISSING, f"replacement {m.new} of {m.old} does not exist"
        assert not new_deprecations, f"replacement {m.new} of {m.old} is itself deprecated"
        assert m.since_version is None or m.since_version <= INSTALLED
    else:
        assert m.fix is None and m.advice, f"{m.old}: an entry without replacement says how to migrate"


def test_table_is_consistent():
    assert len(BY_NAME) == len(MIGRATIONS), "one entry per old name"
    for m in MIGRATIONS:
        assert m.deprecated_version is not None or m.removed_version is not None
        if m.deprecated_version is not None and m.removed_version is not None:
            assert m.deprecated_version < m.removed_version, m.old
        assert m.fix in ("safe", "unsafe", None)
        if m.fix is not None:
            assert m.new is not None
    assert NEWEST == max(m.removed_version or m.deprecated_version for m in MIGRATIONS)
    # The names the task of this rule family names explicitly are in the table.
    for required in (
        "jax.tree_map",
        "jax.tree_leaves",
        "jax.numpy.product",
        "jax.numpy.cumproduct",
        "jax.numpy.alltrue",
        "jax.numpy.sometrue",
        "jax.numpy.round_",
        "jax.experimental.host_callback",
        "jax.random.KeyArray",
        "jax.abstract_arrays",
        "jax.numpy.DeviceArray",
        "jax.xla_computation",
        "jax.linear_util",
        "jax.interpreters.xla.DeviceArray",
        "jax.experimental.maps.xmap",
        "jax.experimental.pjit.pjit",
        "jax.core.Primitive",
    ):
        assert required in BY_NAME, required


def test_lookup_covers_module_members_only_for_module_entries():
    assert lookup("jax.experimental.host_callback.id_tap")[1] == "jax.experimental.host_callback"
    assert lookup("jax.numpy.product")[1] == "jax.numpy.product"
    assert lookup("jax.numpy.product.__doc__") is None
    assert lookup("jax.tree.map") is None


def test_status_and_safety_by_version():
    tree_map = BY_NAME["jax.tree_map"]
    assert status(tree_map, (0, 4, 25)) is None
    assert status(tree_map, (0, 4, 26)) == "deprecated"
    assert status(tree_map, (0, 6, 0)) == "removed"
    assert fix_safety(tree_map, None) == "safe"
    assert fix_safety(tree_map, (0, 4, 25)) == "safe"
    assert fix_safety(tree_map, (0, 4, 20)) == "unsafe"
    assert fix_safety(BY_NAME["jax.xla_computation"], None) is None


CODE = textwrap.dedent(
    """
    import jax
    import jax.numpy as jnp

    total = jnp.product(jnp.ones(3))
    doubled = jax.tree_map(lambda v: 2 * v, {"a": 1})
    """
).lstrip()


def _found(config):
    return sorted((f.line, f.code) for f in lint_source(CODE, "m.py", config).findings)


def test_target_jax_picks_the_entries_that_apply():
    assert _found(Config()) == [(4, "JAX601"), (5, "JAX601")]
    assert _found(Config(target_jax=(0, 6, 0))) == [(4, "JAX601"), (5, "JAX601")]
    assert _found(Config(target_jax=(0, 5, 0))) == [(4, "JAX601"), (5, "JAX602")]
    assert _found(Config(target_jax=(0, 4, 14))) == [(4, "JAX602")]
    assert _found(Config(target_jax=(0, 4, 11))) == []


def test_fix_text_and_safety_follow_min_jax():
    (prod, tree) = lint_source(CODE, "m.py", Config()).findings
    assert prod.suggestion["text"] == "jnp.prod" and prod.suggestion["safety"] == "safe"
    assert (prod.line, prod.column, prod.end_column) == (4, 9, 20)
    assert tree.suggestion["text"] == "jax.tree.map" and tree.suggestion["safety"] == "safe"
    assert tree.context["replacement"] == "jax.tree.map" and tree.context["removed_in"] == "0.6.0"
    (_, tree) = lint_source(CODE, "m.py", Config(min_jax=(0, 4, 20))).findings
    assert tree.suggestion["safety"] == "unsafe"
    assert "needs JAX >= 0.4.25" in tree.fix and "min-jax 0.4.20" in tree.fix


def test_config_keys_are_parsed_and_validated():
    c = parse_table({"target-jax": "0.6", "min-jax": "0.4.26"})
    assert c.target_jax == (0, 6, 0) and c.min_jax == (0, 4, 26)
    assert c.key() != Config().key()
    for bad in ({"target-jax": "latest"}, {"target-jax": 0.6}, {"min-jax": "0.4.x"}):
        with pytest.raises(ConfigError, match="must be a JAX version"):
            parse_table(bad)
    with pytest.raises(ConfigError, match="must not be newer than target-jax"):
        parse_table({"target-jax": "0.5", "min-jax": "0.6"})


@pytest.mark.slow  # starts an interpreter
def test_bad_target_jax_is_a_usage_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\ntarget-jax = "newest"\n')
    (tmp_path / "m.py").write_text(CODE)
    p = subprocess.run(
        [sys.executable, "-m", "jaxlint", "m.py"], cwd=str(tmp_path), capture_output=True, env=env(), timeout=120
    )
    err = p.stderr.decode()
    assert p.returncode == 2
    assert err.startswith("jaxlint: error: pyproject.toml: [tool.jaxlint] target-jax must be a JAX version") and err.count("\n") == 1


IMPORT_FORMS = textwrap.dedent(
    """
    import jax as jx
    import jax.experimental.host_callback as hcb
    from jax.experimental.host_callback import id_tap
    from jax import linear_util as lu
    import jax.linear_util

    def tree_map(f, tree):
        return f(tree)

    def run(x):
        hcb.id_tap(print, x)
        jax.linear_util.wrap_init(run)
        return tree_map(jx.tree_structure, lu.wrap_init)

    def shadowed(jx):
        return jx.tree_map
    """
).lstrip()


def test_names_resolve_through_imports_and_uses_of_a_flagged_import_are_not_repeated():
    found = [(f.line, f.column, f.code) for f in lint_source(IMPORT_FORMS, "m.py", Config()).findings]
    assert found == [(2, 8, "JAX601"), (3, 6, "JAX601"), (4, 17, "JAX601"), (5, 8, "JAX601"), (13, 21, "JAX601")]
