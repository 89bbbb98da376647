# source: https://github.com/jax-ml/jax/issues/2048
# category: C
# expect: raises
# via: grad, factory-closure, helper
# sink: closure-global
"""A forward-mode derivative helper `D` is nested (`D(f, 1.0)` where `f` itself calls `D`); the
inner function rebinds the enclosing `x` with `nonlocal x; x = y`, so the outer product reads the
inner trace's tracer after that trace ended and JAX raises an UnexpectedTracerError."""
import jax


def D(f, x):
    return jax.jvp(f, (x,), (1.0,))[1]


def f(x):
    def inner(y):
        nonlocal x
        x = y
        return x

    return D(inner, x) * x  # <-- bug


if __name__ == "__main__":
    print(D(f, 1.0))
