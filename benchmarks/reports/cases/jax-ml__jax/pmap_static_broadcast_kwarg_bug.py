# source: https://github.com/jax-ml/jax/issues/3007
# category: B
# expect: raises
# via: pmap, static-argnums
# sink: static-spec
"""`b` is named in pmap's `static_broadcasted_argnums=(1,)`, but the call passes it by keyword;
pmap's static positions only cover positional arguments, so the call is refused."""
import jax
import jax.numpy as jnp


def f(a, b):
    return a + b


if __name__ == "__main__":
    n = jax.local_device_count()
    g = jax.pmap(f, static_broadcasted_argnums=(1,))
    print(g(jnp.ones((n, 1)), b=1))  # <-- bug
