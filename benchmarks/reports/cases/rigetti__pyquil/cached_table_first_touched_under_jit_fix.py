# source: https://github.com/rigetti/pyquil/pull/1860
# category: C
# expect: ok
# via: dataclass, jit-call, method
# sink: attribute-write
"""The simulator dataclass forces every `cached_property` in `__post_init__`, so the table is built
eagerly before any trace and later jitted or eager reads see a concrete array."""
from dataclasses import dataclass
from functools import cached_property

import jax
import jax.numpy as jnp


def force_cached_properties(obj) -> None:
    for klass in type(obj).__mro__:
        for name, attr in vars(klass).items():
            if isinstance(attr, cached_property):
                getattr(obj, name)


@dataclass(frozen=True, eq=False)
class GoodEager:
    n: int

    def __post_init__(self):
        force_cached_properties(self)

    @cached_property
    def table(self):
        return jnp.eye(self.n) * 3.0


if __name__ == "__main__":
    sim = GoodEager(3)
    print("jitted:", jax.jit(lambda x: sim.table @ x)(jnp.ones(3)))
    print("eager:", sim.table @ jnp.ones(3))
