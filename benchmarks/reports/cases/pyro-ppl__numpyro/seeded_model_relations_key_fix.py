# source: https://github.com/pyro-ppl/numpyro/issues/1886
# category: C
# expect: ok
# via: numpyro, method, class-attribute, eval-shape
# sink: attribute-write
"""Calling the seeded model now runs a fresh copy of the `seed` handler that starts from the
stored key, so the key that is split at each sample site lives on the copy only and the
handler passed to `get_model_relations` keeps its concrete key."""
import jax
import jax.random as jr
import numpyro
import numpyro.distributions as dist
from numpyro.infer.inspect import get_model_relations
from numpyro.primitives import Messenger


class seed(Messenger):  # reduced from numpyro.handlers
    def __init__(self, fn=None, rng_seed=None):
        self.rng_key = rng_seed
        self.stateful = False
        super().__init__(fn)

    def process_message(self, msg):
        if msg["type"] != "sample" or msg["kwargs"]["rng_key"] is not None or msg["value"] is not None:
            return
        self.rng_key, rng_key_sample = jr.split(self.rng_key)
        msg["kwargs"]["rng_key"] = rng_key_sample

    def __call__(self, *args, **kwargs):
        if self.fn is not None and not self.stateful:
            cloned = seed(self.fn, rng_seed=self.rng_key)
            cloned.stateful = True
            return cloned(*args, **kwargs)
        return super().__call__(*args, **kwargs)


def model():
    m = numpyro.sample("m", dist.Normal(0, 1))
    numpyro.sample("sd", dist.LogNormal(m, 1))


if __name__ == "__main__":
    seeded_model = seed(model, jr.key(0))
    relations = get_model_relations(seeded_model)
    print(relations["sample_sample"])
