# source: https://github.com/oughtinc/ergo/commit/5342324c2b41778786849ebd6e877ea716d0f5b7
# category: R
# expect: recompiles
# via: class-attribute, method, factory-closure, jit-call, grad, host-loop
# sink: fresh-callable
"""`HistogramDist.from_conditions` built a `loss` closure over the normalized conditions and
wrapped it (and its gradient) in a new `jit` on every fit, so every distribution fitted from a
forecaster's conditions traced and compiled the loss again.  The commit destructures each
condition into its class (static) and its parameters (traced) and evaluates it through one
global jitted `static_condition_loss`.
(SciPy's optimizer is kept; the histogram class is reduced to what the fit uses.)"""
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

        def loss(params):
            dist = cls.from_params(params)
            return sum(condition.loss(dist) for condition in normalized_conditions) * 100

        loss = jit(loss)
        jac = jit(grad(loss))
        return cls.from_loss(loss=lambda p: float(loss(p)), jac=lambda p: onp.asarray(jac(p)), num_bins=num_bins)  # <-- bug


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


if __name__ == "__main__":
    forecasts = [(0.5, 20.0, 40.0), (0.7, 10.0, 60.0), (0.3, 30.0, 50.0)]
    for p, lo, hi in forecasts:
        dist = HistogramDist.from_conditions([IntervalCondition(p, lo, hi)], scale_min=0.0, scale_max=100.0, num_bins=50)
        print(p, round(float(dist.cdf(0.6) - dist.cdf(0.2)), 3))
