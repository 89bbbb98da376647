# source: https://github.com/jax-ml/jax/issues/2783
# category: A
# expect: raises
# via: grad
# sink: int-float-bool
"""An absolute-value style function branches on float(x); under jax.grad x is a JVP tracer, and
float() refuses to concretize it even though int() would."""
import jax


def func(x):
    return x if float(x) >= 0.0 else -x  # <-- bug


if __name__ == "__main__":
    print(func(3.0))
    print(jax.grad(func)(3.0))
    print(jax.grad(func)(-2.0))
