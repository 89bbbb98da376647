# source: https://github.com/pyro-ppl/numpyro/issues/1886
# category: C
# expect: leaks
# via: numpyro, method, class-attribute, eval-shape
# sink: attribute-write
"""A model wrapped in a `seed` handler is passed to `get_model_relations`, which traces it
abstractly; the handler splits its key at each sample site and stores the new key on itself,
so a traced key stays on the handler after the trace."""
import jax
import jax.random as jr
import numpyro
import numpyro.distributions as dist
from numpyro.infer.inspect import get_model_relations
from numpyro.primitives import Messenger


class seed(Messenger):  # reduced from numpyro.handlers
    def __init__(self, fn=None, rng_seed=None):
        self.rng_key = rng_seed
        super().__init__(fn)

    def process_message(self, msg):
        if msg["type"] != "sample" or msg["kwargs"]["rng_key"] is not None or msg["value"] is not None:
            return
        self.rng_key, rng_key_sample = jr.split(self.rng_key)  # <-- bug
        msg["kwargs"]["rng_key"] = rng_key_sample


def model():
    m = numpyro.sample("m", dist.Normal(0, 1))
    numpyro.sample("sd", dist.LogNormal(m, 1))


if __name__ == "__main__":
    seeded_model = seed(model, jr.key(0))
    relations = get_model_relations(seeded_model)
    print(relations["sample_sample"])
