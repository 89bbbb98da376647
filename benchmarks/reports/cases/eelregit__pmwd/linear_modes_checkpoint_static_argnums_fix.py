# source: https://github.com/eelregit/pmwd/issues/27
# category: B
# expect: ok
# via: jit-decorator, partial-jit, static-argnums, checkpoint, pytree-class
# sink: static-spec
"""`linear_modes` takes an optional static `real` flag.  The jitted entry point keeps the
defaults and hands every argument positionally to the checkpointed body, so
`jax.checkpoint` always sees argument 4, even when the caller leaves the optional ones out."""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
from jax import checkpoint, jit


@partial(jax.tree_util.register_dataclass, data_fields=["box_vol"],
         meta_fields=["ptcl_grid_shape", "ptcl_spacing"])
@dataclass
class Configuration:
    ptcl_grid_shape: tuple
    ptcl_spacing: float
    box_vol: float


@partial(jax.tree_util.register_dataclass, data_fields=["A_s", "n_s"], meta_fields=[])
@dataclass
class Cosmology:
    A_s: jax.Array
    n_s: jax.Array


def linear_power(k, a, cosmo, conf):
    growth = 1.0 if a is None else a
    return cosmo.A_s * jnp.where(k > 0, k, 1.0) ** (cosmo.n_s - 4.0) * growth**2


@partial(checkpoint, static_argnums=4)
def _linear_modes(modes, cosmo, conf, a, real):
    kvec = jnp.meshgrid(*[jnp.fft.fftfreq(n, conf.ptcl_spacing) for n in conf.ptcl_grid_shape],
                        indexing="ij", sparse=True)
    k = jnp.sqrt(sum(k**2 for k in kvec))
    if a is not None:
        a = jnp.asarray(a)
    Plin = linear_power(k, a, cosmo, conf)
    if jnp.isrealobj(modes):
        modes = jnp.fft.fftn(modes, norm="ortho")
    modes *= jnp.sqrt(Plin * conf.box_vol)
    if real:
        modes = jnp.fft.ifftn(modes, norm="ortho").real
    return modes


@partial(jit, static_argnums=4)
def linear_modes(modes, cosmo, conf, a=None, real=False):
    return _linear_modes(modes, cosmo, conf, a, real)


if __name__ == "__main__":
    conf = Configuration(ptcl_grid_shape=(8, 8, 8), ptcl_spacing=1.0, box_vol=512.0)
    cosmo = Cosmology(A_s=jnp.array(2.1e-9), n_s=jnp.array(0.96))
    wn = jax.random.normal(jax.random.PRNGKey(0), conf.ptcl_grid_shape)
    ic = linear_modes(wn, cosmo, conf)
    print(ic.shape, float(jnp.abs(ic).mean()))
