# source: https://github.com/jax-ml/jax/issues/523
# category: A
# expect: ok
# via: jit-call
# sink: range
"""foo needs foo_power as a compile-time constant; jit(foo) without a static spec traces it, so
calling jit_foo(x, 11) hands a tracer to the Python loop."""
import jax
import jax.numpy as jnp


def foo(x, foo_power=10):
    acc = jnp.zeros_like(x)
    term = jnp.ones_like(x)
    for _ in range(foo_power):
        acc = acc + term
        term = term * x
    return acc


jit_foo = jax.jit(foo, static_argnames=("foo_power",))

if __name__ == "__main__":
    x = jnp.linspace(0.0, 0.5, 4)
    print(jit_foo(x, 11))
    print(jit_foo(2 * x, 11))
