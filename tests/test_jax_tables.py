"""The interpreter's tables of JAX knowledge, checked against the installed JAX."""

import pytest

jax = pytest.importorskip("jax")

from jaxlint.analysis import jax_api  # noqa: E402


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
