# source: https://github.com/ryan112358/mbi/commit/8a474bb32025a7b574e01a8dda4f32d6ed76473a
# category: R
# expect: ok
# via: pytree-class, dataclass, jit-decorator, host-loop
# sink: static-metadata
"""mbi's `Factor` carries its `Domain` as static pytree metadata, and `Domain` compared and
hashed its optional value labels too; factors over the same attributes and sizes that differed
only in labels therefore had different treedefs and compiled the jitted code again.  The commit
excludes `labels` from the domain's equality and hash."""
import dataclasses
from typing import Any

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Domain:
    attributes: tuple
    shape: tuple
    labels: Any = dataclasses.field(default=None, compare=False)

    @staticmethod
    def fromdict(config, labels=None):
        return Domain(tuple(config), tuple(config.values()), labels)


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass(frozen=True)
class Factor:
    domain: Domain
    values: jax.Array

    def tree_flatten(self):
        return (self.values,), self.domain

    @classmethod
    def tree_unflatten(cls, domain, children):
        return cls(domain, *children)


@jax.jit
def normalize(factor):
    return Factor(factor.domain, factor.values / factor.values.sum())


if __name__ == "__main__":
    config = {"age": 3, "sex": 2}
    synthetic = Factor(Domain.fromdict(config), jnp.arange(6.0).reshape(3, 2) + 1)
    real = Factor(
        Domain.fromdict(config, labels=(("young", "mid", "old"), ("f", "m"))),
        jnp.ones((3, 2)),
    )
    for factor in [synthetic, real]:
        print(normalize(factor).values.sum(axis=1))
