# source: https://github.com/jax-ml/jax/issues/23065
# category: B
# expect: ok
# via: custom-vjp, jit-call
# sink: static-array
"""An index array is declared in custom_jvp's nondiff_argnums, which treats it like a static value;
under jit it is a tracer, the rule captures it, and taking the jacobian fails on the captured tracer."""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def f(x, indices):
    return x[indices]


@f.defjvp
def f_jvp(primals, tangents):
    x, indices = primals
    x_dot, _ = tangents
    return f(x, indices), x_dot[indices]


f_jit = jax.jit(f)

if __name__ == "__main__":
    x = jnp.arange(10.0)
    indices = jnp.array([1, 3, 5])
    print(jax.jacobian(f_jit)(x, indices))
