# source: https://github.com/patrick-kidger/equinox/issues/268
# category: R
# expect: recompiles
# via: equinox, method, jit-call
# sink: fresh-callable
"""The reporter jitted the bound method `m.foo` of two instances of the same `eqx.Module`: each
bound method is a new callable for `jax.jit`, so the method was traced and compiled again for the
second instance although its inputs had the same shapes and dtypes."""
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
    eqx_jitf1 = jax.jit(m1.foo)
    print(eqx_jitf1(x))
    print(eqx_jitf1(x))
    eqx_jitf2 = jax.jit(m2.foo)
    print(eqx_jitf2(x))  # <-- bug
