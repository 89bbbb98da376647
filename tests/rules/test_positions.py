"""Where each finding points (line and 1-based column of the reported node)."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

SRC = textwrap.dedent(
    """\
    from functools import partial
    import jax
    import jax.numpy as jnp
    import numpy as np

    history = []
    scale = 1.0


    @jax.jit
    def f(x, n, i):
        if x.sum() > 0:
            x = -x
        while x.max() > 1:
            x = x / 2
        for _ in range(n):
            x = x + 1
        y = int(x[0])
        assert (x > 0).all()
        z = min(x, 1.0)
        w = np.exp(x)
        v = jnp.zeros(n)
        print("x", x)
        history.append(x)
        x[0] = 1.0
        return x * scale + y + z + w + v + [1, 2][i]


    @partial(jax.jit, static_argnums=(1,))
    def g(x, w: jax.Array):
        return x


    @partial(jax.jit, static_argnames=("nope",))
    def h(x):
        return x


    g(jnp.ones(2), [1, 2])
    scale = 2.0
    """
)


def test_positions():
    got = {(f.code, f.line, f.column, f.end_line, f.end_column) for f in lint_source(SRC, "m.py", rule_config()).findings}
    assert got == {
        ("JAX101", 12, 8, 12, 19),  # the condition
        ("JAX102", 14, 11, 14, 22),  # the condition
        ("JAX103", 16, 14, 16, 22),  # the range() call
        ("JAX104", 18, 9, 18, 18),  # the int() call
        ("JAX105", 19, 5, 19, 25),  # the assert statement
        ("JAX106", 20, 9, 20, 20),  # the min() call
        ("JAX107", 21, 9, 21, 18),  # the NumPy call
        ("JAX108", 22, 19, 22, 20),  # the shape argument
        ("JAX302", 23, 5, 23, 18),  # the print call
        ("JAX303", 24, 5, 24, 22),  # the mutating call
        ("JAX304", 25, 5, 25, 15),  # the subscript assignment
        ("JAX301", 26, 16, 26, 21),  # the read of the captured name
        ("JAX103", 26, 40, 26, 49),  # the Python list index
        ("JAX201", 30, 10, 30, 11),  # the parameter
        ("JAX203", 34, 36, 34, 42),  # the static_argnames value
        ("JAX202", 39, 16, 39, 22),  # the argument at the call site
    }
