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


STORE = """
        CONTEXT = {}

        def enter(**values):
            CONTEXT.update(values)

        def leave():
            CONTEXT.clear()
        """


def test_value_saved_and_cleared_in_the_same_trace_is_silent():
    assert found(
        STORE
        + """
        @jax.jit
        def step(x, t):
            enter(t=t)
            y = x * CONTEXT["t"]
            leave()
            return y
        """,
        "JAX303",
    ) == []


def test_clear_that_an_early_return_can_skip_keeps_the_write():
    # a call with early=True traces a path that returns before the clear: the write outlives it
    assert found(
        STORE
        + """
        def step(x, t, early):
            enter(t=t)
            if early:
                return x
            leave()
            return x * t

        f = jax.jit(step, static_argnames="early")
        """,
        "JAX303",
    ) == [7]


def test_clear_on_one_branch_only_keeps_the_write():
    assert found(
        STORE
        + """
        def step(x, t, flag):
            enter(t=t)
            if flag:
                leave()
            return x * t

        f = jax.jit(step, static_argnums=2)
        """,
        "JAX303",
    ) == [7]


def test_memoised_helper_called_again_after_the_clear_keeps_the_write():
    # the second `enter(t=t)` has the same abstract arguments: not interpreted again, its
    # write is still made, and nothing clears it
    assert found(
        STORE
        + """
        @jax.jit
        def step(x, t):
            enter(t=t)
            leave()
            enter(t=t)
            return x * t
        """,
        "JAX303",
    ) == [7]


def test_global_set_for_one_call_and_set_back_is_silent():
    src = """
        SCALE = None

        def scaled(x):
            return x * SCALE

        @jax.jit
        def apply(x, s):
            global SCALE
            saved = SCALE
            SCALE = s
            y = scaled(x)
            SCALE = saved
            return y

        @jax.jit
        def apply_and_keep(x, s):
            global SCALE
            SCALE = s
            return scaled(x)
        """
    assert found(src, "JAX303") == [21]


def test_branch_dead_for_the_object_built_is_silent():
    src = """
        class Layer:
            def __init__(self, w, record=None):
                self.w = w
                self.record = record
                self.seen = []

            def apply(self, x):
                if self.record is not None:
                    self.seen.append(x)
                return x * self.w

        PLAIN = Layer(2.0)
        RECORDING = Layer(2.0, record=True)

        @jax.jit
        def plain(x):
            return PLAIN.apply(x)
        """
    assert found(src, "JAX303") == []
    recording = "\n        @jax.jit\n        def recording(x):\n            return RECORDING.apply(x)\n"
    assert found(src + recording, "JAX303") == [12]


def test_refs_are_written_in_place_by_design():
    src = """
        from jax.experimental import pallas as pl

        COUNT = jax.new_ref(jnp.zeros((), jnp.int32))

        @jax.jit
        def counted(x):
            COUNT[...] += 1
            return x

        def kernel(x_ref, o_ref):
            o_ref.at[:2][...] = x_ref.at[:2][...] * 2
            rest = o_ref.at[2:]
            rest[...] = x_ref[2:]

        @jax.jit
        def run(x):
            return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
        """
    assert found(src, "JAX303") == [] and found(src, "JAX304") == []


def test_scope_pushed_and_popped_by_other_functions_of_the_trace_is_silent():
    src = """
        SCOPES = []

        def enter(name):
            SCOPES.append(name)

        def leave():
            SCOPES.pop()

        @jax.jit
        def layer(x):
            enter("layer")
            y = x * len(SCOPES)
            leave()
            return y

        def maybe_leave(flag):
            if flag:
                SCOPES.pop()

        def other(x, flag):
            enter("other")
            maybe_leave(flag)
            return x

        f = jax.jit(other, static_argnums=1)
        """
    # the pop that only one path runs leaves the scope pushed on the other (the pop itself
    # takes back what the trace pushed)
    assert found(src, "JAX303") == [7]
