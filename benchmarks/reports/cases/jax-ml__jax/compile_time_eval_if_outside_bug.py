# source: https://github.com/jax-ml/jax/issues/9823
# category: A
# expect: raises
# via: jit-decorator
# sink: python-if
"""Following the `ensure_compile_time_eval` docs, `z` is computed eagerly inside the context, but
the comparison `z > 0` is made after leaving it; under jit that comparison is staged out and the
`if` gets a tracer."""
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    with jax.ensure_compile_time_eval():
        y = jnp.sin(3.0)
        z = jnp.sin(y)
    if z > 0:  # <-- bug
        return jnp.sin(x)
    else:
        return jnp.cos(x)


if __name__ == "__main__":
    print(f(0.0))
    print(f(1.0))
