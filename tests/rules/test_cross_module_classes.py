"""Classes of other modules of the run: methods, properties, ``super()`` and inherited members
of a class imported by the module whose jitted code calls them are interpreted where the class
is defined, and what goes wrong there is reported in the class's file (fixtures/robot_pkg)."""

import os
import shutil

import pytest

from fixture_units import ROOT, finding_keys, lint_package

PKG = os.path.join(ROOT, "fixtures", "robot_pkg")

EXPECTED = [
    ("robot_pkg/base.py", 13, 9, "JAX302"),
    ("robot_pkg/base.py", 22, 12, "JAX101"),
    ("robot_pkg/models.py", 17, 12, "JAX101"),
    ("robot_pkg/models.py", 49, 12, "JAX101"),
    ("robot_pkg/models.py", 55, 16, "JAX104"),
    ("robot_pkg/models.py", 79, 18, "JAX103"),
    ("robot_pkg/models.py", 94, 12, "JAX101"),  # register_dataclass: w is data, n metadata
    # the field models of Arm and Pose, read in models.py, used in train.py
    ("robot_pkg/train.py", 69, 8, "JAX101"),
    ("robot_pkg/train.py", 81, 22, "JAX108"),
]


def test_methods_of_imported_classes_are_followed_where_the_class_is():
    found = lint_package(PKG)
    assert finding_keys(found) == EXPECTED
    by_line = {(f.path, f.line): f.message for f in found}
    assert "jitted walk_drifted() in robot_pkg/train.py" in by_line[("robot_pkg/base.py", 22)]
    assert "in step(), called with traced values from jitted walk() in robot_pkg/train.py" in by_line[("robot_pkg/models.py", 17)]


@pytest.mark.slow  # starts a worker pool
def test_two_processes_give_the_same_findings(monkeypatch):
    from jaxlint.engine import runner

    # the package is small: make ``jobs=2`` really lint it in two worker processes
    monkeypatch.setattr(runner, "POOL_MIN_FILES", 1)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    one = lint_package(PKG, jobs=1)
    two = lint_package(PKG, jobs=2)
    assert [f.to_dict() for f in one] == [f.to_dict() for f in two]
    assert finding_keys(two) == EXPECTED


def test_without_the_class_module_the_methods_are_unknown():
    # train.py alone: Robot, Arm, ... cannot be seen, so their fields and what their methods
    # return are unknown, and nothing is reported in train.py.
    assert finding_keys(lint_package(PKG, names=["train.py"])) == []
    # models.py and train.py without base.py: the members inherited from Body are not found.
    assert finding_keys(lint_package(PKG, names=["models.py", "train.py"])) == [k for k in EXPECTED if k[0] != "robot_pkg/base.py"]


def test_editing_the_base_class_module_is_seen_by_a_cached_run(tmp_path):
    pkg = tmp_path / "robot_pkg"
    shutil.copytree(PKG, pkg)
    cache = str(tmp_path / "cache")
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED
    base = pkg / "base.py"
    base.write_text(base.read_text().replace("        if x.sum() > self.n:  # error: JAX101\n", "        if self.n > 1:\n"))
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == [k for k in EXPECTED if k[:2] != ("robot_pkg/base.py", 22)]


MODELS = '''
import equinox as eqx
import jax


class Gate(eqx.Module):
    w: jax.Array
    n: int = eqx.field(static=True)

    def __call__(self, x):
        if self.w.sum() > self.n:
            return x
        return -x
'''

CALLER = '''
import jax
import jax.numpy as jnp

from .models import Gate

GATE = Gate(jnp.ones(3), 2)


@jax.jit
def gated(gate, x):
    return gate(x)


def main(other):
    gated(GATE, jnp.ones(3))
    {second_call}
'''


def _package(tmp_path, second_call):
    pkg = tmp_path / "gate_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "models.py").write_text(MODELS)
    (pkg / "train.py").write_text(CALLER.replace("{second_call}", second_call))
    return str(pkg)


def test_an_unannotated_parameter_is_an_instance_of_what_every_call_builds(tmp_path):
    # Every call passes a Gate built in the module: ``gate(x)`` runs Gate.__call__ with a
    # traced receiver, whose ``w`` is a leaf (traced) and ``n`` static metadata.
    pkg = _package(tmp_path, "gated(Gate(jnp.zeros(3), 1), jnp.ones(3))")
    assert finding_keys(lint_package(pkg)) == [("gate_pkg/models.py", 11, 12, "JAX101")]


def test_calls_that_disagree_on_the_class_leave_it_unknown(tmp_path):
    pkg = _package(tmp_path, "gated(other, jnp.ones(3))")
    assert finding_keys(lint_package(pkg)) == []


def test_a_field_made_a_leaf_in_the_class_module_changes_the_callers_findings(tmp_path):
    # train.py is unchanged; its ``jnp.zeros((arm.n, 3))`` is a traced shape once ``n`` is no
    # longer static metadata of Arm in models.py, also in a run that reuses the cache.
    pkg = tmp_path / "robot_pkg"
    shutil.copytree(PKG, pkg)
    cache = str(tmp_path / "cache")
    assert finding_keys(lint_package(str(pkg), cache_dir=cache)) == EXPECTED
    models = pkg / "models.py"
    models.write_text(models.read_text().replace("    n: int = eqx.field(static=True)\n", "    n: int\n"))
    after = finding_keys(lint_package(str(pkg), cache_dir=cache))
    assert ("robot_pkg/train.py", 68, 22, "JAX108") in after
    assert ("robot_pkg/train.py", 49, 8, "JAX101") in after  # what arm.links() returns, now traced
    assert ("robot_pkg/models.py", 43, 27, "JAX108") in after


def test_a_traced_instance_of_a_class_the_model_cannot_place_stays_unknown(tmp_path):
    # Registered as a pytree in a way the class model does not read: inside the trace the
    # receiver is something jaxlint cannot describe, so its methods are not followed.
    pkg = tmp_path / "opaque_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "models.py").write_text(
        "import jax\n\n\n"
        "class Lazy:\n"
        "    def __init_subclass__(cls):\n"
        "        jax.tree_util.register_pytree_node(cls, lambda o: ((), o), lambda o, _: o)\n\n"
        "    def forward(self, x):\n"
        "        if self._fwd is None:\n"
        "            self._fwd = abs\n"
        "        return self._fwd(x)\n"
    )
    (pkg / "train.py").write_text(
        "import jax\n\nfrom .models import Lazy\n\n\n"
        "@jax.jit\n"
        "def f(x, b: Lazy):\n"
        "    return b.forward(x)\n"
    )
    assert finding_keys(lint_package(str(pkg))) == []
