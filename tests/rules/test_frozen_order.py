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
