# source: https://github.com/jordandeklerk/KernelJax/blob/7265c213b0cd62b22fb75adad8603aec66001bf4/docs/source/user-guide/custom-criteria.md#where-settings-live
# category: B
# expect: raises
# via: static-argnums, partial-jit, dataclass, helper, lax-scan, grad
# sink: static-unhashable
"""The polynomial degree is routed to a plain-function criterion through `criterion_kwargs`, which
`select_bandwidth` traces; `local_poly` then builds its static `LocalPolyBasis` from that traced
degree, and hashing the basis for the inner jit fails on the tracer."""
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
    return _fit(train, y, h, fold, basis=LocalPolyBasis(degree=degree))  # <-- bug


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


def with_degree_argument(train, bandwidth, *, y, degree):
    fit = local_poly(train, y, bandwidth, degree=degree, fold=jnp.arange(train.shape[0]))
    return jnp.mean(jnp.abs(y - fit))


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    x = rng.uniform(size=80)
    y = np.sin(2 * np.pi * x) + rng.normal(0, 0.2, 80)
    h, value = select_bandwidth(
        jnp.asarray(x), with_degree_argument, y=jnp.asarray(y), criterion_kwargs={"degree": 1}
    )
    print(float(h), float(value))
