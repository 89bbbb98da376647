# source: https://github.com/beartype/plum/pull/158
# category: C
# expect: ok
# via: jit-decorator, helper, class-attribute
# sink: closure-global
"""Each dispatched method is jitted on its own and the algorithm dispatches outside any trace, so
re-registering myfun takes effect on the next call of the algorithm."""
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
        for sig, method in self._methods.items():
            if all(isinstance(a, t) for a, t in zip(args, sig)):
                return method(*args)
        raise LookupError(f"{self.name}{tuple(type(a) for a in args)} could not be resolved.")


class Dispatcher:
    _functions = {}

    def __call__(self, f):
        fn = self._functions.setdefault(f.__name__, Function(f.__name__))
        fn.register(f)
        return fn


dispatch = Dispatcher()


@dispatch
@jax.jit
def myfun(a: jax.Array, b: jax.Array):
    return a * b


def my_algorithm(a, b):
    return 12 * myfun(a, b)


if __name__ == "__main__":
    a, b = jnp.arange(3.0), jnp.asarray(2.0)
    print(my_algorithm(a, b))

    @dispatch
    @jax.jit
    def myfun(a: jax.Array, b: jax.Array):  # noqa: F811
        return a + b + 10

    print(my_algorithm(a, b))
