# source: https://github.com/jordandeklerk/KernelJax/blob/7265c213b0cd62b22fb75adad8603aec66001bf4/docs/source/user-guide/custom-criteria.md#where-settings-live
# category: B
# expect: ok
# via: static-argnums, partial-jit, dataclass, helper, lax-scan, grad
# sink: static-unhashable
"""The degree is declared as a field of a frozen criterion object, so it stays a concrete Python
int inside the selector and the static `LocalPolyBasis` built from it hashes normally."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class LocalPolyBasis:
    degree: int


@partial(jax.jit, static_argnames=("basis",))
def _fit(train, y, h, fold, basis):
    d = train[:, None] - train[None, :]
    w = jnp.exp(-0.5 * (d / h) ** 2)
    w = jnp.where(fold[:, None] == fold[None, :], 0.0, w)
    if basis.degree == 0:
        return (w @ y) / jnp.sum(w, axis=1)
    s0, s1, s2 = jnp.sum(w, 1), jnp.sum(w * d, 1), jnp.sum(w * d**2, 1)
    t0, t1 = w @ y, (w * d) @ y
    return (s2 * t0 - s1 * t1) / (s0 * s2 - s1**2)


def local_poly(train, y, h, *, degree=0, fold):
    return _fit(train, y, h, fold, basis=LocalPolyBasis(degree=degree))


def gradient_descent(objective, start, steps=100, rate=0.05):
    def step(z, _):
        return z - rate * jax.grad(objective)(z), None

    z, _ = jax.lax.scan(step, start, length=steps)
    return z, objective(z)


@partial(jax.jit, static_argnames=("criterion", "solver"))
def select_bandwidth(train, criterion, *, y, criterion_kwargs=None, solver=gradient_descent):
    extra = {} if criterion_kwargs is None else dict(criterion_kwargs)
    extra["y"] = y

    def objective(z):
        return criterion(train, jax.nn.softplus(z), **extra)

    z, value = solver(objective, jnp.asarray(-2.0))
    return jax.nn.softplus(z), value


@dataclasses.dataclass(frozen=True)
class AbsoluteDeviation:
    degree: int = 1

    def __call__(self, train, bandwidth, *, y):
        fit = local_poly(train, y, bandwidth, degree=self.degree, fold=jnp.arange(train.shape[0]))
        return jnp.mean(jnp.abs(y - fit))


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    x = rng.uniform(size=80)
    y = np.sin(2 * np.pi * x) + rng.normal(0, 0.2, 80)
    h, value = select_bandwidth(jnp.asarray(x), AbsoluteDeviation(degree=1), y=jnp.asarray(y))
    print(float(h), float(value))
