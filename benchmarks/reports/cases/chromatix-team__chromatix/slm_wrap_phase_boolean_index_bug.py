# source: https://github.com/chromatix-team/chromatix/commit/711f1cc917a66d1c17e19c1ac23534df001be2d2
# category: A
# expect: raises
# via: flax-linen, helper, jit-decorator, grad
# sink: boolean-mask
"""wrap_phase wrapped an SLM's phase into its range with `phase.at[mask].set(phase[mask] + ...)`
for the boolean masks `phase < min` and `phase > max`; when the SLM phase is a trained, traced
parameter, the boolean indexing has a data-dependent size and fails under jit."""
from typing import Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp


def wrap_phase(phase, limits: Tuple[float, float] = (-jnp.pi, jnp.pi)):
    """Wraps values of ``phase`` to the range given by ``limits``."""
    phase_min, phase_max = limits
    assert phase_min < phase_max, "Lower limit needs to be smaller than upper limit."
    min_indices = phase < phase_min
    max_indices = phase > phase_max
    phase = phase.at[min_indices].set(
        phase[min_indices] + 2 * jnp.pi * (1 + (phase_min - phase[min_indices]) // (2 * jnp.pi))  # <-- bug
    )
    phase = phase.at[max_indices].set(
        phase[max_indices] - 2 * jnp.pi * (1 + (phase[max_indices] - phase_max) // (2 * jnp.pi))
    )
    return phase


class SpatialLightModulator(nn.Module):
    shape: Tuple[int, int]
    phase_range: Tuple[float, float]

    @nn.compact
    def __call__(self, field):
        phase = self.param("phase", lambda key, s: 4 * jax.random.normal(key, s), self.shape)
        phase = wrap_phase(phase, self.phase_range)
        return field * jnp.exp(1j * phase)


slm = SpatialLightModulator(shape=(16, 16), phase_range=(-jnp.pi, jnp.pi))


@jax.jit
def train_step(params, field, target):
    def loss_fn(params):
        out = slm.apply(params, field)
        return jnp.mean((jnp.abs(jnp.fft.fft2(out)) ** 2 - target) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return loss, jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, params, grads)


if __name__ == "__main__":
    field = jnp.ones((16, 16), dtype=jnp.complex64)
    params = slm.init(jax.random.PRNGKey(0), field)
    target = jnp.zeros((16, 16))
    for _ in range(3):
        loss, params = train_step(params, field, target)
    print(loss)
