"""JAX301 and the order of events: which writes to a captured variable can come after the
jitted function was traced.  The fixture fixtures/frozen_order.py covers the cases JAX can
check; these are the shapes the oracle cannot run twice (a jitted function built afresh on
every call) or that depend on callers outside the module."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def frozen(src):
    return [(f.line, f.column) for f in lint_source(textwrap.dedent(src), "m.py", rule_config()).findings if f.code == "JAX301"]


HEADER = """
import jax
import jax.numpy as jnp
"""


def test_local_jit_called_again_after_the_rebinding():
    assert frozen(
        HEADER
        + """
def anneal(w, g):
    rate = 0.1

    @jax.jit
    def step(w, g):
        return w - rate * g

    w = step(w, g)
    rate = 0.01
    return step(w, g)
"""
    ) == [(10, 20)]


def test_local_jit_not_called_after_the_rebinding():
    assert frozen(
        HEADER
        + """
def soften(logits):
    temperature = 2.0

    @jax.jit
    def apply(x):
        return x / temperature

    probs = apply(logits)
    temperature = 0.5
    return probs, temperature
"""
    ) == []


def test_local_jit_that_escapes_can_be_called_after_the_rebinding():
    assert frozen(
        HEADER
        + """
def build(logits):
    temperature = 2.0

    @jax.jit
    def apply(x):
        return x / temperature

    apply(logits)
    temperature = 0.5
    return apply
"""
    ) == [(10, 20)]


def test_local_jit_called_from_a_nested_function_after_the_rebinding():
    assert frozen(
        HEADER
        + """
def build(logits):
    temperature = 2.0

    @jax.jit
    def apply(x):
        return x / temperature

    def again():
        return apply(logits)

    apply(logits)
    temperature = 0.5
    return again()
"""
    ) == [(10, 20)]


def test_module_rebinding_after_the_last_call_is_seen_by_importers():
    # An importer calling soften() gets the value traced at import time, not 0.5.
    assert frozen(
        HEADER
        + """
temperature = 2.0

@jax.jit
def soften(x):
    return x / temperature

warm = soften(jnp.ones(3))
temperature = 0.5
"""
    ) == [(9, 16)]


def test_setter_called_only_before_the_first_traced_call():
    assert frozen(
        HEADER
        + """
scale = 1.0

def set_scale(value):
    global scale
    scale = value

@jax.jit
def scaled(x):
    return x * scale

set_scale(2.0)
y = scaled(jnp.ones(3))
"""
    ) == []


def test_setter_called_after_a_traced_call_through_a_helper():
    assert frozen(
        HEADER
        + """
scale = 1.0

def set_scale(value):
    global scale
    scale = value

def configure():
    set_scale(3.0)

@jax.jit
def scaled(x):
    return x * scale

y = scaled(jnp.ones(3))
configure()
"""
    ) == [(16, 16)]


def test_function_that_writes_then_runs_the_step_runs_again_later():
    # run() writes before its step, but its second call writes after the first one's trace.
    assert frozen(
        HEADER
        + """
scale = 1.0

@jax.jit
def scaled(x):
    return x * scale

def run(value):
    global scale
    scale = value
    return scaled(jnp.ones(3))

run(1.0)
run(2.0)
"""
    ) == [(9, 16)]


def test_function_that_writes_then_runs_the_step_once():
    assert frozen(
        HEADER
        + """
scale = 1.0

@jax.jit
def scaled(x):
    return x * scale

def main():
    global scale
    scale = 4.0
    return scaled(jnp.ones(3))

if __name__ == "__main__":
    main()
"""
    ) == []


def test_mutual_recursion_between_callers_terminates():
    assert frozen(
        HEADER
        + """
REGISTRY = {}

def register(name):
    REGISTRY[name] = 1
    if name == "a":
        again(name)

def again(name):
    register(name + "b")

@jax.jit
def read(x):
    return x * REGISTRY["a"]

register("a")
"""
    ) == []


def test_function_that_runs_the_step_once_but_after_another_traced_call():
    # main() runs once, but only after scaled() was traced with the first value.
    assert frozen(
        HEADER
        + """
scale = 1.0

@jax.jit
def scaled(x):
    return x * scale

def main():
    global scale
    scale = 4.0
    return scaled(jnp.ones(3))

warm = scaled(jnp.ones(3))
main()
"""
    ) == [(9, 16)]


def test_assignments_in_branches_that_return_their_own_closure():
    # Each branch binds `table` (by a jitted call) and returns the function it jits: the other
    # branch's assignment never runs after this one's function exists.
    assert frozen(
        HEADER
        + """
def make(x, fast):
    if fast:
        table = jax.jit(lambda: jnp.cumsum(x))()

        @jax.jit
        def f(a):
            return a + table
        return f
    table = jax.jit(lambda: jnp.sort(x))()

    @jax.jit
    def f(a):
        return a * table
    return f
"""
    ) == []


def test_assignment_after_a_branch_that_does_not_return():
    assert frozen(
        HEADER
        + """
def make(x, fast):
    table = x
    if fast:
        @jax.jit
        def f(a):
            return a + table
        f(x)
    table = jnp.sort(x)
    return f(x)
"""
    ) == [(10, 24)]


def test_default_settled_before_the_factory_of_the_closure():
    # `theta` is filled in before `make_step` exists, and each step is made by a call of it.
    assert frozen(
        HEADER
        + """
def integrate(x, ts, theta=None):
    x = jax.jit(lambda: jnp.sin(x))()
    if theta is None:
        theta = 0.5

    def make_step(t0):
        def step(w, t):
            return w * theta + t0, w
        return step

    return jax.lax.scan(jax.checkpoint(make_step(ts[0])), x, ts)
"""
    ) == []


def test_flag_settled_before_the_function_is_jitted_by_call():
    # `hess` is jitted by call after the flag got its final value: no compiled `hess` exists
    # before (and `newton`, which calls it, is first called after it too).
    assert frozen(
        HEADER
        + """
def search(energy, x):
    use_fd = False

    def hess(y):
        return jax.hessian(energy)(y) * 2.0 if use_fd else jax.hessian(energy)(y)

    @jax.jit
    def newton(y):
        return y - hess(y)

    start = jax.jit(lambda: x * 0.5)()
    use_fd = not bool(jnp.isfinite(jax.jit(lambda: energy(start))()))
    y = newton(start)
    hessian = jax.jit(hess)
    return hessian(y), hessian(y + 1.0)
"""
    ) == []


def test_flag_changed_after_the_jit_by_call_and_before_a_second_call():
    assert frozen(
        HEADER
        + """
def search(energy, x):
    use_fd = False

    def hess(y):
        return jax.hessian(energy)(y) * 2.0 if use_fd else jax.hessian(energy)(y)

    hessian = jax.jit(hess)
    h = hessian(x)
    use_fd = True
    return h, hessian(x + 1.0)
"""
    ) == [(9, 48)]


def test_rebinding_after_the_last_use_of_a_local_jit_with_a_method_called():
    # `step._cache_size()` is a use of the compiled function, not a way for it to escape.
    assert frozen(
        HEADER
        + """
def bench(batches, pick):
    batcher = pick()

    @jax.jit
    def step(b):
        return batcher(b)

    for b in batches:
        step(b)
    n = step._cache_size()
    batcher = pick()
    return n, batcher
"""
    ) == []
