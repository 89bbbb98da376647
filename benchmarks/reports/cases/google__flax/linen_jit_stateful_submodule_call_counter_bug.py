# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/linen/linen_transforms_test.py#L2028
# category: C
# expect: stale
# via: flax-linen, jit-decorator, method, host-loop
# sink: closure-global
"""A Linen submodule whose `__call__` is wrapped in `nn.jit` counts its calls twice: in a
`nonlocal` Python integer and in a `counts` variable.  The Python increment runs only while
`nn.jit` traces, so after several applies it reports the number of traces, while the Flax
variable reports every call."""
import jax
import jax.numpy as jnp
import flax.linen as nn


def main():
    n = 0

    class Foo(nn.Module):
        key: int

        @nn.compact
        def __call__(self, x):
            nonlocal n
            n += 1  # <-- bug
            count = self.variable("counts", "count", lambda: 0)
            if not self.is_initializing():
                count.value += 1
            return x

    Foo.__call__ = nn.jit(Foo.__call__)

    class Parent(nn.Module):
        @nn.compact
        def __call__(self, x):
            for _ in range(3):
                x = Foo(0)(x)
            return x

    m = Parent()
    x = jnp.array(1.0)
    counts = m.init({}, x)["counts"]
    for step in range(2):
        y, updates = m.apply({"counts": counts}, x, mutable=["counts"])
        counts = updates["counts"]
        print(step, "python calls:", n, "variable counts:", [int(c) for c in jax.tree.leaves(counts)])


if __name__ == "__main__":
    main()
