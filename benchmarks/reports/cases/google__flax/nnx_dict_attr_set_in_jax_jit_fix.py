# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/module_test.py#L394
# category: C
# expect: ok
# via: flax-nnx, jit-decorator
# sink: attribute-write
"""The `nnx.Dict` is passed to an `nnx.jit` function as an argument instead of being captured;
NNX carries it into the trace and writes the update back to the outer object."""
from flax import nnx


def main():
    m = nnx.Dict(a=nnx.Param(1))

    @nnx.jit
    def f(m):
        m.a.value = 2

    f(m)
    print(m.a.value)


if __name__ == "__main__":
    main()
