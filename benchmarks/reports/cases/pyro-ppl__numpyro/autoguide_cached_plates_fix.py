# source: https://github.com/pyro-ppl/numpyro/pull/1976
# category: C
# expect: raises
# via: numpyro, method, jit-call
# sink: attribute-write
"""An AutoDelta-style guide built its plates on the first call and kept them in `self.plates`.
Calling the seeded guide first under `jax.jit` stored a plate whose index array is a tracer of
that trace, and the next plain call of the same guide used the escaped tracer.  The PR stops
caching the plates so each call of the guide builds its own."""
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro import handlers


class AutoDelta:
    """Reduced: a point-mass guide for the latent sites of `model` inside their plates."""

    def __init__(self, model, plate_sizes):
        self.model = model
        self.plate_sizes = plate_sizes

    def _create_plates(self):
        return {name: numpyro.plate(name, size) for name, size in self.plate_sizes.items()}

    def __call__(self, *args, **kwargs):
        plates = self._create_plates()
        with plates["n"]:
            loc = numpyro.param("x_auto_loc", jnp.zeros(2))
            x = numpyro.sample("x", dist.Delta(loc))
        return x + plates["n"]._indices


def model():
    with numpyro.plate("n", 2):
        numpyro.sample("x", dist.Normal())


if __name__ == "__main__":
    guide = AutoDelta(model, {"n": 2})
    print(jax.jit(lambda: handlers.seed(guide, 9)())())
    print(handlers.seed(guide, 9)())
