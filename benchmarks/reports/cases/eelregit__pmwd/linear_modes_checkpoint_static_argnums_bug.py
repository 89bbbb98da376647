# source: https://github.com/eelregit/pmwd/issues/27
# category: B
# expect: raises
# via: jit-decorator, partial-jit, static-argnums, checkpoint, pytree-class
# sink: static-spec
"""`linear_modes` is jitted and checkpointed with `static_argnums=4` for its optional `real`
flag.  Called as `linear_modes(wn, cosmo, conf)`, without the two optional arguments,
`jax.checkpoint` receives only three positional arguments and rejects static argument 4."""
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


@partial(jit, static_argnums=4)
@partial(checkpoint, static_argnums=4)
def linear_modes(modes, cosmo, conf, a=None, real=False):
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


if __name__ == "__main__":
    conf = Configuration(ptcl_grid_shape=(8, 8, 8), ptcl_spacing=1.0, box_vol=512.0)
    cosmo = Cosmology(A_s=jnp.array(2.1e-9), n_s=jnp.array(0.96))
    wn = jax.random.normal(jax.random.PRNGKey(0), conf.ptcl_grid_shape)
    ic = linear_modes(wn, cosmo, conf)  # <-- bug
    print(ic.shape, float(jnp.abs(ic).mean()))
