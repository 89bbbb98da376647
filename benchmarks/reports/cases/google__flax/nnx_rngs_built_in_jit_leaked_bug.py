# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/rngs_test.py#L68
# category: C
# expect: raises
# via: flax-nnx, jit-decorator
# sink: leaked-tracer
"""An `nnx.Rngs` is created inside a `jax.jit` function and stored in an outer variable with
`nonlocal`; after the call the object still belongs to the finished trace, and drawing a key from
it outside raises TraceContextError."""
import jax
from flax import nnx


def main():
    rngs1 = None

    @jax.jit
    def h():
        nonlocal rngs1
        rngs1 = nnx.Rngs(1)  # <-- bug

    h()
    key = rngs1.params()  # <-- bug
    print(jax.random.normal(key, (2,)))


if __name__ == "__main__":
    main()
