# source: https://github.com/jax-ml/jax/issues/10618
# category: B
# expect: raises
# via: jit-call, static-argnums
# sink: static-spec
"""The reporter named every parameter of `f(a, /, b, *, c)` in `static_argnames`, expecting each
to be static however it is passed; `a` is positional-only, so a name cannot select it, and jit
refuses the spec."""
import jax
import jax.numpy as jnp


def f(a, /, b, *, c):
    x = jnp.arange(a)
    return x * b if c == "scale" else x + b


if __name__ == "__main__":
    static_argnames = ("a", "b", "c")
    jf = jax.jit(f, static_argnames=static_argnames)  # <-- bug
    print(jf(4, 2, c="scale"))
