"""The migration table (JAX601/JAX602) against the installed JAX, and the target-jax / min-jax
settings that pick which entries apply."""

import importlib
import importlib.util
import subprocess
import sys
import textwrap
import warnings

import pytest

from clirun import env
from jax_deprecations import forget_deprecation_warnings
from jaxlint import lint_source
from jaxlint.analysis.jax.jax_api_migrations import BY_NAME, MIGRATIONS, NEWEST, RELEASES, fix_safety, lookup, parse_version, status
from jaxlint.config import Config, ConfigError, parse_table
from jaxlint.rules import RULES_BY_CODE

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


def _third_party_missing(qualified: str) -> bool:
    """Whether the module that holds ``qualified`` cannot be imported for want of a library JAX
    does not install (tensorflow for jax2tf, ...): the table cannot be checked there."""
    parts = qualified.split(".")
    for n in range(len(parts), 1, -1):
        try:
            importlib.import_module(".".join(parts[:n]))
            return False
        except ModuleNotFoundError as e:
            if e.name and not e.name.startswith("jax"):
                return True
        except ImportError:
            name = ".".join(parts[:n])
            try:
                exists = importlib.util.find_spec(name) is not None
            except (ImportError, ValueError):
                exists = False
            if exists:
                return True  # the module is there but needs something else ("install flatbuffers")
            continue
        except Exception:  # noqa: BLE001 - a module that fails at import for other reasons
            return True
    return False


@pytest.mark.slow  # imports JAX
def test_table_matches_installed_jax():
    """Every name the table calls removed (as of the installed JAX) fails to resolve there, every
    name it calls deprecated warns on access, a name deprecated only later is still there, and
    every replacement it names exists (when its release is not newer)."""
    wrong, unchecked = [], []
    checked = {"removed": 0, "deprecated": 0, "later": 0}
    for m in MIGRATIONS:
        if _third_party_missing(m.old):
            unchecked.append(m.old)
            continue
        state = status(m, INSTALLED)
        if m.module and state == "deprecated":
            # A deprecated module warns when it is first imported: forget that it was.
            for name in [n for n in sys.modules if n == m.old or n.startswith(m.old + ".")]:
                del sys.modules[name]
        obj, deprecations = _access(m.old)
        if state == "removed":
            checked["removed"] += 1
            if obj is not _MISSING:
                wrong.append(f"{m.old}: removed in {m.removed} per the table, but JAX {jax.__version__} has it")
        elif state == "deprecated":
            checked["deprecated"] += 1
            if obj is _MISSING or not deprecations:
                wrong.append(f"{m.old}: deprecated in {m.deprecated} per the table, but {'absent' if obj is _MISSING else 'quiet'}")
        elif m.added is not None and parse_version(m.added) <= INSTALLED:
            checked["later"] += 1
            if obj is _MISSING:
                wrong.append(f"{m.old}: deprecated or removed only after JAX {jax.__version__}, but absent there")
        if m.new is not None and (m.since_version is None or m.since_version <= INSTALLED):
            new, _ = _access(m.new)
            if new is _MISSING:
                wrong.append(f"{m.old}: its replacement {m.new} does not exist in JAX {jax.__version__}")
    assert wrong == []
    assert checked["removed"] > 500 and checked["deprecated"] > 20, checked
    # jax2tf and a few others need tensorflow or flatbuffers: about 7% of the table.
    assert len(unchecked) < 0.1 * len(MIGRATIONS), unchecked


def test_table_is_consistent():
    assert len(BY_NAME) == len(MIGRATIONS), "one entry per old name"
    releases = {parse_version(r) for r in RELEASES}
    for m in MIGRATIONS:
        assert m.deprecated_version is not None or m.removed_version is not None
        if m.deprecated_version is not None and m.removed_version is not None:
            assert m.deprecated_version < m.removed_version, m.old
        # Messages name only releases that exist.
        for v in (m.deprecated_version, m.removed_version, m.since_version):
            assert v is None or v in releases, (m.old, v)
        assert m.fix in ("safe", "unsafe", None)
        if m.fix is not None:
            assert m.new is not None
        else:
            assert m.advice, f"{m.old}: an entry without replacement says what JAX says"
    assert NEWEST == max(releases)
    assert parse_version(RELEASES[0]) <= (0, 4, 1) and len(RELEASES) >= 60


# Names a hand-written table missed; each must be in the computed one.
REQUIRED = (
    "jax.tree_map",
    "jax.tree_leaves",
    "jax.tree_multimap",
    "jax.numpy.product",
    "jax.numpy.cumproduct",
    "jax.numpy.alltrue",
    "jax.numpy.sometrue",
    "jax.numpy.round_",
    "jax.numpy.NINF",
    "jax.numpy.NZERO",
    "jax.numpy.PZERO",
    "jax.ops.index_update",
    "jax.experimental.optimizers",
    "jax.experimental.stax",
    "jax.experimental.host_callback",
    "jax.lib.xla_bridge",
    "jax.interpreters.xla.xla_call_p",
    "jax.random.KeyArray",
    "jax.abstract_arrays",
    "jax.numpy.DeviceArray",
    "jax.xla_computation",
    "jax.linear_util",
    "jax.interpreters.xla.DeviceArray",
    "jax.experimental.maps",
    "jax.experimental.pjit.pjit",
    "jax.core.Primitive",
    "jax.core.get_aval",
)


@pytest.mark.parametrize("name", REQUIRED)
def test_the_table_knows(name):
    hit = lookup(name)
    assert hit is not None, name
    assert status(hit[0], NEWEST) is not None


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
    # JAX's message offers jax.tree.map (0.4.25 or newer) or jax.tree_util.tree_map (any JAX):
    # the second is the same object as jax.tree_map, so the rename is safe on every JAX.
    assert tree_map.new == "jax.tree_util.tree_map" and tree_map.since is None
    assert fix_safety(tree_map, None) == "safe"
    assert fix_safety(tree_map, (0, 4, 20)) == "safe"
    # The same object under a name that exists only since 0.5.0: unsafe for an older min-jax.
    ffi_call = BY_NAME["jax.extend.ffi.ffi_call"]
    assert ffi_call.new == "jax.ffi.ffi_call" and ffi_call.since == "0.5.0"
    assert fix_safety(ffi_call, None) == "safe"
    assert fix_safety(ffi_call, (0, 5, 0)) == "safe"
    assert fix_safety(ffi_call, (0, 4, 30)) == "unsafe"
    # Another object: unsafe whatever min-jax says; no replacement named: no fix.
    assert BY_NAME["jax.random.KeyArray"].new == "jax.Array"
    assert fix_safety(BY_NAME["jax.random.KeyArray"], None) == "unsafe"
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
    assert tree.suggestion["text"] == "jax.tree_util.tree_map" and tree.suggestion["safety"] == "safe"
    assert tree.context["replacement"] == "jax.tree_util.tree_map" and tree.context["removed_in"] == "0.6.0"
    code = "import jax\n\ncall = jax.extend.ffi.ffi_call\n"
    (call,) = lint_source(code, "m.py", Config()).findings
    assert (call.line, call.code, call.suggestion["text"], call.suggestion["safety"]) == (3, "JAX601", "jax.ffi.ffi_call", "safe")
    (call,) = lint_source(code, "m.py", Config(min_jax=(0, 4, 30))).findings
    assert call.suggestion["safety"] == "unsafe"
    assert "needs JAX >= 0.5.0" in call.fix and "min-jax 0.4.30" in call.fix


def test_config_keys_are_parsed_and_validated():
    c = parse_table({"target-jax": "0.6", "min-jax": "0.4.26"}, rules=RULES_BY_CODE)
    assert c.target_jax == (0, 6, 0) and c.min_jax == (0, 4, 26)
    assert c.key() != Config().key()
    for bad in ({"target-jax": "latest"}, {"target-jax": 0.6}, {"min-jax": "0.4.x"}):
        with pytest.raises(ConfigError, match="must be a JAX version"):
            parse_table(bad, rules=RULES_BY_CODE)
    with pytest.raises(ConfigError, match="must not be newer than target-jax"):
        parse_table({"target-jax": "0.5", "min-jax": "0.6"}, rules=RULES_BY_CODE)
    # one of the two set by an extended base: still a configuration error naming both versions
    base = parse_table({"target-jax": "0.5"}, rules=RULES_BY_CODE)
    with pytest.raises(ConfigError, match=r"\(0\.6\.0\) must not be newer than target-jax \(0\.5\.0\)"):
        parse_table({"min-jax": "0.6"}, base=base, rules=RULES_BY_CODE)


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


UNLOADED = textwrap.dedent(
    """
    import jax


    def safe_div(x, y):
        return jax.experimental.checkify.checkify(lambda a, b: a / b)(x, y)


    safe_div(1.0, 2.0)
    """
).lstrip()


@pytest.mark.slow  # starts an interpreter that runs JAX
def test_unloaded_submodule_is_flagged_and_fails_under_jax():
    config = Config(select=("JAX603",), preview=True)
    found = [(f.line, f.column, f.end_column, f.code) for f in lint_source(UNLOADED, "m.py", config).findings]
    assert found == [(5, 12, 37, "JAX603")]
    p = subprocess.run([sys.executable, "-c", UNLOADED], capture_output=True, env=env(), timeout=300)
    assert p.returncode != 0
    assert "AttributeError" in p.stderr.decode() and "checkify" in p.stderr.decode()
    # Importing the submodule anywhere in the module makes it an attribute.
    fixed = UNLOADED.replace("import jax\n", "import jax\nimport jax.experimental.checkify\n", 1)
    assert lint_source(fixed, "m.py", config).findings == []
    assert subprocess.run([sys.executable, "-c", fixed], capture_output=True, env=env(), timeout=300).returncode == 0


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import jax\nf = (jax.  # the old name\n     tree_map)\n", [(2, 6)]),
        ("import jax\nf = jax.\\\n    tree_map\n", [(2, 5)]),
        ("import jax\nf = jax . tree_map\n", [(2, 5)]),
        ("from jax import tree_map\n", [(1, 17)]),
        ("import jax.util as u\n", [(1, 8)]),
        ("import jax\nwhere = jax.numpy.where\n", []),  # ``where`` is also an old name's last part
        ("import jax\nf = jax.tree_util.tree_map\n", []),  # spells every part, names the new API
        # Where the index does not walk (nothing there runs or binds), names are still read.
        ("import jax\ndef f(*args: jax.tree_map, **kw: jax.tree_map):\n    pass\n", [(2, 14), (2, 34)]),
        ("import jax\nclass C(metaclass=jax.tree_map):\n    pass\n", [(2, 19)]),
        # Imports in function and class bodies bind names too.
        ("def f():\n    import jax as j\n    return j.tree_map\n", [(3, 12)]),
        ("class K:\n    import jax.numpy as np\n    f = np.product\n", [(3, 9)]),
    ],
)
def test_old_names_are_found_however_the_attribute_is_spelled(source, expected):
    assert [(f.line, f.column) for f in lint_source(source, "m.py", Config()).findings if f.code == "JAX601"] == expected


def test_an_unloaded_submodule_is_flagged_only_when_no_import_may_load_it():
    config = Config(select=("JAX603",), preview=True)
    assert [(f.line, f.column) for f in lint_source(UNLOADED, "m.py", config).findings] == [(5, 12)]
    # A module loaded by name at run time, or imported from another library, may be the one.
    for extra in ("import importlib\nimportlib.import_module('jax.experimental.checkify')\n", "import flax\n"):
        assert lint_source(UNLOADED + extra, "m.py", config).findings == []
    # A plain lint (JAX603 is a preview rule) reports no such reference.
    assert lint_source(UNLOADED, "m.py", Config()).findings == []


@pytest.mark.slow  # starts an interpreter that imports JAX
def test_modules_the_table_says_import_jax_leaves_unloaded_are_unloaded():
    """The table's set is an over-approximation of what ``import jax`` loads: a module outside it
    is never loaded by ``import jax`` alone (then JAX603 is right to flag an access)."""
    from jaxlint.analysis.jax.jax_api_migrations import LAZY_PACKAGES, LOADED_BY_IMPORT_JAX, MODULES

    code = "import sys, jax; print('\\n'.join(sorted(sys.modules)))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env(), timeout=300)
    loaded = set(p.stdout.decode().split())
    assert "jax" in loaded
    claimed_unloaded = {m for m in MODULES - LOADED_BY_IMPORT_JAX if not any(m.startswith(p + ".") for p in LAZY_PACKAGES)}
    assert len(claimed_unloaded) > 20
    assert claimed_unloaded & loaded == set()
