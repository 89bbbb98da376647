# source: https://github.com/beartype/plum/pull/158
# category: C
# expect: stale
# via: jit-decorator, helper, class-attribute
# sink: closure-global
"""A jitted algorithm calls a plum-dispatched function; the method table is consulted while
tracing, so after myfun is re-registered for the same signature the compiled algorithm keeps
returning the old method's result."""
import inspect

import jax
import jax.numpy as jnp


class Function:
    def __init__(self, name):
        self.name = name
        self._methods = {}

    def register(self, f):
        sig = tuple(p.annotation for p in inspect.signature(f).parameters.values())
        self._methods[sig] = f

    def __call__(self, *args):
        for sig, method in self._methods.items():  # <-- bug
            if all(isinstance(a, t) for a, t in zip(args, sig)):
                return method(*args)  # <-- bug
        raise LookupError(f"{self.name}{tuple(type(a) for a in args)} could not be resolved.")


class Dispatcher:
    _functions = {}

    def __call__(self, f):
        fn = self._functions.setdefault(f.__name__, Function(f.__name__))
        fn.register(f)
        return fn


dispatch = Dispatcher()


@dispatch
def myfun(a: jax.Array, b: jax.Array):
    return a * b


@jax.jit
def my_algorithm(a, b):
    return 12 * myfun(a, b)


if __name__ == "__main__":
    a, b = jnp.arange(3.0), jnp.asarray(2.0)
    print(my_algorithm(a, b))

    @dispatch
    def myfun(a: jax.Array, b: jax.Array):  # noqa: F811
        return a + b + 10

    print(my_algorithm(a, b))
