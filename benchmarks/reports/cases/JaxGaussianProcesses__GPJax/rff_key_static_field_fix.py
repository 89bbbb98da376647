# source: https://github.com/JaxGaussianProcesses/GPJax/issues/384
# category: B
# expect: ok
# via: pytree-class, dataclass, jit-decorator, method
# sink: static-metadata
"""The random-Fourier-feature kernel declared its PRNG key as a static field.  A key is an array,
so it becomes unhashable pytree metadata: the first jitted Gram matrix compiles, but a kernel
built with another key makes jit compare the two keys as metadata, and the comparison fails.  Keeping
the key as an ordinary (data) field avoids it."""
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import jax.random as jr


@jax.tree_util.register_dataclass
@dataclass
class RFF:
    lengthscale: jax.Array
    num_basis_fns: int = field(default=50, metadata={"static": True})
    key: jax.Array = field(default_factory=lambda: jr.PRNGKey(123))

    def compute_features(self, x):
        omega = jr.normal(self.key, (x.shape[-1], self.num_basis_fns)) / self.lengthscale
        z = x @ omega
        return jnp.concatenate([jnp.cos(z), jnp.sin(z)], axis=-1) / jnp.sqrt(self.num_basis_fns)


@jax.jit
def gram(kernel, x):
    phi = kernel.compute_features(x)
    return phi @ phi.T


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 5)[:, None]
    for seed in range(3):
        kernel = RFF(lengthscale=jnp.array(1.0), key=jr.PRNGKey(seed))
        print(seed, gram(kernel, x)[0, :3])
