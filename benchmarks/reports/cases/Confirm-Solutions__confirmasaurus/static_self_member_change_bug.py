# source: https://github.com/Confirm-Solutions/confirmasaurus/pull/38
# category: C
# expect: stale
# via: method, static-argnums, partial-jit
# sink: closure-global
"""The project's JAX notes record that a method jitted with `self` in `static_argnums` is keyed on
the object's identity, so its members are baked in as constants: after `W.x = 9` the method still
returns 10."""
from functools import partial

import jax


class wow:
    def __init__(self, x):
        self.x = x

    @partial(jax.jit, static_argnums=(0,))
    def f(self):
        return self.x  # <-- bug


if __name__ == "__main__":
    W = wow(10)
    print(W.f())
    W.x = 9
    print(W.f())
