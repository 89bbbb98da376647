# source: https://github.com/patrick-kidger/equinox/issues/268
# category: R
# expect: ok
# via: equinox, method, jit-call
# sink: fresh-callable
"""The unbound method is jitted once and each module is passed to it as an argument: both
instances are pytrees of the same structure, so the second call reuses the first compilation."""
import equinox as eqx
import jax
import jax.numpy as jnp


class MyModule(eqx.Module):
    y: float

    def foo(self, x):
        return self.y * x


if __name__ == "__main__":
    m1 = MyModule(y=1.0)
    m2 = MyModule(y=2.0)
    x = jnp.arange(3.0)
    jit_foo = jax.jit(MyModule.foo)
    print(jit_foo(m1, x))
    print(jit_foo(m1, x))
    print(jit_foo(m2, x))
