"""An object built in traced code holds what its code stored on it: a tuple, list or dict of
tracers stays that container, also where the object is handed to a lax primitive's function
(flattened and rebuilt there, its static metadata as it was).  Under jit ``if obj.field:`` then
tests the container's length, a Python value; testing one of its tracers fails.  Checked under
JAX: ``flipped`` and ``clipped_window`` raise TracerBoolConversionError, the others run."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

SOURCE = """
import jax
import jax.numpy as jnp


class Span:
    def __init__(self, lo, hi):
        self.bounds = (lo, hi)

    def width(self):
        if self.bounds:
            return self.bounds[1] - self.bounds[0]
        return 0.0

    def flipped(self):
        if self.bounds[0] > 0:
            return -self.bounds[0]
        return self.bounds[0]


@jax.tree_util.register_pytree_node_class
class Window:
    def __init__(self, lo, hi, label):
        self.edges = [lo, hi]
        self.label = label

    def tree_flatten(self):
        return (self.edges,), self.label

    @classmethod
    def tree_unflatten(cls, label, children):
        return cls(*children[0], label)


def open_width(w):
    if not w.edges:
        return jnp.zeros(())
    if w.label > 2:
        return w.edges[1] - w.edges[0]
    return w.edges[0]


def clipped(w):
    if w.edges[0] > 0:
        return w.edges[0]
    return w.edges[1]


@jax.jit
def width(x):
    return Span(x, x * 2).width()


@jax.jit
def flipped(x):
    return Span(x, x * 2).flipped()


@jax.jit
def windowed(x):
    w = Window(x, x + 1.0, 3)
    return jax.lax.cond(x > 0, open_width, lambda v: v.edges[0], w)


@jax.jit
def clipped_window(x):
    w = Window(x, x + 1.0, 3)
    return jax.lax.cond(x > 0, clipped, lambda v: v.edges[0], w)

"""


def lines(code):
    src = textwrap.dedent(SOURCE)
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == code]


def test_a_stored_container_tests_its_length_and_its_elements_stay_tracers():
    # 11: ``if self.bounds:`` and 36: ``if not w.edges:`` test the containers (silent);
    # 38: ``w.label`` is the pytree's metadata, a Python int; 16 and 44 test a tracer
    assert lines("JAX101") == [16, 44]
