# source: https://github.com/ryan112358/mbi/pull/126
# category: R
# expect: recompiles
# via: method, static-argnums, factory-closure, dataclass, grad, jit-decorator, host-loop
# sink: fresh-callable
"""`from_linear_measurements` builds a MarginalLossFn around a closure over the measurements, and
ApproxMirrorDescent's jitted `_step` takes it as a static argument; each `estimate` on new
measurements of the same cliques brings a new closure, so `_step` is compiled again.  The fix
registers MarginalLossFn as a pytree (pure fn and cliques static, measurements as leaves) and
passes it as a traced argument.  (mbi is reduced here: marginals are a dict per clique.)"""
import dataclasses
import functools
from typing import Callable

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class LinearMeasurement:
    noisy_measurement: jax.Array
    clique: tuple
    stddev: float = 1.0


@dataclasses.dataclass(frozen=True)
class MarginalLossFn:
    cliques: tuple
    loss_fn: Callable
    lipschitz: float = None

    def __call__(self, marginals):
        return self.loss_fn(marginals)


def from_linear_measurements(measurements):
    cliques = tuple(m.clique for m in measurements)

    def loss_fn(marginals):
        loss = 0.0
        for M in measurements:
            diff = (marginals[M.clique] - M.noisy_measurement) / M.stddev
            loss += 0.5 * jnp.vdot(diff, diff)
        return loss

    return MarginalLossFn(cliques, loss_fn)


@dataclasses.dataclass(frozen=True)
class ApproxMirrorDescent:
    stepsize: float = 0.01

    @functools.partial(jax.jit, static_argnames=["self", "loss_fn"])
    def _step(self, potentials, total, *, loss_fn):
        mu = {cl: total * jax.nn.softmax(p) for cl, p in potentials.items()}
        dL = jax.grad(loss_fn)(mu)
        return {cl: potentials[cl] - self.stepsize * dL[cl] for cl in potentials}

    def estimate(self, measurements, known_total, iters=20):
        loss_fn = from_linear_measurements(measurements)
        potentials = {m.clique: jnp.zeros_like(m.noisy_measurement) for m in measurements}
        for _ in range(iters):
            potentials = self._step(potentials, known_total, loss_fn=loss_fn)  # <-- bug
        return {cl: known_total * jax.nn.softmax(p) for cl, p in potentials.items()}


if __name__ == "__main__":
    oracle = ApproxMirrorDescent()
    for seed in range(2):
        key_a, key_b = jax.random.split(jax.random.PRNGKey(seed))
        measurements = [
            LinearMeasurement(jnp.array([40.0, 60.0]) + jax.random.normal(key_a, (2,)), ("A",)),
            LinearMeasurement(jnp.array([10.0, 30.0, 60.0]) + jax.random.normal(key_b, (3,)), ("B",)),
        ]
        marginals = oracle.estimate(measurements, jnp.float32(100.0))
        print(seed, [jnp.round(v, 2).tolist() for v in marginals.values()])
