# source: https://github.com/pyro-ppl/numpyro/pull/1843
# category: C
# expect: ok
# via: jit-call, method, class-attribute
# sink: attribute-write
"""`lazy_property` now caches the value on the instance only when it is not a JAX tracer, so the
jitted `log_prob` of a truncated distribution computes the quantity inside the trace and stores
nothing that outlives it."""
import jax
import jax.numpy as jnp
from jax.scipy.stats import norm


class lazy_property(object):
    def __init__(self, wrapped):
        self.wrapped = wrapped

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        value = self.wrapped(instance)
        if not isinstance(value, jax.core.Tracer):
            setattr(instance, self.wrapped.__name__, value)
        return value


class TruncatedNormal:
    def __init__(self, loc=0.0, scale=1.0, low=-1.0, high=2.0):
        self.loc, self.scale = jnp.asarray(loc), jnp.asarray(scale)
        self.low, self.high = jnp.asarray(low), jnp.asarray(high)

    @lazy_property
    def _log_diff_tail_probs(self):
        hi = norm.cdf((self.high - self.loc) / self.scale)
        lo = norm.cdf((self.low - self.loc) / self.scale)
        return jnp.log(hi - lo)

    def log_prob(self, value):
        z = (value - self.loc) / self.scale
        return norm.logpdf(z) - jnp.log(self.scale) - self._log_diff_tail_probs


if __name__ == "__main__":
    my_dist = TruncatedNormal(low=-1.0, high=2.0)
    jit_lp = jax.jit(my_dist.log_prob)
    print(jit_lp(1.0))
    # the same distribution is used again, outside that trace
    print(my_dist.log_prob(jnp.array([0.0, 0.5, 1.5])))
