# source: https://github.com/jordandeklerk/KernelJax/blob/7265c213b0cd62b22fb75adad8603aec66001bf4/docs/source/user-guide/custom-criteria.md#writing-one
# category: B
# expect: raises
# via: static-argnums, partial-jit, dataclass, lax-scan, grad
# sink: static-unhashable
"""A user-written bandwidth criterion is a plain (mutable) dataclass; `select_bandwidth` is jitted
with the criterion as a static argument, and a dataclass without `frozen=True` has no hash, so
the call is refused at the jit boundary."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def local_poly(train, y, h, *, degree=0, fold=None):
    """Leave-out Nadaraya-Watson (degree 0) or local linear (degree 1) fit at the training points."""
    d = train[:, None] - train[None, :]
    w = jnp.exp(-0.5 * (d / h) ** 2)
    if fold is not None:
        w = jnp.where(fold[:, None] == fold[None, :], 0.0, w)
    if degree == 0:
        return (w @ y) / jnp.sum(w, axis=1)
    s0, s1, s2 = jnp.sum(w, 1), jnp.sum(w * d, 1), jnp.sum(w * d**2, 1)
    t0, t1 = w @ y, (w * d) @ y
    return (s2 * t0 - s1 * t1) / (s0 * s2 - s1**2)


def gradient_descent(objective, start, steps=100, rate=0.05):
    def step(z, _):
        return z - rate * jax.grad(objective)(z), None

    z, _ = jax.lax.scan(step, start, length=steps)
    return z, objective(z)


@partial(jax.jit, static_argnames=("criterion", "solver"))
def select_bandwidth(train, criterion, *, y, solver=gradient_descent):
    def objective(z):
        return criterion(train, jax.nn.softplus(z), y=y)

    z, value = solver(objective, jnp.asarray(-2.0))
    return jax.nn.softplus(z), value


@dataclasses.dataclass
class MutableCriterion:
    degree: int = 1

    def __call__(self, train, bandwidth, *, y):
        fit = local_poly(train, y, bandwidth, degree=self.degree, fold=jnp.arange(train.shape[0]))
        return jnp.mean(jnp.abs(y - fit))


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    x = rng.uniform(size=80)
    y = np.sin(2 * np.pi * x) + rng.normal(0, 0.2, 80)
    h, value = select_bandwidth(jnp.asarray(x), MutableCriterion(), y=jnp.asarray(y))  # <-- bug
    print(float(h), float(value))
