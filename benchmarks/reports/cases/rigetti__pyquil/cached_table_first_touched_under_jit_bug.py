# source: https://github.com/rigetti/pyquil/pull/1860
# category: C
# expect: raises
# via: dataclass, jit-call, method
# sink: attribute-write
"""A frozen simulator dataclass builds its `table` lazily with `functools.cached_property`; when the
first read happens inside a jitted function the property stores that trace's tracer in the
instance dictionary, so the next eager use of the table raises UnexpectedTracerError."""
from dataclasses import dataclass
from functools import cached_property

import jax
import jax.numpy as jnp


@dataclass(frozen=True, eq=False)
class BadLazy:
    n: int

    @cached_property
    def table(self):
        return jnp.eye(self.n) * 3.0  # <-- bug


if __name__ == "__main__":
    sim = BadLazy(3)
    print("jitted:", jax.jit(lambda x: sim.table @ x)(jnp.ones(3)))
    print("eager:", sim.table @ jnp.ones(3))  # <-- bug
