# source: https://github.com/Herculens/herculens/issues/58
# category: A
# expect: ok
# via: method, jit-call, helper
# sink: numpy-call
"""`MassModel.potential` starts its sum with `jnp.zeros_like(x)`, so the fermat potential at traced
image positions stays in JAX and the jitted log-density traces."""
import jax
import jax.numpy as jnp
import numpy as np


class SIS:
    def function(self, x, y, theta_E, center_x=0.0, center_y=0.0):
        return theta_E * jnp.sqrt((x - center_x) ** 2 + (y - center_y) ** 2)

    def derivatives(self, x, y, theta_E, center_x=0.0, center_y=0.0):
        dx, dy = x - center_x, y - center_y
        r = jnp.sqrt(dx ** 2 + dy ** 2)
        return theta_E * dx / r, theta_E * dy / r


class MassModel:
    def __init__(self, func_list):
        self.func_list = func_list

    def _bool_list(self, k):
        return [True] * len(self.func_list) if k is None else [i == k for i in range(len(self.func_list))]

    def alpha(self, x, y, kwargs, k=None):
        f_x, f_y = jnp.zeros_like(x), jnp.zeros_like(x)
        for i, func in enumerate(self.func_list):
            dx, dy = func.derivatives(x, y, **kwargs[i])
            f_x, f_y = f_x + dx, f_y + dy
        return f_x, f_y

    def ray_shooting(self, x, y, kwargs, k=None):
        dx, dy = self.alpha(x, y, kwargs, k=k)
        return x - dx, y - dy

    def potential(self, x, y, kwargs, k=None):
        if isinstance(k, int):
            return self.func_list[k].function(x, y, **kwargs[k])
        bool_list = self._bool_list(k)
        potential = jnp.zeros_like(x)
        for i, func in enumerate(self.func_list):
            if bool_list[i] is True:
                potential += func.function(x, y, **kwargs[i])
        return potential

    def fermat_potential(self, x_image, y_image, kwargs_lens, x_source=None, y_source=None, k=None):
        potential = self.potential(x_image, y_image, kwargs_lens, k=k)
        if x_source is None or y_source is None:
            x_source, y_source = self.ray_shooting(x_image, y_image, kwargs_lens, k=k)
        geometry = ((x_image - x_source) ** 2 + (y_image - y_source) ** 2) / 2.0
        return geometry - potential


mass_model = MassModel([SIS()])
observed_delay = 12.0


@jax.jit
def log_density(params):
    kwargs_lens = [{"theta_E": params["theta_E"]}]
    phi = mass_model.fermat_potential(params["x_image"], params["y_image"], kwargs_lens)
    delay = 100.0 * (phi[1] - phi[0])
    return -0.5 * ((delay - observed_delay) / 1.0) ** 2


if __name__ == "__main__":
    params = {"theta_E": jnp.array(1.1),
              "x_image": jnp.array([1.0, -0.8]), "y_image": jnp.array([0.3, -0.2])}
    print(log_density(params))
    print(jax.grad(log_density)(params)["theta_E"])
