# source: https://openillumi.com/en/en-jax-jit-dynamic-loop-error-fix
# category: A
# expect: raises
# via: jit-decorator
# sink: range
"""The jitted function drew its own iteration count with `jax.random.randint` and looped with
`for _ in range(num_iters)`; the drawn count is a tracer, so `range` cannot turn it into an int."""
import jax
import jax.numpy as jnp


@jax.jit
def do_stuff(start):
    key = jax.random.PRNGKey(0)
    num_iters = jax.random.randint(key, (), 1, 10)
    x = start
    for _ in range(num_iters):  # <-- bug
        x = x + jnp.sin(x)
    return x


if __name__ == "__main__":
    print(do_stuff(jnp.float32(0.5)))
