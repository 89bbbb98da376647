# source: https://github.com/ryan112358/mbi/pull/196
# category: R
# expect: recompiles
# via: pytree-class, dataclass, jit-decorator, host-loop
# sink: changing-static
"""mbi's `LinearMeasurement` kept `stddev` as static pytree metadata (`jax.tree.static`), so
it became part of the treedef and of the jit cache key: two sets of measurements that differed
only in their noise level compiled the jitted marginal loss again.  The pull request makes
`stddev` a dynamic leaf (it is only a weight in the loss)."""
import dataclasses

import jax
import jax.numpy as jnp

Clique = tuple


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class LinearMeasurement:
    noisy_measurement: jax.Array
    clique: Clique = jax.tree.static()
    stddev: float = jax.tree.static(default=1.0)

    def __post_init__(self):
        object.__setattr__(self, "clique", tuple(self.clique))


@jax.jit
def marginal_loss(marginals, measurements):
    loss = 0.0
    for m in measurements:
        diff = marginals[m.clique] - m.noisy_measurement
        loss = loss + jnp.sum(diff**2) / m.stddev
    return loss


def measure(key, marginals, stddev):
    out = []
    for clique, mu in marginals.items():
        key, sub = jax.random.split(key)
        y = mu + stddev * jax.random.normal(sub, mu.shape)
        out.append(LinearMeasurement(y, clique, stddev))
    return out


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    marginals = {("A",): jnp.full(3, 10.0), ("A", "B"): jnp.full(6, 5.0)}
    for stddev in [1.0, 2.0, 4.0]:  # a sweep over privacy budgets
        key, sub = jax.random.split(key)
        measurements = measure(sub, marginals, stddev)
        print(stddev, round(float(marginal_loss(marginals, measurements)), 3))  # <-- bug
