# source: https://github.com/jax-ml/jax/issues/2783
# category: A
# expect: ok
# via: grad
# sink: int-float-bool
"""The branch compares the value itself (x >= 0), which grad can evaluate on its concrete primal,
instead of casting it with float()."""
import jax


def func(x):
    return x if x >= 0.0 else -x


if __name__ == "__main__":
    print(func(3.0))
    print(jax.grad(func)(3.0))
    print(jax.grad(func)(-2.0))
