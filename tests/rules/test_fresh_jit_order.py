"""JAX301 for jitted functions that their enclosing function builds afresh: stale only when one
compiled function is called again after a rebinding.  fixtures/nested_entries/fresh_jit_order.py
runs the shapes JAX can check twice; these are the ones built anew on every call."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source


def frozen(src):
    src = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(src)
    return [(f.line, f.column) for f in lint_source(src, "m.py", rule_config()).findings if f.code == "JAX301"]


def test_vmapped_closure_jitted_and_called_on_the_spot():
    assert frozen(
        """
        def update(state, keys):
            def one(key):
                return state + jax.random.normal(key)
            out = jax.jit(jax.vmap(one))(keys)
            state = out.mean()
            state = state + 1
            return state
        """
    ) == []


def test_vmapped_closure_kept_and_called_after_the_rebinding():
    assert frozen(
        """
        def update(state, keys):
            def one(key):
                return state + jax.random.normal(key)
            step = jax.jit(jax.vmap(one))
            out = step(keys)
            state = out.mean()
            return step(keys) + state
        """
    ) == [(6, 16)]


def test_jitted_closure_that_escapes_is_not_fresh():
    assert frozen(
        """
        def build(state, keys):
            def one(key):
                return state + key
            step = jax.jit(one)
            out = step(keys)
            state = out.mean()
            return step
        """
    ) == [(6, 16)]


def test_fresh_lambda_jitted_after_the_rebinding():
    assert frozen(
        """
        def temperatures(logits):
            t = 2.0
            warm = jax.jit(lambda x: x / t)(logits)
            t = 0.5
            cold = jax.jit(lambda x: x / t)(logits)
            return warm, cold
        """
    ) == []


def test_one_lambda_called_across_the_rebinding():
    assert frozen(
        """
        def temperatures(logits):
            t = 2.0
            soften = jax.jit(lambda x: x / t)
            warm = soften(logits)
            t = 0.5
            return warm, soften(logits)
        """
    ) == [(6, 36)]


def test_closure_made_in_each_iteration_is_fresh():
    assert frozen(
        """
        def sweep(x):
            out = []
            for scale in (1.0, 2.0):
                def scaled(v):
                    return v * scale
                out.append(jax.jit(scaled)(x))
            return out
        """
    ) == []


def test_closure_made_before_the_loop_is_reused_by_each_iteration():
    assert frozen(
        """
        def sweep(x):
            def scaled(v):
                return v * scale
            step = jax.jit(scaled)
            out = []
            for scale in (1.0, 2.0):
                out.append(step(x))
            return out
        """
    ) == [(6, 20)]


def test_same_closure_jitted_twice_shares_one_trace():
    # jax.jit(f) of the same function object reuses f's trace: the second jit is not fresh.
    assert frozen(
        """
        def run(x):
            s = 1.0
            def f(v):
                return v * s
            a = jax.jit(f)(x)
            s = 2.0
            return a, jax.jit(f)(x)
        """
    ) == [(7, 20)]
