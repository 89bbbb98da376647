"""A write from a traced nested def into a parameter of the function around it (JAX303) is a
leak only when the module shows that parameter holds a Python object: the method's ``self``,
or what every caller passes.  A parameter nothing shows may be a Pallas kernel's Ref, handed
to ``pallas_call`` by a launcher in another module, and a Ref is meant to be written."""

import textwrap

import pytest

from jaxlint import lint_source
from jaxlint.config import Config

KERNEL = """
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl

    {launch}


    def kernel(x_ref, o_ref):
        def body(i, carry):
            o_ref[i] = x_ref[i] * 2.0 + carry
            return carry + 1.0

        jax.lax.fori_loop(0, 8, body, 0.0)


    def double(x):
        return launch(kernel, x)
"""

ELSEWHERE = "from kernels_launcher import launch"
HERE = """def launch(k, x):
        return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)"""


def _codes(text):
    return [(f.line, f.code) for f in lint_source(textwrap.dedent(text).lstrip("\n"), "example.py", Config(preview=True)).findings]


def test_a_parameter_nothing_shows_is_not_taken_for_a_python_object():
    assert _codes(KERNEL.format(launch=ELSEWHERE)) == []


def test_the_kernel_writes_its_ref_on_every_step():
    namespace = {"__name__": "example"}
    exec(compile(textwrap.dedent(KERNEL.format(launch=HERE)).lstrip("\n"), "example.py", "exec"), namespace)
    jnp = namespace["jnp"]
    out = namespace["jax"].jit(namespace["double"])(jnp.arange(8.0))
    assert out.tolist() == [2.0 * i + i for i in range(8)]


def test_a_method_writing_self_from_a_nested_traced_def_is_still_found():
    src = """
        import jax


        class Annealer:
            def __init__(self):
                self.last = None

            def make_step(self):
                def step(x):
                    self.last = x
                    return x * 2

                return jax.jit(step)
    """
    assert _codes(src) == [(10, "JAX303")]
