# source: https://github.com/PyAutoLabs/PyAutoArray/issues/420
# category: A
# expect: raises
# via: jit-decorator, method, helper, class-attribute
# sink: numpy-call
"""The documented `@jax.jit` recipe around `SimulatorImaging(use_jax=True).via_image_from` failed:
the Poisson noise-map helper took no `xp` argument and hard-coded `np.abs` on the traced
electrons-per-second data, so NumPy was asked to convert a tracer."""
import jax
import jax.numpy as jnp
import numpy as np


class Array2D:
    def __init__(self, array, use_jax=False):
        self.array, self.use_jax = array, use_jax

    @property
    def _xp(self):
        return jnp if self.use_jax else np

    def with_new_array(self, array):
        return Array2D(array, use_jax=self.use_jax)


def data_eps_with_poisson_noise_added(data_eps, exposure_time_map, seed, xp=np):
    counts = data_eps.array * exposure_time_map.array
    noisy = jax.random.poisson(jax.random.PRNGKey(seed), counts).astype(counts.dtype)
    return data_eps.with_new_array(noisy / exposure_time_map.array)


def noise_map_via_data_eps_and_exposure_time_map_from(data_eps, exposure_time_map):
    return data_eps.with_new_array(
        np.abs(data_eps.array * exposure_time_map.array) ** 0.5  # <-- bug
        / exposure_time_map.array
    )


class SimulatorImaging:
    def __init__(self, exposure_time, background_sky_level, noise_seed=1, use_jax=False):
        self.exposure_time, self.background_sky_level = exposure_time, background_sky_level
        self.noise_seed, self.use_jax = noise_seed, use_jax

    @property
    def _xp(self):
        return jnp if self.use_jax else np

    def via_image_from(self, image, xp=None):
        xp = xp or self._xp
        exposure_time_map = image.with_new_array(xp.full(image.array.shape, self.exposure_time))
        image = image.with_new_array(image.array + self.background_sky_level)
        data = data_eps_with_poisson_noise_added(image, exposure_time_map, self.noise_seed, xp=xp)
        noise_map = noise_map_via_data_eps_and_exposure_time_map_from(data, exposure_time_map)
        return data.array - self.background_sky_level, noise_map.array


simulator = SimulatorImaging(exposure_time=300.0, background_sky_level=0.1, use_jax=True)


@jax.jit
def simulate(image_array):
    return simulator.via_image_from(Array2D(image_array, use_jax=True))


if __name__ == "__main__":
    y, x = np.mgrid[-1:1:20j, -1:1:20j]
    image = jnp.asarray(np.exp(-(x ** 2 + y ** 2) / 0.1))
    data, noise_map = simulate(image)
    print(float(data.sum()), float(noise_map.mean()))
