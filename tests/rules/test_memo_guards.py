"""Code that runs only when a lookup of a lasting memo missed, and fills that memo with what it
made: a jit built there is built once per entry (JAX401), and a Python value written there
while tracing leaves the state a run on every call would leave (JAX303).  A flag set, a memo
reset to None, a local dict made on every call or a test that also lets the code run for
another reason is no such memo."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def found(src, code):
    src = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(src)
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == code]


RUNNER = """
class Runner:
    def __init__(self, scale):
        self.scale = scale
        self._fn = None

    def _build(self):
        scale = self.scale

        @jax.jit
        def run(x):
            return x * scale

        return lambda x: run(x)

    def __call__(self, x):
{body}

def drive(xs):
    r = Runner(2.0)
    return [r(x) for x in xs]
"""


def test_builder_called_when_the_attribute_is_empty_and_stored_there():
    body = """        if self._fn is None:
            self._fn = self._build()
        return self._fn(x)"""
    assert found(RUNNER.format(body=body), "JAX401") == []


def test_builder_called_on_every_call_is_still_found():
    body = """        self._fn = self._build()
        return self._fn(x)"""
    assert found(RUNNER.format(body=body), "JAX401") == [16]


def test_builder_behind_a_test_that_also_passes_for_another_reason():
    # `or self.scale` lets it run on every call with a nonzero scale
    body = """        if self._fn is None or self.scale:
            self._fn = self._build()
        return self._fn(x)"""
    assert found(RUNNER.format(body=body), "JAX401") == [16]


def test_builder_whose_result_is_not_what_the_test_reads():
    # the flag is set, but the function built is thrown away: built on every call
    body = """        if not self.scale:
            self.scale = 1.0
            self._build()
        return self._build()(x)"""
    assert found(RUNNER.format(body=body), "JAX401") == [16]


def test_jit_filling_a_closure_list_once():
    assert found(
        """
        def assemble(points):
            built = []

            def geometry():
                if not built:
                    def inverse(p):
                        return 1.0 / p
                    built.append(jax.jit(inverse)(points))
                return built[0]

            for _ in range(3):
                geometry()
            return geometry
        """,
        "JAX401",
    ) == []


def test_jit_in_a_local_dict_made_on_every_call_is_still_found():
    assert found(
        """
        def apply(x, key):
            cache = {}
            if key not in cache:
                step = jax.jit(lambda v: v * 2)
                cache[key] = step
            return step(x)

        def run(xs):
            return [apply(x, "double") for x in xs]
        """,
        "JAX401",
    ) == [9]


def test_jit_stored_under_a_key_of_an_attribute_after_a_lookup():
    assert found(
        """
        class Solver:
            def solve(self, x, key):
                cache = getattr(self, "_programs", None)
                if cache is None:
                    cache = {}
                    self._programs = cache
                hit = cache.get(key)
                if hit is not None:
                    step = hit
                else:
                    step = jax.jit(lambda v: v + 1)
                    cache[key] = step
                return step(x)

        def run(xs):
            s = Solver()
            return [s.solve(x, "inc") for x in xs]
        """,
        "JAX401",
    ) == []


PALETTE = """
class Renderer:
    def __init__(self):
        self.ids = {{}}
        self.palette = ()
        self.ensure((1, 2, 3))

    def ensure(self, color):
{body}

    @jax.jit
    def render(self, frame):
        self.ensure((1, 2, 3))
        return frame * self.ids[(1, 2, 3)]
"""


def test_lazy_registration_behind_a_membership_test():
    body = """        if color in self.ids:
            return
        self.palette = self.palette + (color,)
        self.ids[color] = len(self.palette)"""
    assert found(PALETTE.format(body=body), "JAX303") == []


def test_registration_on_every_call_is_still_found():
    body = """        self.palette = self.palette + (color,)
        self.ids[color] = len(self.palette)"""
    assert found(PALETTE.format(body=body), "JAX303") == [11]


def test_global_made_once_when_missing_or_unfit():
    assert found(
        """
        _TABLE = None

        class Table:
            def __init__(self, n):
                self.n = n

            def fits(self, n):
                return self.n >= n

        @jax.jit
        def lookup(x):
            global _TABLE
            if _TABLE is None or not _TABLE.fits(3):
                _TABLE = Table(3)
            return x * _TABLE.n
        """,
        "JAX303",
    ) == []


def test_global_counter_bumped_behind_a_test_is_still_found():
    assert found(
        """
        _CALLS = 0

        @jax.jit
        def lookup(x):
            global _CALLS
            if _CALLS is not None:
                _CALLS = _CALLS + 1
            return x * 2
        """,
        "JAX303",
    ) == [10]

