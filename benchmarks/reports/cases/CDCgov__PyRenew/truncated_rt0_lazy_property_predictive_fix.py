# source: https://github.com/CDCgov/PyRenew/issues/282
# category: C
# expect: ok
# via: method, class-attribute, lax-scan, wrapper
# sink: attribute-write
"""`lazy_property` only caches the tail probability on the `TruncatedNormal` when the computed value
is not a JAX tracer, so the value read inside the `lax.map` of a predictive call is recomputed in
each trace and repeated predictive calls on the same model run."""
from functools import update_wrapper

import jax
import jax.numpy as jnp
import jax.random as jr
from jax.scipy.special import ndtr, ndtri


class lazy_property:
    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        value = self.wrapped(instance)
        if not isinstance(value, jax.core.Tracer):
            setattr(instance, self.wrapped.__name__, value)
        return value


class TruncatedNormal:
    def __init__(self, loc=0.0, scale=1.0, low=None):
        self.loc, self.scale, self.low = loc, scale, low

    @lazy_property
    def _tail_prob_at_low(self):
        return ndtr((self.low - self.loc) / self.scale)

    def sample(self, key, sample_shape=()):
        u = jr.uniform(key, sample_shape)
        tail = self._tail_prob_at_low
        return self.loc + self.scale * ndtri(tail + u * (1.0 - tail))


class Normal:
    def __init__(self, loc=0.0, scale=1.0):
        self.loc, self.scale = loc, scale

    def sample(self, key, sample_shape=()):
        return self.loc + self.scale * jr.normal(key, sample_shape)


class RtRandomWalkProcess:
    def __init__(self, Rt0_dist, Rt_rw_dist):
        self.Rt0_dist = Rt0_dist
        self.Rt_rw_dist = Rt_rw_dist

    def sample(self, key, n_timepoints):
        k0, k1 = jr.split(key)
        log_rt0 = jnp.log(self.Rt0_dist.sample(k0))
        steps = self.Rt_rw_dist.sample(k1, (n_timepoints - 1,))
        return jnp.exp(log_rt0 + jnp.concatenate([jnp.zeros(1), jnp.cumsum(steps)]))


class RtInfectionsRenewalModel:
    def __init__(self, Rt_process, gen_int):
        self.Rt_process = Rt_process
        self.gen_int = gen_int

    def model(self, key, n_timepoints_to_simulate):
        rt = self.Rt_process.sample(key, n_timepoints_to_simulate)

        def step(recent, r):
            new = r * jnp.dot(recent, self.gen_int[::-1])
            return jnp.concatenate([recent[1:], new[None]]), new

        _, infections = jax.lax.scan(step, jnp.ones(self.gen_int.size), rt)
        return {"Rt": rt, "latent_infections": infections}

    def prior_predictive(self, rng_key, numsamples, n_timepoints_to_simulate):
        keys = jr.split(rng_key, numsamples)
        return jax.lax.map(lambda k: self.model(k, n_timepoints_to_simulate), keys)


if __name__ == "__main__":
    gen_int = jnp.array([0.25, 0.25, 0.25, 0.25])
    rt = RtRandomWalkProcess(
        Rt0_dist=TruncatedNormal(loc=1.2, scale=0.2, low=0.0),
        Rt_rw_dist=Normal(0.0, 0.025),
    )
    model = RtInfectionsRenewalModel(Rt_process=rt, gen_int=gen_int)
    first = model.prior_predictive(jr.key(0), numsamples=4, n_timepoints_to_simulate=10)
    print("first Rt0:", first["Rt"][:, 0])
    second = model.prior_predictive(jr.key(1), numsamples=4, n_timepoints_to_simulate=10)
    print("second Rt0:", second["Rt"][:, 0])
