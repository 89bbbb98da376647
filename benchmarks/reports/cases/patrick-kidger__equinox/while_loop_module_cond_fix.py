# source: https://github.com/patrick-kidger/equinox/commit/d3a01c8d1b5531f193f11514c0189104b8f62136
# category: B
# expect: ok
# via: equinox, lax-while, helper, jit-decorator, pytree-class
# sink: static-unhashable
"""Equinox's checkpointed while-loop, when not differentiated, handed the user's `cond_fun`
straight to lax.while_loop (only `body_fun` was wrapped in a lambda).  lax.while_loop hashes
the callables it is given, and a cond_fun that is an eqx.Module holding a traced tolerance is
unhashable; the fix wraps cond_fun in a lambda as well.  (The loop helper is reduced here.)"""
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import lax


def checkpointed_while_loop(cond_fun, body_fun, init_val):
    # hashable wrappers
    return lax.while_loop(lambda x: cond_fun(x), lambda x: body_fun(x), init_val)


class NotConverged(eqx.Module):
    tol: jax.Array

    def __call__(self, carry):
        _, err = carry
        return err > self.tol


def halve(carry):
    x, err = carry
    return 0.5 * x, 0.5 * err


@eqx.filter_jit
def solve(x, tol):
    return checkpointed_while_loop(NotConverged(tol), halve, (x, jnp.array(1.0)))


if __name__ == "__main__":
    x, err = solve(jnp.ones(3), jnp.array(1e-3))
    print(x, err)
