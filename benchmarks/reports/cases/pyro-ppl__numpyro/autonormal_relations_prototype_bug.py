# source: https://github.com/pyro-ppl/numpyro/issues/2062
# category: C
# expect: raises
# via: numpyro, method, class-attribute, eval-shape
# sink: attribute-write
"""An AutoNormal guide is first passed to `get_model_relations`, which runs it under abstract
tracing; the guide builds its prototype trace lazily and keeps the traced initial locations on
itself, so fitting the same guide with SVI afterwards reads those tracers."""
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro import handlers
from numpyro.distributions import constraints
from numpyro.infer import SVI, Trace_ELBO
from numpyro.infer.inspect import get_model_relations


class AutoNormal:  # reduced from numpyro.infer.autoguide
    def __init__(self, model, init_scale=0.1):
        self.model = model
        self._init_scale = init_scale
        self.prototype_trace = None
        self._init_locs = {}

    def _setup_prototype(self, *args, **kwargs):
        with handlers.block():
            model = handlers.seed(self.model, numpyro.prng_key())
            self.prototype_trace = handlers.trace(model).get_trace(*args, **kwargs)
        for name, site in self.prototype_trace.items():
            if site["type"] == "sample" and not site["is_observed"]:
                self._init_locs[name] = site["value"]  # <-- bug

    def __call__(self, *args, **kwargs):
        if self.prototype_trace is None:
            self._setup_prototype(*args, **kwargs)
        result = {}
        for name, site in self.prototype_trace.items():
            if site["type"] != "sample" or site["is_observed"]:
                continue
            loc = numpyro.param(f"{name}_auto_loc", self._init_locs[name])  # <-- bug
            scale = numpyro.param(f"{name}_auto_scale", jnp.full(jnp.shape(loc), self._init_scale),
                                  constraint=constraints.softplus_positive)
            result[name] = numpyro.sample(name, dist.Normal(loc, scale))  # <-- bug
        return result


def model():
    numpyro.sample("a", dist.Normal(0.0, 1.0))


if __name__ == "__main__":
    guide = AutoNormal(model)
    print(get_model_relations(guide)["sample_param"])
    svi = SVI(model, guide, numpyro.optim.Adam(0.01), Trace_ELBO())
    res = svi.run(jax.random.key(0), 20, progress_bar=False)
    print(sorted(res.params))
