# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/module_test.py#L394
# category: C
# expect: raises
# via: flax-nnx, jit-decorator
# sink: attribute-write
"""An `nnx.Dict` built outside is captured by a `jax.jit` function that assigns one of its
attributes; the object belongs to the outer trace level, so NNX refuses the write from inside
the jit with a TraceContextError."""
import jax
from flax import nnx


def main():
    m = nnx.Dict(a=nnx.Param(1))

    @jax.jit
    def f():
        m.a = 2  # <-- bug

    f()
    print(m.a)


if __name__ == "__main__":
    main()
