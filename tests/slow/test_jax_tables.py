"""The interpreter's tables of JAX knowledge, checked against the installed JAX."""

import os
import random
import sys

import pytest

pytestmark = pytest.mark.slow  # imports JAX

jax = pytest.importorskip("jax", reason="the tables are checked against the installed JAX")

from clirun import ROOT  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))

import jax_tables  # noqa: E402

from jaxlint.analysis.jax import jax_api  # noqa: E402
from jaxlint.analysis.jax.jax_concrete_args import CONCRETE_ARGS, JAX_VERSION  # noqa: E402


def test_array_methods_are_methods_of_jax_arrays():
    missing = sorted(m for m in jax_api.ARRAY_METHODS if not callable(getattr(jax.Array, m, None)))
    assert missing == []


def test_tracer_errors_are_type_errors():
    for name in jax_api.TRACER_ERROR_CLASSES - {"JAXTypeError"}:
        assert issubclass(getattr(jax.errors, name), TypeError), name


def test_disable_jit_flag_is_false_while_tracing():
    from jax._src import config

    seen = []

    @jax.jit
    def f(x):
        seen.append((config.disable_jit.value, jax.config.jax_disable_jit))
        return x

    f(1.0)
    assert seen == [(False, False)]


def test_the_trace_state_is_never_clean_under_a_transform():
    import importlib

    tests = [getattr(importlib.import_module(q.rsplit(".", 1)[0]), q.rsplit(".", 1)[1], None) for q in jax_api.TRACE_STATE_TESTS]
    tests = [t for t in tests if t is not None]
    assert tests, "no trace-state test of the table exists in this JAX"
    seen = []

    def record(x):
        seen.append(tuple(t() for t in tests))
        with jax.ensure_compile_time_eval():
            seen.append(tuple(t() for t in tests))
        return x * 1.0

    jax.jit(record)(1.0)
    jax.grad(record)(1.0)
    jax.vmap(record)(jax.numpy.ones(2))
    jax.lax.scan(lambda c, x: (record(c), x), 0.0, jax.numpy.ones(2))
    assert seen and all(not any(s) for s in seen)
    assert all(t() for t in tests)  # and clean outside


def test_capitalised_names_of_class_namespaces_are_classes():
    import importlib
    import typing

    for prefix in jax_api.CLASS_NAMESPACES:
        module = importlib.import_module(prefix.rstrip("."))
        for name in dir(module):
            if name[:1].isupper():
                obj = getattr(module, name)
                assert isinstance(obj, type) or typing.get_origin(obj) is not None, f"{prefix}{name}"


def test_static_lax_helpers_return_python_values():
    from jax import lax

    dims = lax.conv_dimension_numbers((1, 1, 3, 3), (1, 1, 2, 2), ("NCHW", "OIHW", "NCHW"))
    assert not isinstance(dims, jax.Array)
    assert lax.padtype_to_pads((4, 4), (2, 2), (1, 1), "SAME") == [(0, 1), (0, 1)]


def test_classes_said_to_hash_by_fields_do():
    """Each entry of HASH_BY_FIELDS makes a class whose instances hash their fields: a list in
    a field fails ``hash``, a tuple hashes, and equal fields give equal hashes."""
    import importlib

    from jaxlint.analysis.host.host_value import HASH_BY_FIELDS

    for qualified in sorted(HASH_BY_FIELDS):
        module, name = qualified.rsplit(".", 1)
        try:
            maker = getattr(importlib.import_module(module), name)
        except ImportError:
            continue
        if name == "NamedTuple":
            cls = maker("Holder", [("held", object)])
        elif isinstance(maker, type):
            cls = type("Holder", (maker,), {"__annotations__": {"held": object}, "__module__": __name__})
        else:
            cls = maker(type("Holder", (), {"__annotations__": {"held": object}, "__module__": __name__}))
        with pytest.raises(TypeError):
            hash(cls([1, 2]))
        assert hash(cls((1, 2))) == hash(cls((1, 2))), qualified


def test_dataclass_decorators_decide_hash_as_said():
    """Each entry of DATACLASS, applied bare, makes instances hashable by their fields exactly
    when it freezes by default, and unhashable otherwise (eq without frozen)."""
    import importlib

    from jaxlint.analysis.host.host_value import DATACLASS

    for qualified, frozen in sorted(DATACLASS.items()):
        module, name = qualified.rsplit(".", 1)
        try:
            maker = getattr(importlib.import_module(module), name)
        except ImportError:
            continue
        cls = maker(type("Holder", (), {"__annotations__": {"held": object}, "__module__": __name__}))
        if frozen:
            with pytest.raises(TypeError):
                hash(cls([1, 2]))
            assert hash(cls((1, 2))) == hash(cls((1, 2))), qualified
        else:
            with pytest.raises(TypeError):
                hash(cls((1, 2)))


def test_nnx_data_classes_are_variables_or_graph_nodes():
    nnx = pytest.importorskip("flax.nnx")
    from flax.nnx import graphlib

    for name in jax_api.NNX_DATA_CLASSES:
        cls = getattr(nnx, name)
        assert issubclass(cls, nnx.Variable) or graphlib.is_node_type(cls), name


def _stage_runners():
    """How to run a probe function under each transform of the table, with concrete inputs."""
    x = jax.numpy.ones(3)
    whole = lambda t, f: t(f)(x)  # noqa: E731
    scalar = lambda t, f: t(lambda y: f(y).sum())(x)  # noqa: E731
    return {
        "jax.jit": whole,
        "jax.vmap": whole,
        "jax.pmap": lambda t, f: t(f)(x[None]),
        "jax.checkpoint": whole,
        "jax.remat": whole,
        "jax.eval_shape": lambda t, f: t(f, x),
        "jax.make_jaxpr": whole,
        "jax.lax.scan": lambda t, f: t(lambda c, y: (f(c), None), 0.0, x),
        "jax.lax.fori_loop": lambda t, f: t(0, 3, lambda i, c: f(c), 0.0),
        "jax.lax.while_loop": lambda t, f: t(lambda c: f(c) < 3, lambda c: c + 1, 0.0),
        "jax.lax.cond": lambda t, f: t(True, f, lambda c: c, 1.0),
        "jax.lax.switch": lambda t, f: t(0, [f, lambda c: c], 1.0),
        "jax.lax.map": lambda t, f: t(f, x),
        "jax.lax.associative_scan": lambda t, f: t(lambda a, b: f(a) + b, x),
        "jax.grad": scalar,
        "jax.value_and_grad": scalar,
        "jax.jacfwd": whole,
        "jax.jacrev": whole,
        "jax.hessian": scalar,
    }


@pytest.mark.parametrize("name", sorted(_stage_runners()))
def test_transforms_that_stage_trace_operations_on_concrete_values(name):
    """``Transform.stages``: inside the function, a JAX operation on a NumPy constant gives a
    tracer exactly under the transforms that stage (jit, lax bodies...), not under vmap/grad."""
    import importlib

    import numpy as np

    from jaxlint.analysis.model.transform_table import TRANSFORMS

    module, _, attr = name.rpartition(".")
    transform = getattr(importlib.import_module(module), attr)
    table = np.ones(3)
    seen = []

    def probe(y):
        seen.append(isinstance(jax.numpy.sum(table), jax.core.Tracer))
        return y

    _stage_runners()[name](transform, probe)
    assert seen and all(s == TRANSFORMS[name].stages for s in seen), (name, seen)


def test_layer_tables_name_callable_modules_of_their_libraries():
    import importlib

    bases = {"flax.linen.": ("flax.linen", "Module"), "flax.nnx.": ("flax.nnx", "Module"), "equinox.nn.": ("equinox", "Module")}
    for prefix, names in jax_api.LAYER_NAMESPACES:
        pytest.importorskip(prefix.split(".")[0])
        module = importlib.import_module(prefix.rstrip("."))
        base_module, base_name = bases[prefix]
        base = getattr(importlib.import_module(base_module), base_name)
        for name in names:
            cls = getattr(module, name)
            assert isinstance(cls, type) and issubclass(cls, base) and callable(getattr(cls, "__call__", None)), f"{prefix}{name}"
            assert jax_api.is_layer_class(prefix + name)
    assert not jax_api.is_layer_class("flax.nnx.Rngs") and not jax_api.is_layer_class("flax.linen.Module")


def test_a_layer_called_on_a_traced_input_returns_a_tracer():
    nn = pytest.importorskip("flax.linen")
    nnx = pytest.importorskip("flax.nnx")
    eqx = pytest.importorskip("equinox")
    jnp = jax.numpy
    seen = []
    dense = nn.Dense(2)
    variables = dense.init(jax.random.key(0), jnp.ones(3))
    linear = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    eqx_linear = eqx.nn.Linear(3, 2, key=jax.random.key(0))

    @jax.jit
    def f(x):
        seen.extend([dense.apply(variables, x), linear(x), eqx_linear(x)])
        return x

    f(jnp.ones(3))
    assert all(isinstance(v, jax.core.Tracer) for v in seen)


def test_elementwise_functions_keep_the_broadcast_shape_in_numpy_and_jax_numpy():
    """The table's names exist in both modules and compute element by element (a name jax.numpy
    dropped, such as ``fix``, would make a rewrite to ``jnp`` fail)."""
    import numpy as np

    a, b = np.ones((2, 1)), np.ones((1, 3))
    for name in sorted(jax_api.ELEMENTWISE_FUNCS):
        for module in (np, jax.numpy):
            fn = getattr(module, name)
            if name == "where":
                args, shape = (a > 0, a, b), (2, 3)
            elif name in _UNARY:
                args, shape = (a,), (2, 1)
            else:
                args, shape = (a, b), (2, 3)
            assert np.shape(fn(*args)) == shape, (module.__name__, name)


_UNARY = frozenset(
    "abs absolute negative positive sign sqrt cbrt square reciprocal exp exp2 expm1 log log2 log10 log1p sin cos tan "
    "arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh deg2rad rad2deg degrees radians floor ceil trunc "
    "rint isnan isinf isfinite signbit logical_not".split()
)


def test_a_linen_module_is_one_leaf_that_jit_cannot_trace_and_an_nnx_module_a_pytree():
    # What JAX209 takes for a Linen module passed for a traced parameter (classes.is_linen_module).
    nn = pytest.importorskip("flax.linen")
    nnx = pytest.importorskip("flax.nnx")
    import jax.numpy as jnp

    class Head(nn.Module):
        features: int

    head = Head(2)
    assert jax.tree_util.tree_leaves(head) == [head]
    with pytest.raises(TypeError, match="as an abstract array"):
        jax.jit(lambda m, x: x)(head, 1.0)

    class Layer(nnx.Module):
        def __init__(self):
            self.w = nnx.Param(jnp.ones(2))

    assert [type(leaf) for leaf in jax.tree_util.tree_leaves(Layer())] == [type(jnp.ones(2))]


# Functions whose answers the rules' examples and fixtures stand on.
KNOWN_CONCRETE = (
    "jax.numpy.zeros",
    "jax.numpy.nonzero",
    "jax.numpy.where",
    "jax.numpy.repeat",
    "jax.numpy.bincount",
    "jax.numpy.sum",
    "jax.ops.segment_sum",
    "jax.nn.one_hot",
    "jax.lax.dynamic_slice",
    "jax.random.normal",
)


def _concrete_args_sample():
    """The known functions, and a fixed random sample of those in the table and of those the
    table leaves out (every argument may be traced, or no call could be traced)."""
    names = [name for name, _ in jax_tables.public_functions()]
    listed = sorted(set(CONCRETE_ARGS) & set(names) - set(KNOWN_CONCRETE))
    unlisted = sorted(set(names) - set(CONCRETE_ARGS))
    rng = random.Random(20261206)
    return sorted(set(KNOWN_CONCRETE) | set(rng.sample(listed, 20)) | set(rng.sample(unlisted, 10)))


def test_the_arguments_jax_needs_concrete_are_jaxs_own_answer():
    """scripts/jax_tables.py traces each function with one argument at a time made a tracer;
    tracing a sample again gives the table's answers."""
    sample = _concrete_args_sample()
    version, derived = jax_tables.concrete_args(set(sample))
    got = {name: tuple(derived.get(name, ())) for name in sample}
    # what the rules' examples rely on holds in the JAX installed here, whatever its release
    assert got["jax.numpy.zeros"][0][:4] == (0, "shape", "shape", ("whole", "items"))
    assert (None, "size") in got["jax.numpy.nonzero"][0][4]
    assert {(1, "x"), (2, "y"), (None, "size")} <= set(got["jax.numpy.where"][0][4])
    assert (None, "total_repeat_length") in got["jax.numpy.repeat"][0][4]
    assert (2, "num_segments") in got["jax.ops.segment_sum"][0][4]
    assert got["jax.nn.one_hot"][0][:2] == (1, "num_classes")
    assert (1, "axis") in [e[:2] for e in got["jax.numpy.sum"]]
    # with the release the table was written from, every answer in the sample is the table's
    # (another release may differ: scripts/jax_tables.py writes the table again)
    if version == JAX_VERSION:
        assert got == {name: CONCRETE_ARGS.get(name, ()) for name in sample}


def test_library_frame_tables_match_the_installed_libraries():
    # The classes of Haiku and Linen whose call writes the library's frame, read again from the
    # installed libraries (scripts/library_frame_tables.py).
    pytest.importorskip("haiku")
    pytest.importorskip("flax")
    import library_frame_tables

    from jaxlint.analysis.jax import library_frames

    for name, found in library_frame_tables.tables().items():
        assert sorted(getattr(library_frames, name)) == found, name
