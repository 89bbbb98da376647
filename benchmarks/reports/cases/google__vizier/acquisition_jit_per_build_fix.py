# source: https://github.com/google/vizier/commit/bd27c53c65c326e98e4e6202a977fa038d7fc573
# category: R
# expect: ok
# via: method, factory-closure, jit-decorator, dataclass, host-loop
# sink: fresh-callable
"""The GP bandit's acquisition builder defines its jitted `acquisition_on_array` as a closure
inside `build`, and the designer rebuilds on every suggestion round, so each round jits a new
function and traces it again. The refactor makes the acquisition a module-level jitted function
that takes the acquisition function (a flax struct dataclass) and the data as arguments."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import struct


class Normal(NamedTuple):
    loc: jax.Array
    scale: jax.Array

    def mean(self):
        return self.loc

    def stddev(self):
        return self.scale


def _predictive_dist(xs, features, labels, length_scale=0.5):
    k = jnp.exp(-jnp.sum((xs[:, None, :] - features[None, :, :]) ** 2, -1) / length_scale)
    w = k / (jnp.sum(k, -1, keepdims=True) + 1e-6)
    return Normal(w @ labels, jnp.sqrt(1.0 - jnp.max(k, -1) + 1e-6))


@struct.dataclass
class UCB:
    coefficient: float = 1.8

    def __call__(self, dist, features=None, labels=None):
        return dist.mean() + self.coefficient * dist.stddev()


@jax.jit
def acquisition_on_array(xs, acquisition_fn, features, labels):
    dist = _predictive_dist(xs, features, labels)
    return acquisition_fn(dist, features, labels)


class GPBanditAcquisitionBuilder:
    def __init__(self, acquisition_fn=UCB()):
        self.acquisition_fn = acquisition_fn

    def build(self, features, labels):
        self._features, self._labels = features, labels

    def acquisition_on_array(self, xs):
        return acquisition_on_array(xs, self.acquisition_fn, self._features, self._labels)


class VizierGPBandit:
    def __init__(self):
        self._acquisition_builder = GPBanditAcquisitionBuilder()

    def suggest(self, features, labels, candidates):
        self._acquisition_builder.build(features, labels)
        scores = self._acquisition_builder.acquisition_on_array(candidates)
        return candidates[jnp.argmax(scores)]


if __name__ == "__main__":
    designer = VizierGPBandit()
    key = jax.random.PRNGKey(0)
    features = jax.random.uniform(key, (8, 2))
    labels = jnp.sin(3 * features[:, 0]) + features[:, 1]
    candidates = jax.random.uniform(jax.random.PRNGKey(1), (64, 2))
    for i in range(3):
        best = designer.suggest(features, labels, candidates)
        features = features.at[i].set(best)
        labels = labels.at[i].set(jnp.sin(3 * best[0]) + best[1])
        print(best)
