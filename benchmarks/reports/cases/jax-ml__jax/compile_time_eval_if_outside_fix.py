# source: https://github.com/jax-ml/jax/issues/9823
# category: A
# expect: ok
# via: jit-decorator
# sink: python-if
"""`z` and the comparison `z > 0` are both computed inside `ensure_compile_time_eval`, so the
flag tested by the `if` is a concrete value even under jit."""
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    with jax.ensure_compile_time_eval():
        y = jnp.sin(3.0)
        z = jnp.sin(y)
        positive = z > 0
    if positive:
        return jnp.sin(x)
    else:
        return jnp.cos(x)


if __name__ == "__main__":
    print(f(0.0))
    print(f(1.0))
