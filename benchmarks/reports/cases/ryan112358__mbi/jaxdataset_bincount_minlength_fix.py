# source: https://github.com/ryan112358/mbi/commit/64145a996a9dad6a9f294f4453f474270bc86dd7
# category: A
# expect: ok
# via: dataclass, method, grad, jit-call, factory-closure
# sink: shape-from-value
"""JaxDataset.project counted records with jnp.bincount(..., minlength=length); once the weighted
marginals are computed inside the jitted loss, the record indices are traced and bincount cannot
work out its output length from them."""
import math
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class Domain:
    attrs: tuple
    shape: tuple

    def project(self, cols):
        return Domain(tuple(cols), tuple(self.shape[self.attrs.index(c)] for c in cols))


@dataclass
class JaxDataset:
    data: dict
    domain: Domain
    weights: jax.Array | None = None

    def project(self, cols):
        if isinstance(cols, str):
            cols = [cols]
        domain = self.domain.project(cols)
        dims = domain.shape
        length = math.prod(dims)
        multi_index = [self.data[a] for a in domain.attrs]
        linear_indices = jnp.ravel_multi_index(tuple(multi_index), dims, mode="wrap", order="C")
        counts = jnp.bincount(linear_indices, weights=self.weights, length=length)
        return counts.reshape(dims)


def estimate(seed, domain, cliques, targets, known_total):
    def params_loss(log_weights):
        weights = jax.nn.softmax(log_weights) * known_total
        weighted = JaxDataset(seed, domain, weights)
        return sum(jnp.sum((weighted.project(cl) - targets[cl]) ** 2) for cl in cliques)

    loss_and_grad = jax.jit(jax.value_and_grad(params_loss))
    log_weights = jnp.zeros(len(seed[domain.attrs[0]]))
    for _ in range(50):
        loss, grad = loss_and_grad(log_weights)
        log_weights = log_weights - 0.01 * grad
    return loss


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    domain = Domain(("a", "b"), (3, 4))
    seed = {"a": jnp.asarray(rng.integers(0, 3, 200)), "b": jnp.asarray(rng.integers(0, 4, 200))}
    cliques = [("a",), ("a", "b")]
    targets = {("a",): jnp.array([80.0, 60.0, 60.0]), ("a", "b"): jnp.full((3, 4), 200.0 / 12)}
    print(estimate(seed, domain, cliques, targets, 200.0))
