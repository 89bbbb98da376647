# source: https://github.com/smec-ethz/tatva/commit/ad0804931cf57e077274d963ab4e965cf62b0f3b
# category: B
# expect: raises
# via: equinox, dataclass, partial-jit, static-argnums, method
# sink: static-unhashable
"""tatva's `Lifter` (an Equinox module) is meant to be a static argument of a jitted solve step
and hashes its constraints, but `PeriodicMap` is a `@dataclass`, whose generated `__eq__`
replaces the inherited `Constraint.__hash__` with None, so hashing the lifter fails."""
from abc import ABC
from dataclasses import dataclass
from functools import partial

import equinox
import jax
import jax.numpy as jnp


class Constraint(ABC):
    """Abstract base class for conditions applied during lifting."""

    def __hash__(self):
        return hash((type(self), tuple(self.dofs.tolist())))

    def apply_lift(self, u_full):
        return u_full


@dataclass
class PeriodicMap(Constraint):
    dofs: jax.Array
    master_dofs: jax.Array

    def apply_lift(self, u_full):
        """Copy values from ``master_dofs`` into the constrained ``dofs``."""
        return u_full.at[self.dofs].set(u_full[self.master_dofs])


class DirichletBC(Constraint):
    def __init__(self, dofs, values=None):
        self.dofs = dofs
        self.values = jnp.zeros(dofs.shape, dtype=jnp.float32) if values is None else values

    def apply_lift(self, u_full):
        return u_full.at[self.dofs].set(self.values)


class Lifter(equinox.Module):
    free_dofs: jax.Array
    constrained_dofs: jax.Array
    size: int
    size_reduced: int
    constraints: tuple = ()

    def __init__(self, size, /, *constraints):
        self.size = size
        self.constraints = constraints
        constrained = jnp.unique(jnp.concatenate([cond.dofs for cond in constraints]))
        self.free_dofs = jnp.setdiff1d(jnp.arange(size), constrained, assume_unique=True)
        self.constrained_dofs = constrained
        self.size_reduced = int(self.free_dofs.size)

    def __hash__(self):
        return hash((self.size, self.constraints))

    def lift(self, u_reduced, u_full):
        u_full = u_full.at[self.free_dofs].set(u_reduced)
        for condition in self.constraints:
            u_full = condition.apply_lift(u_full)
        return u_full

    def lift_from_zeros(self, u_reduced):
        return self.lift(u_reduced, jnp.zeros(self.size, dtype=u_reduced.dtype))

    def reduce(self, u_full):
        return u_full[self.free_dofs]


@partial(jax.jit, static_argnames=("lifter",))
def solve_step(u_reduced, lifter):
    return lifter.lift_from_zeros(u_reduced)


if __name__ == "__main__":
    lifter = Lifter(
        6,
        DirichletBC(jnp.array([0, 5], dtype=jnp.int32)),
        PeriodicMap(dofs=jnp.array([2], dtype=jnp.int32), master_dofs=jnp.array([1], dtype=jnp.int32)),
    )
    u_reduced = jnp.array([10.0, 20.0, 30.0], dtype=jnp.float32)
    lifted = solve_step(u_reduced, lifter=lifter)  # <-- bug
    print(lifted.tolist(), lifter.reduce(lifted).tolist())
