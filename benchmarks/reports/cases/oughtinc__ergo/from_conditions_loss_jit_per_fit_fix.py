# source: https://github.com/oughtinc/ergo/commit/5342324c2b41778786849ebd6e877ea716d0f5b7
# category: R
# expect: ok
# via: class-attribute, method, partial-jit, static-argnums, grad, host-loop
# sink: fresh-callable
"""`HistogramDist.from_conditions` destructures each condition into its class (a static
argument) and its parameters (traced ones) and evaluates it through the global jitted
`static_condition_loss` and its jitted gradient, so fits from new conditions of the same kind
reuse the compiled loss.
(SciPy's optimizer is kept; the histogram class is reduced to what the fit uses.)"""
from functools import partial

import jax.numpy as np
import numpy as onp
import scipy.optimize as oscipy
from jax import grad, jit, nn


class HistogramDist:
    def __init__(self, logps, scale_min=0.0, scale_max=1.0):
        self.logps = logps
        self.ps = np.exp(logps)
        self.cum_ps = np.cumsum(self.ps)
        self.bins = np.linspace(scale_min, scale_max, logps.size + 1)

    def cdf(self, x):
        return self.cum_ps[np.argmax(self.bins >= x)]

    @classmethod
    def from_params(cls, params):
        return cls(nn.log_softmax(params))

    @classmethod
    def from_loss(cls, loss, jac, num_bins=100):
        x0 = onp.full(num_bins, -float(num_bins))
        results = oscipy.minimize(loss, jac=jac, x0=x0)
        return cls.from_params(results.x)

    @classmethod
    def from_conditions(cls, conditions, scale_min=0.0, scale_max=1.0, num_bins=100):
        normalized_conditions = [c.normalize(scale_min, scale_max) for c in conditions]
        cond_classes, cond_params = zip(*[c.destructure() for c in normalized_conditions])
        loss = lambda params: float(static_loss(params, cond_classes, cond_params))  # noqa: E731
        jac = lambda params: onp.asarray(static_loss_grad(params, cond_classes, cond_params))  # noqa: E731
        return cls.from_loss(loss=loss, jac=jac, num_bins=num_bins)


class IntervalCondition:
    def __init__(self, p, min=None, max=None, weight=1.0):
        self.p, self.min, self.max, self.weight = p, min, max, weight

    def actual_p(self, dist):
        cdf_max = dist.cdf(self.max) if self.max is not None else 1.0
        cdf_min = dist.cdf(self.min) if self.min is not None else 0.0
        return cdf_max - cdf_min

    def loss(self, dist):
        return self.weight * (self.actual_p(dist) - self.p) ** 2

    def normalize(self, scale_min, scale_max):
        scale = scale_max - scale_min
        return IntervalCondition(self.p, (self.min - scale_min) / scale, (self.max - scale_min) / scale, self.weight)

    def destructure(self):
        return (IntervalCondition, (self.p, self.min, self.max, self.weight))

    @classmethod
    def structure(cls, params):
        return cls(*params)


def static_loss(dist_params, cond_classes, cond_params):
    total_loss = 0.0
    for cond_class, cond_param in zip(cond_classes, cond_params):
        total_loss += static_condition_loss(dist_params, cond_class, cond_param)
    return total_loss


def static_loss_grad(dist_params, cond_classes, cond_params):
    total_grad = 0.0
    for cond_class, cond_param in zip(cond_classes, cond_params):
        total_grad += static_condition_loss_grad(dist_params, cond_class, cond_param)
    return total_grad


@partial(jit, static_argnums=1)
def static_condition_loss(dist_params, cond_class, cond_param):
    dist = HistogramDist.from_params(dist_params)
    condition = cond_class.structure(cond_param)
    return condition.loss(dist) * 100


static_condition_loss_grad = jit(grad(static_condition_loss, argnums=0), static_argnums=1)


if __name__ == "__main__":
    forecasts = [(0.5, 20.0, 40.0), (0.7, 10.0, 60.0), (0.3, 30.0, 50.0)]
    for p, lo, hi in forecasts:
        dist = HistogramDist.from_conditions([IntervalCondition(p, lo, hi)], scale_min=0.0, scale_max=100.0, num_bins=50)
        print(p, round(float(dist.cdf(0.6) - dist.cdf(0.2)), 3))
