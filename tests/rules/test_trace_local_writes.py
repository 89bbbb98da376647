"""JAX303 and writes whose result does not outlive the trace: a variable of a function that
runs while tracing, written by a helper only that function calls as plain Python, is made
afresh by each trace and written as often as the code says."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def found(src, code):
    src = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(src)
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == code]


def test_fold_into_a_local_of_a_helper_called_while_tracing():
    # `finite` is made by each run of all_finite, and visit runs only as plain Python calls
    # made in that run: it is written as often as the code says.
    assert found(
        """
        def all_finite(tree):
            finite = jnp.asarray(True)

            def visit(item):
                nonlocal finite
                if isinstance(item, (tuple, list)):
                    for child in item:
                        visit(child)
                    return
                finite = finite & jnp.all(jnp.isfinite(item))

            visit(tree)
            return finite

        @jax.jit
        def check(a, b):
            return all_finite((a, [b]))
        """,
        "JAX303",
    ) == []


def test_fold_into_a_local_from_a_scan_body_is_still_found():
    # the body is traced once, not run once per element: `count` ends at 1
    assert found(
        """
        @jax.jit
        def count_rows(xs):
            count = 0

            def bump():
                nonlocal count
                count = count + 1

            def body(c, x):
                bump()
                return c + x, x

            jax.lax.scan(body, 0.0, xs)
            return count
        """,
        "JAX303",
    ) == [10]


RENDERER = """
from functools import partial


class Renderer:
    def __init__(self, width):
        self.width = width

    def _draw_zone(self, frame):
        return frame + self.zone

    def _draw_plain(self, frame):
        return frame

    @partial(jax.jit, static_argnums=(0,))
    def render(self, state, frame):
{body}


def show(r, states, frame):
    return [r.render(s, frame) for s in states]
"""


def test_attribute_written_and_read_only_later_in_the_same_trace():
    # `self.zone` is scratch: render writes it, then render and the branch it hands to
    # lax.switch read it, all within one trace
    body = """        self.zone = jnp.roll(state, 1)[: self.width]
        out = jax.lax.switch(state[0].astype(int), [self._draw_zone, self._draw_plain], frame)
        return out * self.zone.sum()"""
    assert found(RENDERER.format(body=body), "JAX303") == []


def test_attribute_read_before_the_write_is_still_found():
    # the branch is handed over before the write: it reads what the previous trace left
    body = """        draw = [self._draw_zone, self._draw_plain]
        self.zone = jnp.roll(state, 1)[: self.width]
        return jax.lax.switch(state[0].astype(int), draw, frame)"""
    assert found(RENDERER.format(body=body), "JAX303") == [20]
