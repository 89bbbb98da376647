# source: https://github.com/oughtinc/ergo/pull/394
# category: R
# expect: recompiles
# via: partial-jit, static-argnums, method, dataclass, helper, host-loop
# sink: dtype-change
"""`describe_fit` is jitted with the scale's `low`/`high` among its traced numeric parameters, and
`scale_factory` passed the numbers from the front end through as they came, so a question whose
range arrived as `0`/`10` traced with int leaves and one with `0.5`/`12.5` traced again with float
leaves.  The pull request casts every scale field to `float` so all questions share one trace."""
from dataclasses import dataclass, field
from functools import partial

import jax
import jax.numpy as np
import numpy as onp

grid = onp.linspace(0.0, 1.0, 21)
target_xs = (grid[:-1] + grid[1:]) / 2


@dataclass
class Scale:
    low: float
    high: float
    width: float = field(init=False)

    def __post_init__(self):
        self.width = self.high - self.low

    def normalize_point(self, point):
        return (point - self.low) / self.width

    def destructure(self):
        return ((Scale,), (self.low, self.high))

    @classmethod
    def structure(cls, params):
        classes, numeric = params
        return classes[0](*numeric)


def scale_factory(scale_dict):
    low = scale_dict["low"]
    high = scale_dict["high"]
    return Scale(low, high)


class PointDensity:
    def __init__(self, normed_xs, normed_densities, scale):
        self.scale = scale
        self.normed_xs = normed_xs
        self.normed_densities = normed_densities

    def cdf(self, x):
        normed_x = self.scale.normalize_point(x)
        probs = self.normed_densities / self.normed_densities.size
        return np.sum(np.where(self.normed_xs <= normed_x, probs, 0.0))

    @classmethod
    def structure(cls, params):
        (density_class, scale_classes), (numeric, scale_numeric) = params
        scale = scale_classes[0].structure((scale_classes, scale_numeric))
        return density_class(numeric[0], numeric[1], scale)

    def destructure(self):
        scale_classes, scale_numeric = self.scale.destructure()
        return ((self.__class__, scale_classes), ((self.normed_xs, self.normed_densities), scale_numeric))


class IntervalCondition:
    def __init__(self, p, min, max, weight=1.0):
        self.p, self.min, self.max, self.weight = p, min, max, weight

    @classmethod
    def structure(cls, params):
        return params[0][0](*params[1])

    def destructure(self):
        return ((IntervalCondition,), (self.p, self.min, self.max, self.weight))

    def _describe_fit(self, dist):
        actual_p = dist.cdf(self.max) - dist.cdf(self.min)
        return {"loss": self.weight * (actual_p - self.p) ** 2, "p_in_interval": actual_p}

    def describe_fit(self, dist):
        result = describe_fit(*dist.destructure(), *self.destructure())  # <-- bug
        return {k: float(v) for (k, v) in result.items()}


@partial(jax.jit, static_argnums=(0, 2))
def describe_fit(dist_classes, dist_params, cond_class, cond_params):
    dist = dist_classes[0].structure((dist_classes, dist_params))
    condition = cond_class[0].structure((cond_class, cond_params))
    return condition._describe_fit(dist)


if __name__ == "__main__":
    questions = [
        {"class": "Scale", "low": 0, "high": 10},
        {"class": "Scale", "low": 0.5, "high": 12.5},
        {"class": "Scale", "low": 0, "high": 200},
    ]
    densities = onp.exp(-((target_xs - 0.4) ** 2) / 0.05)
    densities = densities / densities.mean()
    for scale_dict in questions:
        scale = scale_factory(scale_dict)
        dist = PointDensity(target_xs, densities, scale)
        condition = IntervalCondition(0.5, scale.low + 0.2 * scale.width, scale.low + 0.6 * scale.width)
        print(condition.describe_fit(dist))
